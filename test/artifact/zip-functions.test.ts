// Every zip function of both stacks, run from its bundle in cdk.out under Node 22 with exactly the template's
// environment (references resolved to the emulators, SDK endpoint variables pointed at them), invoked with real
// events: each answers as its TypeScript source does in the same harness (same status, content type, header
// names and body shape). Keyed routes are called with real keys from the emulator's keys table; the narration
// worker narrates a real queued job (its audio checked with ffprobe).
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
import {
  answerOf,
  bodyText,
  harness,
  MANIFESTS,
  summary,
  header,
  type Harness,
  type MatchedFunction,
} from './harness';
import type { LambdaProcess } from './lambda';

jest.setTimeout(180_000);

type Side = 'source' | 'bundle';
interface Keys {
  pro: string;
  scale: string;
}
interface Ctx {
  side: Side;
  keys: Keys;
  pdf: Buffer;
}
/** One request of a scenario; `status` is asserted on top of the bundle/source comparison. */
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
const ipOf = (ctx: Ctx) => (ctx.side === 'source' ? '198.51.100.10' : '198.51.100.20');
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
      request: (c) => ({
        ...json('POST', '/convert/text', { text: 'Hola, esto es una prueba de narración.' }),
        sourceIp: ipOf(c),
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
      request: (c) => multipartPdf(c.pdf, { sourceIp: ipOf(c) }),
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
      request: (c) => ({ method: 'POST', path: '/convert/pdf/upload', headers: {}, sourceIp: ipOf(c) }),
      status: 201,
    },
  ],
  'narration/ConvertUrl': [
    {
      name: 'a loopback URL is refused before any connection',
      request: (c) => ({
        ...json('POST', '/convert/url', { url: 'http://127.0.0.1:9/articulo' }),
        sourceIp: ipOf(c),
      }),
      status: clientError,
    },
  ],
  'narration/DemoTry': [
    {
      name: 'demo',
      request: (c) => ({
        ...json('POST', '/demo/try', { text: 'Hola desde la demostración.' }),
        sourceIp: ipOf(c),
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
      request: (c) => ({
        ...json('POST', '/waitlist', { email: `${c.side}@example.com` }),
        sourceIp: ipOf(c),
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
      request: (c) => ({
        ...json('POST', '/ab/event', {
          experiment: 'landing',
          visitor: `v-${c.side}-1234567890`,
          type: 'view',
        }),
        sourceIp: ipOf(c),
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
const keys: Record<Side, Keys> = { source: { pro: '', scale: '' }, bundle: { pro: '', scale: '' } };

beforeAll(async () => {
  h = await harness();
  Object.assign(process.env, h.state.env);
  resetConfig();
  resetClients();
  const store = new DynamoKeyStore(dynamo(), h.state.env.KEYS_TABLE!);
  const make = async (plan: PaidPlan, side: Side) => {
    const key = generateKey();
    await store.put({
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, 10),
      plan,
      status: 'active',
      email: `${plan}-${side}@example.com`,
      createdAt: new Date().toISOString(),
    });
    return key;
  };
  for (const side of ['source', 'bundle'] as const)
    keys[side] = { pro: await make('pro', side), scale: await make('scale', side) };
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

async function withPair<T>(
  m: MatchedFunction,
  run: (p: { bundle: LambdaProcess; source: LambdaProcess }) => Promise<T>,
) {
  const pair = await h.startPair(m);
  try {
    return await run(pair);
  } finally {
    await Promise.all([pair.bundle.stop(), pair.source.stop()]);
  }
}

describe('routes', () => {
  // Names are known only after the global setup: one test per zip route of the manifests, looked up at run time.
  // Image routes run from the rebuilt image in image.test.ts (one test each there).
  const routeIds = MANIFESTS.flatMap((mf) =>
    mf.routes.filter((r) => r.packaging !== 'image').map((r) => `${mf.service}/${r.id}`),
  );
  test.each(routeIds)('%s answers from its bundle as from its source', async (id) => {
    const m = h.functions.find((f) => `${f.manifest.service}/${f.entry.id}` === id)!;
    expect(m).toBeDefined();
    expect(m.fn.packaging).toBe('zip');
    const cases = CASES[id] ?? defaultCase(m);
    await withPair(m, async ({ bundle, source }) => {
      for (const c of cases) {
        const timeout = m.fn.timeoutS * 1000 + 5_000;
        const fromSource = await source.invoke(
          httpApiEvent(m.routeKey!, c.request({ side: 'source', keys: keys.source, pdf })),
          timeout,
        );
        const fromBundle = await bundle.invoke(
          httpApiEvent(m.routeKey!, c.request({ side: 'bundle', keys: keys.bundle, pdf })),
          timeout,
        );
        const context = `${id} — ${c.name}\nbundle logs:\n${bundle.logs().slice(-4000)}`;
        const answer = answerOf(fromBundle, context);
        const expected = answerOf(fromSource, source.logs().slice(-4000));
        // On a difference, the failure shows both answers and the bundle's logs.
        expect({
          case: c.name,
          ...(summary(fromBundle) as object),
          ...(JSON.stringify(summary(fromBundle)) === JSON.stringify(summary(fromSource))
            ? {}
            : { bundleAnswer: `${bodyText(answer).slice(0, 600)}\n${context}` }),
        }).toEqual({
          case: c.name,
          ...(summary(fromSource) as object),
          ...(JSON.stringify(summary(fromBundle)) === JSON.stringify(summary(fromSource))
            ? {}
            : { sourceAnswer: bodyText(expected).slice(0, 600) }),
        });
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

  test('narration/Worker narrates a real queued job from its bundle as from its source (GET /audio redirects to an MP3)', async () => {
    const sqs = sqsClient();
    const queueUrl = h.state.env.PRIORITY_QUEUE_URL!;
    const text = 'La narración larga se hace en segundo plano con la cola de trabajos. '.repeat(60);
    const convert = await h.startPair(find('narration', 'ConvertText'));
    const worker = await h.startPair(find('narration', 'Worker'));
    const getAudio = await h.startPair(find('narration', 'GetAudio'));
    try {
      const seen: Record<Side, unknown[]> = { source: [], bundle: [] };
      for (const side of ['source', 'bundle'] as const) {
        const queued = answerOf(
          await convert[side].invoke(
            httpApiEvent(
              'POST /convert/text',
              json('POST', '/convert/text', { text }, bearer(keys[side].pro)),
            ),
            35_000,
          ),
          convert[side].logs(),
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
        const done = await worker[side].invoke(
          sqsEvent('arn:aws:sqs:us-east-1:000000000000:art-priority', [
            { messageId: message!.MessageId, receiptHandle: message!.ReceiptHandle, body: message!.Body! },
          ]),
          120_000,
        );
        expect(answerOf(done, worker[side].logs())).toEqual({ batchItemFailures: [] });
        await sqs.send(
          new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message!.ReceiptHandle }),
        );
        const redirect = answerOf(
          await getAudio[side].invoke(
            httpApiEvent('GET /audio/{audio_id}', get(`/audio/${audioId}.mp3`)),
            10_000,
          ),
          getAudio[side].logs(),
        );
        expect(redirect.statusCode).toBe(302);
        const location = header(redirect, 'location')!;
        expect(new URL(location).hostname).toBe('127.0.0.1');
        const mp3 = Buffer.from(await (await fetch(location)).arrayBuffer());
        const file = join(h.state.runDir, `${side}.mp3`);
        writeFileSync(file, mp3);
        const probe = JSON.parse(
          execFileSync(
            FFPROBE,
            ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name', '-of', 'json', file],
            {
              encoding: 'utf8',
            },
          ),
        ) as { format: { duration: string }; streams: { codec_name: string }[] };
        expect(probe.streams[0]!.codec_name).toBe('mp3');
        expect(Number(probe.format.duration)).toBeGreaterThan(10);
        seen[side] = [summary({ value: queued }), summary(done), summary({ value: redirect })];
      }
      expect(seen.bundle).toEqual(seen.source);
    } finally {
      sqs.destroy();
      await Promise.all([convert, worker, getAudio].flatMap((p) => [p.bundle.stop(), p.source.stop()]));
    }
  });

  test('documents/DeliveryWorker handles an SQS batch from its bundle as from its source (a malformed record fails alone)', async () => {
    await withPair(find('documents', 'DeliveryWorker'), async ({ bundle, source }) => {
      const batch = () =>
        sqsEvent('arn:aws:sqs:us-east-1:000000000000:art-deliveries', [
          { messageId: 'malformed', body: '{"jobId": 1}' },
          {
            messageId: 'unknown-job',
            body: JSON.stringify({ jobId: 'job_unknown', eventId: 'evt_unknown' }),
          },
        ]);
      const fromSource = await source.invoke(batch(), 35_000);
      const fromBundle = await bundle.invoke(batch(), 35_000);
      const answer = answerOf(fromBundle, bundle.logs()) as unknown as {
        batchItemFailures: { itemIdentifier: string }[];
      };
      expect(answer.batchItemFailures.map((f) => f.itemIdentifier)).toContain('malformed');
      expect(fromBundle.value).toEqual(fromSource.value);
    });
  });

  test('documents/BatchAssembler loads from its bundle without Chromium or the template sandbox, and handles an SQS batch as from its source', async () => {
    await withPair(find('documents', 'BatchAssembler'), async ({ bundle, source }) => {
      const batch = () =>
        sqsEvent('arn:aws:sqs:us-east-1:000000000000:art-assemble', [
          { messageId: 'malformed', body: '{"jobId": 1}' },
          // No such batch: nothing to assemble, the record succeeds.
          { messageId: 'unknown-batch', body: JSON.stringify({ jobId: 'job_unknown' }) },
        ]);
      const fromSource = await source.invoke(batch(), 35_000);
      const fromBundle = await bundle.invoke(batch(), 35_000);
      const answer = answerOf(fromBundle, bundle.logs()) as unknown as {
        batchItemFailures: { itemIdentifier: string }[];
      };
      expect(answer.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['malformed']);
      expect(fromBundle.value).toEqual(fromSource.value);
    });
  });
});
