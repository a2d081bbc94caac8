// The requests zip-functions.test.ts sends each route from its bundle: a scenario per `service/route id` (CASES),
// one GET of its path for the rest (defaultCase), and the helpers that build them (JSON, keyed, multipart PDF).
import PDFDocument from 'pdfkit';
import type { HttpRequest } from './events';
import type { MatchedFunction } from './harness';

export interface Keys {
  pro: string;
  scale: string;
}
interface Ctx {
  keys: Keys;
  pdf: Buffer;
}
/** One request of a scenario; `status` is asserted on top of the documented contract. */
interface Case {
  name: string;
  request: (ctx: Ctx) => HttpRequest;
  status?: number | ((s: number) => boolean);
}

export const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  ({
    method,
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }) as HttpRequest;
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const get = (
  path: string,
  headers: Record<string, string> = {},
  query?: Record<string, string>,
): HttpRequest => ({
  method: 'GET',
  path,
  headers,
  query,
});
const CALLER_IP = '198.51.100.20';
const BAD_KEY = 'vz_live_notarealkeynotarealkeynotarealkey0000';
const clientError = (s: number) => s >= 400 && s < 500;
/** 503 names a deployment setting the template does not carry (no -c context at synth). */
const answered = (s: number) => s < 500 || s === 503;

/** Requests per `service/route id`; routes not listed get one GET of their path. */
export const CASES: Record<string, Case[]> = {
  'narration/Voices': [{ name: 'list', request: () => get('/voices'), status: 200 }],
  'narration/ConvertText': [
    {
      name: 'free tier, inline synthesis',
      request: () => ({
        ...json('POST', '/convert/text', { text: 'Hola, esto es una prueba de narración.' }),
        sourceIp: CALLER_IP,
      }),
      status: 200,
    },
    {
      name: 'unknown key',
      request: () => json('POST', '/convert/text', { text: 'Hola.' }, bearer(BAD_KEY)),
      status: 401,
    },
    {
      name: 'pro key',
      request: (c) => json('POST', '/convert/text', { text: 'Hola con clave de pago.' }, bearer(c.keys.pro)),
      status: 200,
    },
    { name: 'invalid body', request: () => json('POST', '/convert/text', { text: '' }), status: 422 },
  ],
  'narration/ConvertPdf': [
    {
      name: 'a PDF (pdf.js in its worker thread)',
      request: (c) => multipartPdf(c.pdf, { sourceIp: CALLER_IP }),
      status: 200,
    },
    { name: 'JSON without upload_id', request: () => json('POST', '/convert/pdf', {}), status: 422 },
    {
      name: 'an upload_id never issued',
      request: () => json('POST', '/convert/pdf', { upload_id: 'upl_AAAAAAAAAAAAAAAAAAAAAA' }),
      status: 404,
    },
  ],
  'narration/ConvertPdfUpload': [
    {
      name: 'an upload slot (presigned POST)',
      request: () => ({ method: 'POST', path: '/convert/pdf/upload', headers: {}, sourceIp: CALLER_IP }),
      status: 201,
    },
  ],
  'narration/ConvertUrl': [
    {
      name: 'a loopback URL is refused before any connection',
      request: () => ({
        ...json('POST', '/convert/url', { url: 'http://127.0.0.1:9/articulo' }),
        sourceIp: CALLER_IP,
      }),
      status: clientError,
    },
  ],
  'narration/DemoTry': [
    {
      name: 'demo',
      request: () => ({
        ...json('POST', '/demo/try', { text: 'Hola desde la demostración.' }),
        sourceIp: CALLER_IP,
      }),
      status: 200,
    },
  ],
  'narration/GetAudio': [
    { name: 'unknown id', request: () => get('/audio/aud_unknown0000'), status: clientError },
  ],
  'narration/Waitlist': [
    {
      name: 'join',
      request: () => ({
        ...json('POST', '/waitlist', { email: 'artifact@example.com' }),
        sourceIp: CALLER_IP,
      }),
      status: (s) => s >= 200 && s < 300,
    },
  ],
  'narration/PayStatus': [
    { name: 'no key', request: () => get('/pay/status'), status: answered },
    { name: 'pro key', request: (c) => get('/pay/status', bearer(c.keys.pro)), status: answered },
  ],
  'narration/PayKeysRotate': [
    { name: 'no key', request: () => json('POST', '/pay/keys/rotate', {}), status: answered },
    {
      name: 'pro key',
      request: (c) => json('POST', '/pay/keys/rotate', {}, bearer(c.keys.pro)),
      status: answered,
    },
  ],
  'narration/PayPortal': [
    { name: 'portal', request: () => json('POST', '/pay/portal', {}), status: answered },
  ],
  'narration/PayWebhook': [
    {
      name: 'unsigned event',
      request: () => json('POST', '/pay/webhook', { type: 'ping' }, { 'stripe-signature': 't=1,v1=00' }),
      status: answered,
    },
  ],
  'narration/PayCheckout': [{ name: 'pro', request: () => get('/pay/checkout/pro'), status: answered }],
  'narration/PaySuccess': [
    {
      name: 'session',
      request: () => get('/pay/success', {}, { session_id: 'cs_test_1' }),
      status: answered,
    },
  ],
  'narration/AbAssign': [{ name: 'experiment', request: () => get('/ab/assign/landing'), status: answered }],
  'narration/AbEvent': [
    {
      name: 'event',
      request: () => ({
        ...json('POST', '/ab/event', {
          experiment: 'landing',
          visitor: 'v-artifact-1234567890',
          type: 'view',
        }),
        sourceIp: CALLER_IP,
      }),
      status: answered,
    },
  ],
  'narration/AbResults': [{ name: 'results', request: () => get('/ab/results/landing'), status: answered }],
  'narration/Embed': [{ name: 'script', request: () => get('/embed.js'), status: 200 }],
  'narration/ApiDocs': [
    { name: 'html', request: () => get('/api'), status: 200 },
    { name: 'json', request: () => get('/api', {}, { format: 'json' }), status: 200 },
  ],
  'narration/NotFound': [{ name: 'unknown path', request: () => get('/nope'), status: 404 }],
  'documents/Pricing': [{ name: 'plans', request: () => get('/pricing'), status: 200 }],
  'documents/DocumentStats': [{ name: 'stats', request: () => get('/stats'), status: 200 }],
  'documents/PayStatus': [
    { name: 'no key', request: () => get('/pay/status'), status: answered },
    { name: 'scale key', request: (c) => get('/pay/status', bearer(c.keys.scale)), status: answered },
  ],
  'documents/PayKeysRotate': [
    {
      name: 'scale key',
      request: (c) => json('POST', '/pay/keys/rotate', {}, bearer(c.keys.scale)),
      status: answered,
    },
  ],
  'documents/PayPortal': [
    { name: 'portal', request: () => json('POST', '/pay/portal', {}), status: answered },
  ],
  'documents/PayWebhook': [
    {
      name: 'unsigned event',
      request: () => json('POST', '/pay/webhook', { type: 'ping' }, { 'stripe-signature': 't=1,v1=00' }),
      status: answered,
    },
  ],
  'documents/PayCheckout': [{ name: 'scale', request: () => get('/pay/checkout/scale'), status: answered }],
  'documents/PaySuccess': [
    {
      name: 'session',
      request: () => get('/pay/success', {}, { session_id: 'cs_test_1' }),
      status: answered,
    },
  ],
  'documents/GetJob': [
    { name: 'no key', request: () => get('/v1/jobs/job_unknown'), status: 401 },
    {
      name: 'scale key, unknown job',
      request: (c) => get('/v1/jobs/job_unknown', bearer(c.keys.scale)),
      status: 404,
    },
  ],
  'documents/WebhookPut': [
    {
      name: 'no key',
      request: () => json('PUT', '/v1/webhook', { url: 'https://10.0.0.1/hook' }),
      status: 401,
    },
    {
      name: 'scale key, private address refused before any connection',
      request: (c) => json('PUT', '/v1/webhook', { url: 'https://10.0.0.1/hook' }, bearer(c.keys.scale)),
      status: clientError,
    },
    {
      name: 'pro key (webhooks are Scale)',
      request: (c) => json('PUT', '/v1/webhook', { url: 'https://10.0.0.1/hook' }, bearer(c.keys.pro)),
      status: clientError,
    },
  ],
  'documents/WebhookGet': [
    { name: 'no key', request: () => get('/v1/webhook'), status: 401 },
    {
      name: 'scale key, none registered',
      request: (c) => get('/v1/webhook', bearer(c.keys.scale)),
      status: 404,
    },
  ],
  'documents/WebhookDelete': [
    { name: 'no key', request: () => ({ method: 'DELETE', path: '/v1/webhook' }), status: 401 },
    {
      name: 'scale key',
      request: (c) => ({ method: 'DELETE', path: '/v1/webhook', headers: bearer(c.keys.scale) }),
      status: clientError,
    },
  ],
  'documents/WebhookRotateSecret': [
    { name: 'no key', request: () => json('POST', '/v1/webhook/rotate-secret', {}), status: 401 },
    {
      name: 'scale key, none registered',
      request: (c) => json('POST', '/v1/webhook/rotate-secret', {}, bearer(c.keys.scale)),
      status: clientError,
    },
  ],
  'documents/NotFound': [{ name: 'unknown path', request: () => get('/nope'), status: 404 }],
};

export function defaultCase(m: MatchedFunction): Case[] {
  const [method, path] =
    m.routeKey === '$default' ? ['GET', '/nope'] : (m.routeKey!.split(' ') as [string, string]);
  const concrete = path.replace(/\{[^}]+\}/g, 'x');
  return [{ name: `${method} ${concrete}`, request: () => ({ method, path: concrete }), status: answered }];
}

function multipartPdf(pdf: Buffer, extra: Partial<HttpRequest>): HttpRequest {
  const boundary = '----artifact-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="prueba.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    method: 'POST',
    path: '/convert/pdf',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    ...extra,
  };
}

export function makePdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    doc.on('data', (b: Buffer) => parts.push(b));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.fontSize(14).text('Informe breve. La narración de este documento comprueba la extracción de texto.');
    doc.end();
  });
}
