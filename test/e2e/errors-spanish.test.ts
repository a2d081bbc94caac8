// Error answers in Spanish over HTTP, against the local runtime of both services (loopback only): each error path
// is asked twice, without Accept-Language (English, the default) and with a Spanish one. Both answers have the same
// status, the same body keys (and each validation item the same loc and type), the same X-Error-Code; the Spanish
// text is the catalogue's (lambdas/shared/i18n/error-catalogue.ts) and differs from the English. Payments are not
// configured here: that 503 is one plain sentence, naming no variable or secret store.
import { translateMessage, matchMessage } from '../../lambdas/shared/i18n/errors';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { probeSpentHour } from '../helpers/quota-window';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(120_000);

let rt: TestRuntime;
let tripwire: Tripwire;
beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  rt = await startRuntime({ FREE_PER_HOUR: '1' }, { startWorker: false });
});
afterAll(async () => {
  await rt?.stop();
  tripwire.uninstall();
  expect(tripwire.attempts).toEqual([]);
});

type Service = 'narration' | 'documents';
interface Row {
  service: Service;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  status: number;
  /** X-Error-Code for a message detail; for a list of problems, the code of its first item's message. */
  code: string;
}

const json = { 'content-type': 'application/json' };
const ROWS: [string, Row][] = [
  ['unknown path', { service: 'narration', method: 'GET', path: '/nope', status: 404, code: 'not_found' }],
  [
    'wrong method',
    { service: 'narration', method: 'DELETE', path: '/voices', status: 405, code: 'method_not_allowed' },
  ],
  [
    'missing field',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: json,
      body: {},
      status: 422,
      code: 'field_required',
    },
  ],
  [
    'text too long',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: json,
      body: { text: 'a'.repeat(100_001) },
      status: 422,
      code: 'string_too_long',
    },
  ],
  [
    'unknown voice',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: json,
      body: { text: 'Hola.', voice: 'es-AR-Nadie' },
      status: 422,
      code: 'voice_unknown',
    },
  ],
  [
    'broken JSON',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: json,
      body: '{"text": ',
      status: 422,
      code: 'json_invalid',
    },
  ],
  [
    'wrong content type',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: { 'content-type': 'text/plain' },
      body: 'Hola',
      status: 415,
      code: 'unsupported_content_type',
    },
  ],
  [
    'invalid SSML (a nested message)',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: json,
      body: { text: '<speak><blink>hola</blink></speak>', text_type: 'ssml' },
      status: 422,
      code: 'ssml_invalid',
    },
  ],
  [
    'bad Idempotency-Key',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: { ...json, 'idempotency-key': 'k'.repeat(300) },
      body: { text: 'Hola.' },
      status: 422,
      code: 'idempotency_key_invalid',
    },
  ],
  [
    'free tier spent',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: json,
      body: { text: 'Otra vez.' }, // (each time another text: spentHour)
      status: 429,
      code: 'free_tier_limit',
    },
  ],
  [
    'unknown API key',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: { ...json, authorization: 'Bearer sk_nope' },
      body: { text: 'Hola.' },
      status: 401,
      code: 'api_key_unknown',
    },
  ],
  [
    'malformed Authorization',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/text',
      headers: { ...json, authorization: 'Basic eDp5' },
      body: { text: 'Hola.' },
      status: 401,
      code: 'authorization_malformed',
    },
  ],
  [
    'URL on loopback (refused before connecting)',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/url',
      headers: json,
      body: { url: 'http://127.0.0.1/nota' },
      status: 422,
      code: 'url_address_private',
    },
  ],
  [
    'URL not http',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/url',
      headers: json,
      body: { url: 'ftp://example.com/a' },
      status: 422,
      code: 'url_scheme',
    },
  ],
  [
    'a text file as the PDF',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/pdf',
      body: 'form:Esto es texto, no un PDF.',
      status: 422,
      code: 'pdf_other_kind',
    },
  ],
  [
    'unknown upload_id',
    {
      service: 'narration',
      method: 'POST',
      path: '/convert/pdf',
      headers: json,
      body: { upload_id: 'upl_' + 'a'.repeat(22) },
      status: 404,
      code: 'upload_unknown',
    },
  ],
  [
    'unknown audio',
    {
      service: 'narration',
      method: 'GET',
      path: '/audio/abc123',
      headers: { accept: 'application/json' },
      status: 404,
      code: 'audio_not_found',
    },
  ],
  [
    'malformed audio id',
    { service: 'narration', method: 'GET', path: '/audio/a%24b', status: 422, code: 'audio_id_format_ext' },
  ],
  [
    'timings format',
    {
      service: 'narration',
      method: 'GET',
      path: '/audio/abc123/timings?format=xml',
      status: 422,
      code: 'timings_format',
    },
  ],
  [
    'lexicons without a key',
    { service: 'narration', method: 'GET', path: '/v1/lexicons', status: 401, code: 'lexicons_paid_only' },
  ],
  [
    'demo in WAV',
    {
      service: 'narration',
      method: 'POST',
      path: '/demo/try',
      headers: json,
      body: { text: 'Hola.', fmt: 'wav' },
      status: 422,
      code: 'demo_mp3_only',
    },
  ],
  [
    'payments not configured',
    {
      service: 'narration',
      method: 'GET',
      path: '/pay/checkout/pro',
      headers: { accept: 'application/json' },
      status: 503,
      code: 'payments_not_configured',
    },
  ],
  [
    'webhook without a key',
    { service: 'narration', method: 'GET', path: '/v1/webhook', status: 401, code: 'webhook_key_required' },
  ],
  [
    'documents: no template',
    {
      service: 'documents',
      method: 'POST',
      path: '/v1/render',
      headers: json,
      body: { format: 'pdf', data: {} },
      status: 400,
      code: 'template_required',
    },
  ],
  [
    'documents: unknown template',
    {
      service: 'documents',
      method: 'POST',
      path: '/v1/render',
      headers: json,
      body: { template: 'menu', format: 'pdf', data: {} },
      status: 400,
      code: 'template_unknown',
    },
  ],
  [
    'documents: factura without data',
    {
      service: 'documents',
      method: 'POST',
      path: '/v1/render',
      headers: json,
      body: { template: 'factura', format: 'html', data: {} },
      status: 400,
      code: 'field_required',
    },
  ],
  [
    'documents: custom_html without a key',
    {
      service: 'documents',
      method: 'POST',
      path: '/v1/render',
      headers: json,
      body: { custom_html: '<p>{{ x }}</p>', format: 'pdf', data: { x: 1 } },
      status: 403,
      code: 'custom_html_paid',
    },
  ],
  [
    'documents: unknown template source',
    {
      service: 'documents',
      method: 'GET',
      path: '/templates/menu/source',
      status: 404,
      code: 'template_unknown_templates',
    },
  ],
  [
    'documents: payments not configured',
    {
      service: 'documents',
      method: 'GET',
      path: '/pay/checkout/scale',
      headers: { accept: 'application/json' },
      status: 503,
      code: 'payments_not_configured',
    },
  ],
  [
    'documents: unknown path',
    { service: 'documents', method: 'GET', path: '/v2/render', status: 404, code: 'not_found' },
  ],
];

async function ask(row: Row, language?: string) {
  const base = row.service === 'narration' ? rt.narrationUrl : rt.documentsUrl!;
  const headers: Record<string, string> = {
    ...row.headers,
    ...(language ? { 'accept-language': language } : {}),
  };
  let body: RequestInit['body'];
  if (typeof row.body === 'string' && row.body.startsWith('form:')) {
    const form = new FormData();
    form.append('file', new Blob([row.body.slice(5)], { type: 'application/pdf' }), 'nota.pdf');
    body = form;
  } else if (typeof row.body === 'string') body = row.body;
  else if (row.body !== undefined) body = JSON.stringify(row.body);
  const init = { method: row.method, headers, body, redirect: 'manual' as const };
  const res =
    row.code === 'free_tier_limit'
      ? await spentHour(base + row.path, init)
      : await fetch(base + row.path, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as { detail: unknown } };
}

let fresh = 0;
/**
 * The quota row's request, refused in an hour this caller (FREE_PER_HOUR=1) spent just before: probeSpentHour, so
 * across a turn of the hour too. Every text is new: a repeat would reuse its audio, uncharged (docs/reuse.md).
 */
async function spentHour(url: string, init: RequestInit): Promise<Response> {
  const convert = (text: string, req: RequestInit) => fetch(url, { ...req, body: JSON.stringify({ text }) });
  const { refused } = await probeSpentHour(
    1,
    () => convert(`Hola ${++fresh}.`, { method: 'POST', headers: { 'content-type': 'application/json' } }),
    () => convert(`Otra vez ${++fresh}.`, init),
  );
  return refused;
}

const digitless = (s: unknown) => String(s).replace(/\d+/g, '#');

interface Item {
  loc: unknown[];
  msg: string;
  type: string;
}
const keysOf = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(keysOf)
    : v && typeof v === 'object'
      ? Object.keys(v).map((k) => [k, keysOf((v as Record<string, unknown>)[k])])
      : typeof v;

test.each(ROWS)('%s: English by default, Spanish when asked, same shape and code', async (_name, row) => {
  const en = await ask(row);
  for (const language of ['es', 'es-MX,es;q=0.9,en;q=0.8', 'en-US;q=0.5, es-ES']) {
    const es = await ask(row, language);
    expect([en.status, es.status]).toEqual([row.status, row.status]);
    expect(keysOf(es.body)).toEqual(keysOf(en.body));
    expect(es.headers.get('x-error-code')).toBe(en.headers.get('x-error-code'));
    expect(es.headers.get('vary')).toMatch(/accept-language/i);
    if (typeof en.body.detail === 'string') {
      expect(en.headers.get('x-error-code')).toBe(row.code);
      expect(matchMessage(en.body.detail)?.code).toBe(row.code);
      // (digits aside: a 429's "try again in N seconds" counts down between the two requests)
      expect(digitless(es.body.detail)).toBe(digitless(translateMessage(en.body.detail, 'es')));
      expect(es.body.detail).not.toBe(en.body.detail);
    } else {
      const enItems = en.body.detail as Item[];
      const esItems = es.body.detail as Item[];
      expect(matchMessage(enItems[0]!.msg)?.code).toBe(row.code);
      expect(esItems.map((i) => [i.loc, i.type])).toEqual(enItems.map((i) => [i.loc, i.type]));
      enItems.forEach((item, i) => {
        expect(esItems[i]!.msg).toBe(translateMessage(item.msg, 'es'));
        expect(esItems[i]!.msg).not.toBe(item.msg);
      });
    }
    expect(es.text).not.toMatch(/STRIPE_|Secrets Manager|\bSSM\b/);
  }
  expect(en.text).not.toMatch(/STRIPE_|Secrets Manager|\bSSM\b/);
  // English is the default: an English or unknown preference gets the same answer as none.
  for (const language of ['en-US', 'fr', '*'])
    expect(digitless((await ask(row, language)).text)).toBe(digitless(en.text));
});
