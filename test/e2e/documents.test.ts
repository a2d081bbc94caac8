// The Documents API over HTTP against the local runtime: every built-in template in every format it declares,
// checked with independent tools (qpdf, pdftotext, Python's zipfile and csv modules, pngjs decoding the PNG's pixels,
// LibreOffice reading the custom_html XLSX's cells); the contract's 400s; custom templates for paid keys; the free
// tier's monthly quota under concurrency.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { generateKey, hashKey } from '../../lambdas/shared/auth/keys';
import { monthlyRules } from '../../lambdas/documents/core/plans';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { tempDir } from '../helpers/env';
import { sofficeCells } from '../helpers/office';
import { blankPng, pngProblems, type Rgb } from '../helpers/png';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(180_000);

let rt: TestRuntime;
const files = tempDir('docs-');
let proKey = '';

beforeAll(async () => {
  rt = await startRuntime({}, { trustProxy: true });
  proKey = generateKey();
  await new DynamoKeyStore(dynamo(), rt.emulators.tableNames.keys).put({
    keyHash: hashKey(proKey),
    keyPrefix: proKey.slice(0, 10),
    plan: 'pro',
    status: 'active',
    email: 'docs@example.com',
    createdAt: new Date().toISOString(),
  });
});
afterAll(async () => {
  await rt.stop();
  files.cleanup();
});

const url = (p: string) => rt.documentsUrl! + p;
let ipSeq = 1;
/** Each test renders as its own client (TRUST_PROXY), so quotas do not interfere. */
const from = () => ({ 'x-forwarded-for': `198.51.100.${ipSeq++}` });

async function render(body: unknown, headers: Record<string, string> = from()) {
  return fetch(url('/v1/render'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const WHITE: Rgb = [255, 255, 255];
const py = (code: string, file: string) => execFileSync('python3', ['-c', code, file], { encoding: 'utf8' });

interface Listing {
  templates: { slug: string; formats: string[]; sample: unknown; fields: { type: string } }[];
}

describe('every template in every format it declares', () => {
  let listing: Listing;
  beforeAll(async () => {
    const res = await fetch(url('/templates'));
    expect(res.status).toBe(200);
    listing = (await res.json()) as Listing;
  });

  test('GET /templates lists the six contract templates with JSON Schemas', () => {
    expect(listing.templates.map((t) => t.slug).sort()).toEqual([
      'balance',
      'certificado',
      'cotizacion',
      'factura',
      'nomina',
      'ventas',
    ]);
    for (const t of listing.templates) expect(t.fields.type).toBe('object');
  });

  test('renders and validates', async () => {
    const checked: string[] = [];
    for (const t of listing.templates) {
      for (const format of t.formats) {
        const res = await render({ template: t.slug, format, data: t.sample });
        expect([t.slug, format, res.status]).toEqual([t.slug, format, 200]);
        expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+"/);
        const bytes = Buffer.from(await res.arrayBuffer());
        const file = join(files.path, `${t.slug}.${format}`);
        writeFileSync(file, bytes);
        const type = res.headers.get('content-type') ?? '';
        switch (format) {
          case 'pdf':
            expect(type).toBe('application/pdf');
            execFileSync('qpdf', ['--check', file]); // throws on a damaged PDF
            expect(
              execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).trim().length,
            ).toBeGreaterThan(50);
            break;
          case 'html':
            expect(type).toMatch(/^text\/html/);
            expect(bytes.toString('utf8')).toMatch(/<html[\s>]/i);
            break;
          case 'xlsx':
          case 'docx':
          case 'zip': {
            const names = JSON.parse(
              py(
                'import sys,zipfile,json; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(json.dumps(z.namelist()))',
                file,
              ),
            ) as string[];
            if (format === 'xlsx') expect(names).toContain('xl/workbook.xml');
            if (format === 'docx') expect(names).toContain('word/document.xml');
            if (format === 'zip') expect(names).toContain('data.json');
            break;
          }
          case 'csv': {
            const rows = JSON.parse(
              py(
                'import sys,csv,json; print(json.dumps(list(csv.reader(open(sys.argv[1], encoding="utf-8-sig")))))',
                file,
              ),
            ) as string[][];
            expect(rows.length).toBeGreaterThan(1);
            expect(new Set(rows.map((r) => r.length)).size).toBe(1);
            break;
          }
          default:
            throw new Error(`unchecked format ${format}`);
        }
        checked.push(`${t.slug}.${format}`);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(15);
  });

  test('formats without a template: json, md, txt and png through custom_html (paid key)', async () => {
    const body = {
      custom_html: '<h1>Hola {{ nombre }}</h1><p>Año {{ anio }}</p>',
      data: { nombre: 'Ñandú', anio: 2026 },
    };
    for (const format of ['json', 'md', 'txt', 'png', 'pdf', 'html']) {
      const res = await render({ ...body, format }, { authorization: `Bearer ${proKey}` });
      expect([format, res.status]).toEqual([format, 200]);
      const bytes = Buffer.from(await res.arrayBuffer());
      if (format === 'png') {
        // Decoded by pngjs: the default 1024x768 viewport, white paper with the heading's ink on it; a blank image
        // of the same size fails the same check (negative control).
        const png = { width: 1024, height: 768, colours: [[1000, 700, WHITE]] as [number, number, Rgb][] };
        expect(pngProblems(bytes, { ...png, minInk: 0.001 })).toEqual([]);
        expect(pngProblems(blankPng(1024, 768), { ...png, minInk: 0.001 })).toEqual([
          expect.stringMatching(/^only 0\.000% of the pixels differ/),
        ]);
      }
      if (format === 'md' || format === 'txt' || format === 'html')
        expect(bytes.toString('utf8').toLowerCase()).toContain('hola ñandú'); // txt capitalises headings
      if (format === 'json') expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ nombre: 'Ñandú' });
      if (format === 'pdf') {
        const file = join(files.path, 'custom.pdf');
        writeFileSync(file, bytes);
        expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain('Hola Ñandú');
        expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).not.toContain('plan gratuito');
      }
    }
  });

  test('custom_html → XLSX: LibreOffice reads the table as typed cells; a tampered copy reads otherwise', async () => {
    const res = await render(
      {
        format: 'xlsx',
        custom_html:
          '<table><caption>Ventas</caption><tr><th>Producto</th><th>Unidades</th><th>Ingresos</th></tr>' +
          '{% for r in filas %}<tr><td>{{ r.p }}</td><td>{{ r.u }}</td><td>{{ r.i }}</td></tr>{% endfor %}</table>',
        data: {
          filas: [
            { p: 'Café, molido', u: 3, i: 1234.5 },
            { p: 'Ñandú "azul"', u: 10, i: 99.9 },
          ],
        },
      },
      { authorization: `Bearer ${proKey}` },
    );
    expect(res.status).toBe(200);
    const good = join(files.path, 'custom-table.xlsx');
    writeFileSync(good, Buffer.from(await res.arrayBuffer()));
    // Negative control: the same workbook with one number changed inside its sheet XML.
    const zip = await JSZip.loadAsync(readFileSync(good));
    const sheet = Object.keys(zip.files).find((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))!;
    const xml = await zip.file(sheet)!.async('string');
    expect(xml).toContain('<v>1234.5</v>');
    zip.file(sheet, xml.replace('<v>1234.5</v>', '<v>1243.5</v>'));
    const bad = join(files.path, 'custom-table-tampered.xlsx');
    writeFileSync(bad, await zip.generateAsync({ type: 'nodebuffer' }));

    const [cells, tamperedCells] = sofficeCells([good, bad], files.path);
    const expected = {
      Ventas: [
        ['Ventas'], // the caption, as a title row
        ['Producto', 'Unidades', 'Ingresos'],
        ['Café, molido', 3, 1234.5],
        ['Ñandú "azul"', 10, 99.9],
      ],
    };
    expect(cells).toEqual(expected);
    expect(tamperedCells).not.toEqual(expected);
    expect(tamperedCells!.Ventas![2]).toEqual(['Café, molido', 3, 1243.5]);
  });

  test('GET /templates/{slug}/sample.pdf and /source', async () => {
    const pdf = await fetch(url('/templates/factura/sample.pdf'));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const file = join(files.path, 'sample.pdf');
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    execFileSync('qpdf', ['--check', file]);
    const src = await fetch(url('/templates/factura/source'));
    expect(src.status).toBe(200);
    expect(await src.text()).toMatch(/\{\{|\{%/);
    expect((await fetch(url('/templates/nope/source'))).status).toBe(404);
  });
});

describe('invalid requests: 400 with every problem at once', () => {
  const problems = async (res: Response) => {
    expect(res.status).toBe(400);
    return ((await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail;
  };
  test('missing fields', async () => {
    const d = await problems(await render({}));
    expect(d.map((p) => p.loc.join('.'))).toEqual(expect.arrayContaining(['body.format', 'body.data']));
  });
  test('unknown template names the known ones; unsupported format names the allowed ones', async () => {
    const a = await problems(await render({ template: 'recibo', format: 'pdf', data: {} }));
    expect(a[0]!.msg).toContain('factura');
    const b = await problems(await render({ template: 'nomina', format: 'xlsx', data: {} }));
    expect(JSON.stringify(b)).toContain('pdf');
  });
  test('data failing the template schema: per-field messages', async () => {
    const d = await problems(
      await render({
        template: 'factura',
        format: 'pdf',
        data: { empresa: '', cliente: 'X', items: [{ concepto: 'A', cantidad: -1 }], moneda: 'MXN' },
      }),
    );
    const locs = d.map((p) => p.loc.join('.'));
    expect(locs.some((l) => l.startsWith('body.data.items.0'))).toBe(true);
    expect(d.length).toBeGreaterThanOrEqual(2);
  });
  test('malformed JSON is a 400 too', async () => {
    const res = await fetch(url('/v1/render'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from() },
      body: '{"template": ',
    });
    await problems(res);
  });
  test('a body over the 2 MiB limit is refused before it is read: 400 body_too_large (no 422 here)', async () => {
    const res = await fetch(url('/v1/render'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from() },
      body: JSON.stringify({ template: 'factura', format: 'pdf', data: { x: 'a'.repeat(2 * 1024 * 1024) } }),
    });
    const d = await problems(res);
    expect(d).toEqual([expect.objectContaining({ loc: ['body'], type: 'body_too_large' })]);
  });
  test('custom_html without a paid key: 403 naming the fix; unknown key: 401', async () => {
    const res = await render({ custom_html: '<p>x</p>', format: 'pdf', data: {} });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/Bearer/);
    const ventas = { title: 'Ventas', rows: [{ product: 'A', units: 1, revenue: 10 }] };
    const bad = await render(
      { template: 'ventas', format: 'csv', data: ventas },
      { authorization: 'Bearer key_nope' },
    );
    expect(bad.status).toBe(401);
  });
});

describe('free tier: 50 documents per calendar month per IP', () => {
  test('100 concurrent renders from one IP: 50 admitted, each delivered or cut at the deadline (503, not charged), the rest 429 with Retry-After until the 1st (UTC)', async () => {
    const ip = '203.0.113.77';
    const headers = { 'x-forwarded-for': ip };
    const sample = (await (await fetch(url('/templates'))).json()) as Listing;
    const ventas = sample.templates.find((t) => t.slug === 'ventas')!;
    const before = Date.now();
    const res = await Promise.all(
      Array.from({ length: 100 }, () =>
        render({ template: 'ventas', format: 'csv', data: ventas.sample }, headers),
      ),
    );
    const after = Date.now();
    // Every answer by kind, so a failure shows all that came back: delivered (200), the monthly limit (429), or the
    // route's deadline (503 + Retry-After: on a starved machine some of the 100 outlast it; nothing is charged).
    const kinds = await Promise.all(
      res.map(async (r) => {
        if (r.status === 200) return (await r.arrayBuffer(), '200');
        const { detail } = (await r.json()) as { detail: string };
        if (r.status === 429 && /^Monthly limit reached: 50 documents/.test(detail)) return '429 monthly';
        // middy's answer at the deadline, or the route's own when it stopped first (its signal is aborted sooner).
        if (r.status === 503 && /took too long/.test(detail) && r.headers.get('retry-after'))
          return '503 deadline';
        return `${r.status} ${detail}`;
      }),
    );
    const counts: Record<string, number> = {};
    for (const k of kinds) counts[k] = (counts[k] ?? 0) + 1;
    const delivered = counts['200'] ?? 0;
    const cut = counts['503 deadline'] ?? 0;
    expect(counts).toEqual({
      ...(delivered ? { 200: delivered } : {}),
      ...(cut ? { '503 deadline': cut } : {}),
      ...(delivered + cut < 100 ? { '429 monthly': 100 - delivered - cut } : {}),
    });
    // Exactly 50 were admitted (a 429 only once 50 were charged): each delivered or cut; so with no cut, 50 and 50.
    expect(delivered).toBeLessThanOrEqual(50);
    expect(delivered + cut).toBeGreaterThanOrEqual(50);
    // Charges follow deliveries: a render cut at the deadline, even while its charge was committed, is given back.
    const quotas = new DynamoQuotaStore(dynamo(), rt.emulators.tableNames.quotas);
    const [month] = await quotas.peek(`docs#${ipSubject(ip)}`, monthlyRules('free'), new Date(before));
    expect(month!.used).toBe(delivered);
    // Each 429: Retry-After is the seconds to the 1st (UTC) as seen at some moment of the requests (a run that
    // crosses a month end sees either).
    const monthEnd = (t: number) => Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth() + 1, 1);
    const ends = [...new Set([monthEnd(before), monthEnd(after)])];
    const untilReset = (retry: number) =>
      ends.some((end) => retry >= (end - after) / 1000 - 1 && retry <= (end - before) / 1000 + 1);
    const limited = res.filter((_, i) => kinds[i] === '429 monthly');
    expect(limited.map((r) => untilReset(Number(r.headers.get('retry-after'))))).toEqual(
      limited.map(() => true),
    );
    expect(limited.map((r) => r.headers.get('ratelimit-limit'))).toEqual(limited.map(() => '50'));
  });
});
