// Every zip function of both stacks, run from its bundle in cdk.out under Node 22 with exactly the template's
// environment (references resolved to the emulators, SDK endpoint variables pointed at them), invoked with real
// events: each answers as its API documents (contractProblems: a documented status, its content type, a JSON body
// its schema accepts, Location on a redirect) with the status each case expects. What the TypeScript sources answer
// is the e2e layer's (every route through the local runtime); here only the bundle runs, so what this file adds is
// what bundling can break: a module left out, a file not found beside the bundle, a template variable missing.
// Keyed routes are called with real keys from the emulator's keys table; the narration worker narrates a real
// queued job (its audio checked with ffprobe).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import PDFDocument from 'pdfkit';
import { generateKey, hashKey, type PaidPlan } from '../../lambdas/shared/auth/keys';
import { dynamo, resetClients } from '../../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { resetConfig } from '../../lambdas/shared/config';
import { FFPROBE } from '../helpers/runtime';
import { bundleSources } from './assembly';
import { httpApiEvent, sqsEvent, type HttpRequest } from './events';
import type { RouteSpec } from '../../lambdas/shared/manifest';
import {
  answerOf,
  bodyText,
  contractProblems,
  harness,
  MANIFESTS,
  header,
  type Harness,
  type MatchedFunction,
} from './harness';
import type { LambdaProcess } from './lambda';

jest.setTimeout(180_000);

interface Keys {
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

const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  ({
    method,
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }) as HttpRequest;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const get = (
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
const CASES: Record<string, Case[]> = {
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

function defaultCase(m: MatchedFunction): Case[] {
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

function makePdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    doc.on('data', (b: Buffer) => parts.push(b));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.fontSize(14).text('Informe breve. La narración de este documento comprueba la extracción de texto.');
    doc.end();
  });
}

let h: Harness;
let pdf: Buffer;
const keys: Keys = { pro: '', scale: '' };

beforeAll(async () => {
  h = await harness();
  Object.assign(process.env, h.state.env);
  resetConfig();
  resetClients();
  const store = new DynamoKeyStore(dynamo(), h.state.env.KEYS_TABLE!);
  const make = async (plan: PaidPlan) => {
    const key = generateKey();
    await store.put({
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, 10),
      plan,
      status: 'active',
      email: `${plan}@example.com`,
      createdAt: new Date().toISOString(),
    });
    return key;
  };
  Object.assign(keys, { pro: await make('pro'), scale: await make('scale') });
  pdf = await makePdf();
}, 20 * 60_000); // includes waiting for the background synth (prepare.ts)

afterAll(() => {
  resetClients();
  h?.close();
});

const zipFunctions = (): MatchedFunction[] => h.functions.filter((m) => m.fn.packaging === 'zip');

test('the assembly holds every manifest route and worker, zip ones with a bundle', () => {
  const names = h.functions.map((m) => `${m.manifest.service}/${m.entry.id}`).sort();
  const manifests = [...new Set(h.functions.map((m) => m.manifest))];
  expect(manifests).toHaveLength(2);
  const expected = manifests
    .flatMap((mf) =>
      [...mf.routes, ...mf.workers, ...(mf.schedules ?? [])].map((e) => `${mf.service}/${e.id}`),
    )
    .sort();
  expect(names).toEqual(expected);
  for (const m of h.functions) expect(m.fn.packaging).toBe(m.entry.packaging ?? 'zip');
  expect(zipFunctions().length).toBeGreaterThanOrEqual(30);
});

test('no bundle carries test code (production never reaches test/**)', () => {
  const offenders = zipFunctions().flatMap((m) =>
    bundleSources(join(h.state.runDir, m.fn.assetPath))
      .filter((s) => !s.includes('/node_modules/') && /(^|\/)test\//.test(s))
      .map((s) => `${m.manifest.service}/${m.entry.id}: ${s}`),
  );
  expect(offenders).toEqual([]);
});

async function withBundle<T>(m: MatchedFunction, run: (bundle: LambdaProcess) => Promise<T>) {
  const bundle = await h.startBundle(m);
  try {
    return await run(bundle);
  } finally {
    await bundle.stop();
  }
}

test('the contract check refuses answers a route does not document (negative control)', () => {
  const route = (service: string, id: string) =>
    MANIFESTS.find((mf) => mf.service === service)!.routes.find((r) => r.id === id)!;
  const voices = route('narration', 'Voices');
  const json200 = { statusCode: 200, headers: { 'content-type': 'application/json' } };
  expect(contractProblems(voices, { ...json200, statusCode: 500, body: '{"detail":"boom"}' })).toEqual([
    expect.stringMatching(/^status 500 is not documented/),
  ]);
  expect(
    contractProblems(voices, { ...json200, headers: { 'content-type': 'text/html' }, body: '<p>' }),
  ).toEqual([expect.stringMatching(/^content type text\/html/)]);
  expect(contractProblems(voices, { ...json200, body: '{"voices":"none"}' })).toEqual([
    expect.stringMatching(/^body does not match its schema/),
  ]);
  expect(contractProblems(voices, { ...json200, body: 'not json' })).toEqual(['body is not JSON']);
  expect(contractProblems(route('narration', 'AudioSegment'), { statusCode: 302, headers: {} })).toEqual([
    'redirect 302 without Location',
  ]);
  // The $default route has no docs: it answers the platform's {"detail"} 404.
  const notFound = route('narration', 'NotFound');
  expect(contractProblems(notFound, { ...json200, statusCode: 404, body: '{"detail":"Not found"}' })).toEqual(
    [],
  );
  expect(contractProblems(notFound, { ...json200, statusCode: 404, body: '{"error":1}' })).toEqual([
    expect.stringMatching(/^body does not match its schema/),
  ]);
});

describe('routes', () => {
  // Names are known only after the global setup: one test per zip route of the manifests, looked up at run time.
  // Image routes run from the rebuilt image in image.test.ts (one test each there).
  const routeIds = MANIFESTS.flatMap((mf) =>
    mf.routes.filter((r) => r.packaging !== 'image').map((r) => `${mf.service}/${r.id}`),
  );
  test.each(routeIds)('%s answers from its bundle as its API documents', async (id) => {
    const m = h.functions.find((f) => `${f.manifest.service}/${f.entry.id}` === id)!;
    expect(m).toBeDefined();
    expect(m.fn.packaging).toBe('zip');
    const cases = CASES[id] ?? defaultCase(m);
    await withBundle(m, async (bundle) => {
      for (const c of cases) {
        const result = await bundle.invoke(
          httpApiEvent(m.routeKey!, c.request({ keys, pdf })),
          m.fn.timeoutS * 1000 + 5_000,
        );
        const context = `${id} — ${c.name}\nbundle logs:\n${bundle.logs().slice(-4000)}`;
        const answer = answerOf(result, context);
        // On a problem, the failure shows the answer and the bundle's logs.
        const problems = contractProblems(m.entry as RouteSpec, answer);
        expect({
          case: c.name,
          problems,
          ...(problems.length
            ? { answer: `${answer.statusCode} ${bodyText(answer).slice(0, 600)}\n${context}` }
            : {}),
        }).toEqual({ case: c.name, problems: [] });
        if (typeof c.status === 'number')
          expect({ case: c.name, status: answer.statusCode }).toEqual({ case: c.name, status: c.status });
        else if (c.status && !c.status(answer.statusCode))
          throw new Error(
            `${context}\nunexpected status ${answer.statusCode}: ${bodyText(answer).slice(0, 500)}`,
          );
      }
    });
  });
});

describe('workers', () => {
  const find = (service: string, id: string) => {
    const m = h.functions.find((f) => f.manifest.service === service && f.entry.id === id);
    if (!m) throw new Error(`${service}/${id} is not in the assembly`);
    return m;
  };
  const sqsClient = () =>
    new SQSClient({
      endpoint: h.state.env.AWS_ENDPOINT_URL_SQS,
      region: h.state.env.AWS_REGION,
      credentials: {
        accessKeyId: h.state.env.AWS_ACCESS_KEY_ID!,
        secretAccessKey: h.state.env.AWS_SECRET_ACCESS_KEY!,
      },
    });

  test('narration/Worker narrates a real queued job from its bundle (GET /audio redirects to an MP3)', async () => {
    const sqs = sqsClient();
    const queueUrl = h.state.env.PRIORITY_QUEUE_URL!;
    const text = 'La narración larga se hace en segundo plano con la cola de trabajos. '.repeat(60);
    const convert = await h.startBundle(find('narration', 'ConvertText'));
    const worker = await h.startBundle(find('narration', 'Worker'));
    const getAudio = await h.startBundle(find('narration', 'GetAudio'));
    try {
      const queued = answerOf(
        await convert.invoke(
          httpApiEvent('POST /convert/text', json('POST', '/convert/text', { text }, bearer(keys.pro))),
          35_000,
        ),
        convert.logs(),
      );
      expect(queued.statusCode).toBe(202); // above SYNC_MAX_CHARS: queued
      const audioId = (JSON.parse(bodyText(queued)) as { audio_id: string }).audio_id;
      let message: { MessageId?: string; ReceiptHandle?: string; Body?: string } | undefined;
      for (let i = 0; i < 20 && !message; i++) {
        const got = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
        );
        message = got.Messages?.find(
          (msg) => (JSON.parse(msg.Body ?? '{}') as { audioId?: string }).audioId === audioId,
        );
      }
      expect(message).toBeDefined();
      const done = await worker.invoke(
        sqsEvent('arn:aws:sqs:us-east-1:000000000000:art-priority', [
          { messageId: message!.MessageId, receiptHandle: message!.ReceiptHandle, body: message!.Body! },
        ]),
        120_000,
      );
      expect(answerOf(done, worker.logs())).toEqual({ batchItemFailures: [] });
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message!.ReceiptHandle }));
      const redirect = answerOf(
        await getAudio.invoke(httpApiEvent('GET /audio/{audio_id}', get(`/audio/${audioId}.mp3`)), 10_000),
        getAudio.logs(),
      );
      expect(redirect.statusCode).toBe(302);
      const location = header(redirect, 'location')!;
      expect(new URL(location).hostname).toBe('127.0.0.1');
      const mp3 = Buffer.from(await (await fetch(location)).arrayBuffer());
      const file = join(h.state.runDir, 'worker.mp3');
      writeFileSync(file, mp3);
      const probe = JSON.parse(
        execFileSync(
          FFPROBE,
          ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name', '-of', 'json', file],
          { encoding: 'utf8' },
        ),
      ) as { format: { duration: string }; streams: { codec_name: string }[] };
      expect(probe.streams[0]!.codec_name).toBe('mp3');
      expect(Number(probe.format.duration)).toBeGreaterThan(10);
    } finally {
      sqs.destroy();
      await Promise.all([convert, worker, getAudio].map((p) => p.stop()));
    }
  });

  test('documents/DeliveryWorker handles an SQS batch from its bundle (a malformed record fails alone, an unknown job is dropped)', async () => {
    await withBundle(find('documents', 'DeliveryWorker'), async (bundle) => {
      const done = await bundle.invoke(
        sqsEvent('arn:aws:sqs:us-east-1:000000000000:art-deliveries', [
          { messageId: 'malformed', body: '{"jobId": 1}' },
          {
            messageId: 'unknown-job',
            body: JSON.stringify({ jobId: 'job_unknown', eventId: 'evt_unknown' }),
          },
        ]),
        35_000,
      );
      expect(answerOf(done, bundle.logs())).toEqual({ batchItemFailures: [{ itemIdentifier: 'malformed' }] });
    });
  });

  test('documents/BatchAssembler loads from its bundle without Chromium or the template sandbox, and handles an SQS batch (a malformed record fails alone, an unknown batch succeeds)', async () => {
    await withBundle(find('documents', 'BatchAssembler'), async (bundle) => {
      const done = await bundle.invoke(
        sqsEvent('arn:aws:sqs:us-east-1:000000000000:art-assemble', [
          { messageId: 'malformed', body: '{"jobId": 1}' },
          // No such batch: nothing to assemble, the record succeeds.
          { messageId: 'unknown-batch', body: JSON.stringify({ jobId: 'job_unknown' }) },
        ]),
        35_000,
      );
      expect(answerOf(done, bundle.logs())).toEqual({ batchItemFailures: [{ itemIdentifier: 'malformed' }] });
    });
  });
});
