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
import { generateKey, hashKey, type PaidPlan } from '../../lambdas/shared/auth/keys';
import { dynamo, resetClients } from '../../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { resetConfig } from '../../lambdas/shared/config';
import { FFPROBE } from '../helpers/runtime';
import { bundleSources } from './assembly';
import { httpApiEvent, sqsEvent } from './events';
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
import { bearer, CASES, defaultCase, get, json, makePdf, type Keys } from './zip-cases';

jest.setTimeout(180_000);

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
          // Prefer: respond-async: the 202 at once. Without it the bundle holds the answer for its wait window
          // (WAIT_WINDOW_S, 25 s) for a job no worker runs until it answers: 25 s of waiting that checked nothing.
          httpApiEvent(
            'POST /convert/text',
            json('POST', '/convert/text', { text }, { ...bearer(keys.pro), prefer: 'respond-async' }),
          ),
          35_000,
        ),
        convert.logs(),
      );
      expect(queued.statusCode).toBe(202); // above SYNC_MAX_CHARS: queued
      expect(header(queued, 'preference-applied')).toBe('respond-async');
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

  test('documents/BatchAssembler loads from its bundle without Chromium or the template sandbox, and handles an SQS batch (a malformed record fails alone, an unknown batch: its split and its assembly succeed)', async () => {
    await withBundle(find('documents', 'BatchAssembler'), async (bundle) => {
      const done = await bundle.invoke(
        sqsEvent('arn:aws:sqs:us-east-1:000000000000:art-assemble', [
          { messageId: 'malformed', body: '{"jobId": 1}' },
          // No such batch: nothing to assemble, the record succeeds.
          { messageId: 'unknown-batch', body: JSON.stringify({ jobId: 'job_unknown' }) },
          // Nor to split (the split runs in this bundle too).
          { messageId: 'unknown-split', body: JSON.stringify({ jobId: 'job_unknown', step: 'split' }) },
        ]),
        35_000,
      );
      expect(answerOf(done, bundle.logs())).toEqual({ batchItemFailures: [{ itemIdentifier: 'malformed' }] });
    });
  });
});
