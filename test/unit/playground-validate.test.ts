// The documents playground's in-browser check (lambdas/documents/site/src/lib/validate.js), run here on the real
// JSON Schemas GET /templates serves: the API's own samples pass, each kind of problem gets its Spanish message and
// JSON path, and the paths the page reports for broken data are the ones the API's own validation reports
// (validateRenderRequest), so what the person fixes in the browser is what the server would refuse.
import { listTemplates } from '../../lambdas/documents/domain/template-registry';
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
// @ts-expect-error -- browser module in plain JavaScript (bundled by scripts/build-site.ts), no type declarations
import * as validate from '../../lambdas/documents/site/src/lib/validate.js';

interface Problem {
  path: string;
  message: string;
  hint?: string;
  offset?: number;
}
type Check = (text: string) => { value?: unknown; problems: Problem[]; count: number };
const { makeChecker, jsonPath, locate } = validate as {
  makeChecker(schema: unknown): Check;
  jsonPath(segments: (string | number)[]): string;
  locate(text: string, segments: (string | number)[]): { offset: number; length: number } | undefined;
};

const listing = listTemplates();
const template = (slug: string) => listing.templates.find((t) => t.slug === slug)!;

test.each(listing.templates.map((t) => [t.slug]))('%s: its sample data has no problem', (slug) => {
  const t = template(slug);
  expect(makeChecker(t.fields)(JSON.stringify(t.sample, null, 2)).problems).toEqual([]);
});

describe('factura with broken data', () => {
  const t = template('factura');
  const check = makeChecker(t.fields);
  const bad = structuredClone(t.sample) as Record<string, unknown> & { items: Record<string, unknown>[] };
  delete bad.cliente;
  bad.empresa = '';
  bad.items[0]!.cantidad = 'dos';
  bad.items[1]!.tasa_iva = 0.5;
  bad.items[2]!.precio = -1;
  const result = check(JSON.stringify(bad, null, 2));

  test('one Spanish message per problem, with its JSON path and the field description as a hint', () => {
    expect(result.problems.map((p) => [p.path, p.message])).toEqual([
      ['$', 'falta el campo obligatorio «cliente».'],
      ['$.empresa', 'no puede estar vacío.'],
      ['$.items[0].cantidad', 'debe ser un número.'],
      ['$.items[1].tasa_iva', 'debe ser 0, 0.08, 0.16 o "exento".'],
      ['$.items[2].precio', 'debe ser mayor o igual que 0.'],
    ]);
    expect(result.count).toBe(5);
    expect(result.problems[0]!.hint).toBe('Nombre o razón social de quien recibe la factura');
    expect(result.problems[2]!.hint).toMatch(/^Cantidad/);
  });

  test("the paths are the ones POST /v1/render's validation reports", () => {
    const server = validateRenderRequest({ template: 'factura', format: 'pdf', data: bad });
    expect(server.ok).toBe(false);
    const serverPaths = new Set(
      (server.ok ? [] : server.problems).map((p) => {
        const loc = p.loc.slice(2); // ["body", "data", ...]
        // A missing field is reported at the field by the API, at its object by JSON Schema.
        return p.type === 'missing' ? jsonPath(loc.slice(0, -1)) : jsonPath(loc);
      }),
    );
    expect(new Set(result.problems.map((p) => p.path))).toEqual(serverPaths);
  });
});

describe('JSON syntax', () => {
  const check = makeChecker(template('ventas').fields);
  test('a trailing comma and a missing comma name line and column; the offset is where to put the cursor', () => {
    const trailing = '{\n  "title": "Ventas",\n}';
    expect(check(trailing).problems).toEqual([
      {
        path: '$',
        message:
          'El JSON no es válido en la línea 3, columna 1: se esperaba el nombre de un campo entre comillas dobles (¿sobra una coma antes?).',
        offset: trailing.indexOf('}'),
      },
    ]);
    expect(check('{"title": "Ventas"\n "rows": []}').problems[0]!.message).toBe(
      'El JSON no es válido en la línea 2, columna 2: falta una coma o sobra una.',
    );
  });

  test('empty text and a non-object are explained', () => {
    expect(check('  ').problems[0]!.message).toBe('Está vacío: escribe un objeto JSON, por ejemplo {}.');
    expect(check('[]').problems[0]).toMatchObject({ path: '$', message: 'debe ser un objeto { … }.' });
  });
});

test('jsonPath quotes keys that are not identifiers; locate finds a field in the text', () => {
  expect(jsonPath(['items', 0, 'precio unitario', 'a.b'])).toBe('$.items[0]["precio unitario"]["a.b"]');
  const text = '{\n  "items": [\n    {"x": 1},\n    {"cantidad": "dos"}\n  ]\n}';
  const at = locate(text, ['items', '1', 'cantidad'])!;
  expect(text.slice(at.offset, at.offset + at.length)).toBe('"cantidad": "dos"');
  expect(locate(text, ['nope'])).toBeUndefined();
});
