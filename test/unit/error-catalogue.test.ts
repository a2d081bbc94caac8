// The error catalogue (lambdas/shared/i18n/error-catalogue.ts): every message either service can answer an error
// with has an entry (found by reading the sources, test/helpers/error-messages.ts), every entry has Spanish, and the
// answers keep their shape. Accept-Language negotiation is the `negotiator` library's.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOGUE_PARTS, ERROR_MESSAGES, type ErrorCode } from '../../lambdas/shared/i18n/error-catalogue';
import { matchMessage, preferredLanguage, translateMessage } from '../../lambdas/shared/i18n/errors';
import { localizeAnswer } from '../../lambdas/shared/http/localize';
import { json } from '../../lambdas/shared/http/response';
import { HOLE, scanErrorMessages, type MessageSite } from '../helpers/error-messages';

const ROOT = join(__dirname, '..', '..');
const SAMPLE = 'x7q'; // what a hole stands for when a shape is matched

/** Sites whose message has no catalogue entry (a shape made only of holes passes another message through). */
function unmatched(sites: MessageSite[]): MessageSite[] {
  return sites.filter((s) => {
    if (!/\p{L}{2}/u.test(s.shape.replaceAll(HOLE, ''))) return false;
    return matchMessage(s.shape.replaceAll(HOLE, SAMPLE)) === undefined;
  });
}

const placeholders = (t: string) => [...t.matchAll(/\{@?([a-z_][a-z0-9_]*)\}/g)].map((m) => m[1]!);
const entries = Object.entries(ERROR_MESSAGES) as [ErrorCode, readonly [string, string]][];

describe('every message the services can throw has an entry', () => {
  it('each code is declared in one part of the catalogue (a second one would silently replace the first)', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [part, messages] of Object.entries(CATALOGUE_PARTS))
      for (const code of Object.keys(messages)) {
        if (seen.has(code)) twice.push(`${code}: ${seen.get(code)} and ${part}`);
        seen.set(code, part);
      }
    expect(twice).toEqual([]);
    expect(seen.size).toBe(Object.keys(ERROR_MESSAGES).length);
  });

  // The parts are JSON (lambdas/shared/i18n/messages/*.json): their types say [English, Spanish], this checks it.
  const malformed = (parts: Record<string, Record<string, unknown>>) =>
    Object.entries(parts).flatMap(([part, messages]) =>
      Object.entries(messages)
        .filter(
          ([, v]) =>
            !(Array.isArray(v) && v.length === 2 && v.every((t) => typeof t === 'string' && t.trim())),
        )
        .map(([code]) => `${part}: ${code}`),
    );

  it('each entry is exactly [English, Spanish], two texts (a planted malformed one is reported)', () => {
    expect(malformed(CATALOGUE_PARTS)).toEqual([]);
    const planted = {
      platform: { ...CATALOGUE_PARTS.platform, planted_three: ['a', 'b', 'c'], planted_blank: ['Text', ' '] },
      documents: { planted_text: 'Only English' },
    };
    expect(malformed(planted)).toEqual([
      'platform: planted_three',
      'platform: planted_blank',
      'documents: planted_text',
    ]);
  });

  const sites = scanErrorMessages(ROOT);

  it('reads a plausible number of messages from both services and the templates', () => {
    for (const dir of ['lambdas/narration', 'lambdas/documents', 'lambdas/shared', 'templates/kit'])
      expect(sites.filter((s) => s.file.startsWith(dir)).length).toBeGreaterThan(20);
  });

  it('each one matches a catalogue entry (so it has Spanish)', () => {
    const missing = unmatched(sites).map(
      (s) => `${s.file}:${s.line} ${JSON.stringify(s.shape.replaceAll(HOLE, '{}'))}`,
    );
    expect(missing).toEqual([]);
  });

  it('the check fires on a message planted without an entry (negative control)', () => {
    const root = mkdtempSync(join(tmpdir(), 'catalogue-'));
    mkdirSync(join(root, 'lambdas'));
    writeFileSync(
      join(root, 'lambdas', 'planted.ts'),
      [
        "import { NotFound, invalid } from './errors';",
        "const WHY = 'The lexicon was eaten by a grue.';",
        'export const a = () => { throw new NotFound(WHY); };',
        "export const b = (n: number) => invalid(['body'], `Too many grues: ${n}`, 'grue');",
        "export const c = () => { throw new NotFound('Audio not found. It may have expired; audio is kept for a limited time after conversion.'); };",
      ].join('\n'),
    );
    const found = unmatched(scanErrorMessages(root, ['lambdas']));
    expect(found.map((s) => s.shape.replaceAll(HOLE, '{}')).sort()).toEqual([
      'The lexicon was eaten by a grue.',
      'Too many grues: {}',
    ]);
  });
});

describe.each(entries)('catalogue entry %s', (code, [en, es]) => {
  it('has Spanish that shows the same values and reads back to its own code', () => {
    expect(es.trim().length).toBeGreaterThan(0);
    if (code !== 'nomina_field') expect(es).not.toBe(en);
    expect(new Set(placeholders(es))).toEqual(new Set(placeholders(en)));
    // An instance of the English text is this entry (no other entry shadows it), and its Spanish carries the values.
    const values = Object.fromEntries(placeholders(en).map((n, i) => [n, `V${i}z`]));
    const instance = en.replace(/\{@?([a-z_][a-z0-9_]*)\}/g, (_, n: string) => values[n]!);
    expect(matchMessage(instance)?.code).toBe(code);
    const spanish = translateMessage(instance, 'es')!;
    expect(spanish).toBe(es.replace(/\{@?([a-z_][a-z0-9_]*)\}/g, (_, n: string) => values[n]!));
    expect(translateMessage(instance, 'en')).toBe(instance);
  });
});

describe('Accept-Language', () => {
  it.each([
    ['es', 'es'],
    ['es-MX', 'es'],
    ['es-ES,es;q=0.9', 'es'],
    ['es-419', 'es'],
    ['en-US,en;q=0.9,es;q=0.8', 'en'],
    ['en;q=0.5, es-MX', 'es'],
    ['fr-FR, es;q=0.3', 'es'],
    ['es;q=0, en', 'en'],
    ['es;q=0', 'en'],
    ['fr', 'en'],
    ['*', 'en'],
    ['', 'en'],
    [undefined, 'en'],
  ])('%p → %s', (header, lang) => {
    expect(preferredLanguage(header)).toBe(lang);
  });
});

describe('localizeAnswer', () => {
  const notFound = () =>
    json(404, {
      detail: 'Audio not found. It may have expired; audio is kept for a limited time after conversion.',
    });

  it('keeps English by default, adding the code and Vary', () => {
    const out = localizeAnswer(notFound(), undefined);
    expect(JSON.parse(out.body as string)).toEqual(JSON.parse(notFound().body as string));
    expect(out.headers).toMatchObject({ 'x-error-code': 'audio_not_found', vary: 'Accept-Language' });
  });

  it('answers Spanish with the same keys, status and code', () => {
    const quota = json(
      429,
      {
        detail:
          'Free tier limit reached: 5 conversions per hour per IP address. Try again in 60 seconds, or use an API key of a paid plan (no limits).',
        request_id: 'r1',
      },
      { 'retry-after': '60', vary: 'Origin' },
    );
    const out = localizeAnswer(quota, 'es-MX,es;q=0.9');
    const body = JSON.parse(out.body as string);
    expect(Object.keys(body)).toEqual(['detail', 'request_id']);
    expect(body.detail).toBe(
      'Llegaste al límite del plan gratuito: 5 conversiones por hora por dirección IP. Vuelve a intentarlo en 60 segundos, o usa una clave de API de un plan de pago (sin límites).',
    );
    expect(out.statusCode).toBe(429);
    expect(out.headers).toMatchObject({
      'x-error-code': 'free_tier_limit',
      'retry-after': '60',
      vary: 'Origin, Accept-Language',
    });
  });

  it('translates each validation item, keeping loc and type', () => {
    const items = json(422, {
      detail: [
        {
          loc: ['body', 'text'],
          msg: 'String should have at most 100000 characters',
          type: 'string_too_long',
        },
        {
          loc: ['body', 'voice'],
          msg: "Input should be 'es-MX-Mia' or 'es-ES-Lucia'",
          type: 'literal_error',
        },
        { loc: ['body', 'x'], msg: 'Field required', type: 'missing', ctx: { a: 1 } },
      ],
    });
    const out = JSON.parse(localizeAnswer(items, 'es').body as string);
    expect(out).toEqual({
      detail: [
        {
          loc: ['body', 'text'],
          msg: 'El texto debe tener como máximo 100000 caracteres',
          type: 'string_too_long',
        },
        { loc: ['body', 'voice'], msg: "Debe ser 'es-MX-Mia' o 'es-ES-Lucia'", type: 'literal_error' },
        { loc: ['body', 'x'], msg: 'Campo obligatorio', type: 'missing', ctx: { a: 1 } },
      ],
    });
  });

  it('translates nested messages and words, and leaves unknown text and other answers alone', () => {
    expect(
      translateMessage(
        "The host 'localhost' resolves to an address that is not on the public internet (loopback); this service only fetches public web pages. If the page opens in your browser, copy its text and send it to /convert/text.",
        'es',
      ),
    ).toBe(
      "El host 'localhost' se resuelve a una dirección que no está en internet público (la propia máquina (loopback)); este servicio solo descarga páginas web públicas. Si la página abre en tu navegador, copia su texto y envíalo a /convert/text.",
    );
    const unknown = json(400, { detail: 'Something nobody wrote down' });
    const out = localizeAnswer(unknown, 'es');
    expect(JSON.parse(out.body as string)).toEqual({ detail: 'Something nobody wrote down' });
    expect(out.headers?.['x-error-code']).toBeUndefined();
    const ok = json(200, { detail: 'Field required' });
    expect(localizeAnswer(ok, 'es')).toBe(ok);
  });
});
