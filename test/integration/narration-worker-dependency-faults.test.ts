// The queue worker with its AWS dependencies failing mid-job (fault proxies in front of the emulators), complementing
// narration-worker-crash.test.ts (a worker killed mid-job; a speech engine that always fails). An accepted job is never lost
// and never done twice:
// - S3 failing a whole delivery (beyond the SDK's retries) → released, redelivered, finished: one audio object;
// - DynamoDB throttling → absorbed by the SDK's retries (or, its retry quota spent, by a redelivery): narrated once;
// - SQS failing the poller's receives for a while → the job runs once SQS is back, exactly once;
// - SQS failing the acknowledgement → the message comes back and the finished job is acknowledged, not redone;
// - S3 failing every delivery → `failed` with the reason after 3 attempts, and the message in the DLQ.
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { awsDeps, type NarrationDeps } from '../../lambdas/narration/deps';
import { startConversion } from '../../lambdas/narration/use-cases/conversion';
import type { AudioRecord, Synthesizer } from '../../lambdas/narration/ports';
import { findVoice } from '../../lambdas/narration/core/voices';
import { makeHandler as makeWorker } from '../../lambdas/narration/handlers/worker';
import { narrationManifest } from '../../lambdas/narration/routes';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { resetClients } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { startPoller, type Poller } from '../../lib/local/worker-poller';
import { withEmulators } from '../helpers/env';
import { until } from '../helpers/until';
import { receiveUntilRedriven, withoutBackstop } from '../helpers/sqs-redrive';
import { narrationDepsOn, testClock } from '../helpers/clock';
import { AWS_FAULTS, dynamoOp, s3Op, sqsOp, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';

jest.setTimeout(300_000); // its waits allow a loaded machine minutes

const VISIBILITY_S = 2;
/** Longer than the test: no lease runs out by real time passing (see `clock`). */
const LEASE_S = 600;
/**
 * The workers' clock. A redelivery comes a visibility timeout later, which in the cloud is longer than the lease, so a
 * delivery always finds the previous worker's lease run out: each delivery moves this clock past the lease, instead of
 * a short real lease (1 s) having to run out between two deliveries 2 s apart.
 */
const clock = testClock();
let emu: Awaited<ReturnType<typeof withEmulators>>;
const proxies = {} as Record<'dynamodb' | 's3' | 'sqs', FaultProxy>;
let queues: { priority: string; standard: string };
const pollers: Poller[] = [];
/** Direct clients to the emulators: what the test checks must not go through the faults. */
let s3: S3Client;
let sqs: SQSClient;
let synthCalls = 0;
/** Deliveries the worker handler received. */
let deliveries = 0;
/** Called with the delivery's number as it reaches the handler, before the worker runs (one test clears a fault). */
let onDelivery: ((n: number) => void) | undefined;

beforeAll(async () => {
  emu = await withEmulators({ queueVisibilityS: VISIBILITY_S });
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  s3 = new S3Client({
    endpoint: emu.env.AWS_ENDPOINT_URL_S3,
    region: 'us-east-1',
    credentials,
    forcePathStyle: true,
  });
  sqs = new SQSClient({ endpoint: emu.env.AWS_ENDPOINT_URL_SQS, region: 'us-east-1', credentials });
  proxies.dynamodb = await startFaultProxy(emu.env.AWS_ENDPOINT_URL_DYNAMODB!);
  proxies.s3 = await startFaultProxy(emu.env.AWS_ENDPOINT_URL_S3!);
  const sqsUpstream = emu.env.AWS_ENDPOINT_URL_SQS!;
  proxies.sqs = await startFaultProxy(sqsUpstream, {
    rewriteBody: (body) => body.replaceAll(proxies.sqs.url, sqsUpstream),
  });
  const viaSqsProxy = (url: string) => proxies.sqs.url + new URL(url).pathname;
  queues = { priority: viaSqsProxy(emu.queues.priority!), standard: viaSqsProxy(emu.queues.standard!) };
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: proxies.dynamodb.url,
    AWS_ENDPOINT_URL_S3: proxies.s3.url,
    AWS_ENDPOINT_URL_SQS: proxies.sqs.url,
    PRIORITY_QUEUE_URL: queues.priority,
    STANDARD_QUEUE_URL: queues.standard,
    SPEECH_ENGINE: 'espeak',
    SYNC_MAX_CHARS: '100',
    JOB_LEASE_S: String(LEASE_S),
    MAX_RECEIVE_COUNT: '3',
    // The request answers 202 at once instead of waiting its window (25 s) for a worker that is not polling yet.
    WAIT_WINDOW_S: '0',
  });
  resetConfig();
  resetClients();
});

afterEach(async () => {
  onDelivery = undefined;
  for (const p of pollers.splice(0)) await p.stop();
  for (const p of Object.values(proxies)) {
    p.clear();
    p.log.length = 0;
  }
});

afterAll(async () => {
  s3?.destroy();
  sqs?.destroy();
  for (const p of Object.values(proxies)) await p?.close();
  await emu?.cleanup();
});

// ~130 characters: queued (over SYNC_MAX_CHARS), one engine call (narrate's first chunk takes up to ~200).
const TEXT = 'El viento del norte trajo lluvia al valle durante toda la noche. '.repeat(2);

/** The real engine, counting calls (a finished job narrated again would show up here). */
function countingDeps(): NarrationDeps {
  const base = awsDeps();
  return narrationDepsOn(clock, {
    synthesizer: async (): Promise<Synthesizer> => {
      const real = await base.synthesizer();
      return {
        engine: real.engine,
        maxChars: real.maxChars,
        concurrency: real.concurrency,
        synthesize: (text, voice) => {
          synthCalls++;
          return real.synthesize(text, voice);
        },
      };
    },
  });
}

function poll(): Poller {
  const p = startPoller({
    worker: {
      ...narrationManifest.workers[0]!,
      memoryMb: 1024,
      timeoutS: 60,
      tmpMb: 512,
    },
    handler: (() => {
      const worker = makeWorker(countingDeps());
      return (event: Parameters<typeof worker>[0], context: Parameters<typeof worker>[1]) => {
        deliveries++;
        onDelivery?.(deliveries);
        clock.advance((LEASE_S + 1) * 1000);
        return worker(event, context);
      };
    })(),
    queues,
    endpoint: proxies.sqs.url,
    visibilityS: VISIBILITY_S,
    concurrency: { priority: 1, standard: 1 },
    log: (l) => process.env.DEBUG_FAULTS && console.log(new Date().toISOString(), l),
  });
  pollers.push(p);
  return p;
}

// A new address per queued job: the same text from one caller is reused, not queued again (docs/reuse.md).
let jobsQueued = 0;

async function queueJob(): Promise<string> {
  const out = await startConversion(withoutBackstop(awsDeps()), {
    text: TEXT,
    voice: findVoice('es-MX-Mia')!,
    fmt: 'mp3',
    caller: { kind: 'anonymous', subject: ipSubject(`198.51.100.${++jobsQueued}`) },
  });
  expect(out.statusCode).toBe(202);
  return out.body.audio_id as string;
}

async function settled(audioId: string, timeoutMs = 45_000): Promise<AudioRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Faults target writes (UpdateItem, PUT): these reads pass.
    const r = await awsDeps()
      .audio.get(audioId)
      .catch(() => undefined);
    if (r && (r.status === 'done' || r.status === 'failed')) return r;
    if (Date.now() > deadline) throw new Error(`job ${audioId} not settled: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

async function messagesIn(queueUrl: string, waitS = 1): Promise<unknown[]> {
  const out = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: waitS, MaxNumberOfMessages: 10 }),
  );
  return (out.Messages ?? []).map((m) => JSON.parse(m.Body!));
}

/** Waits (bounded) until the queue holds no message, visible or in flight; true if it did. */
async function drained(queueUrl: string, withinMs: number): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline;) {
    const { Attributes: a = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    if (Number(a.ApproximateNumberOfMessages) === 0 && Number(a.ApproximateNumberOfMessagesNotVisible) === 0)
      return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

async function audioBytes(audioId: string): Promise<number | undefined> {
  const head = await s3
    .send(new HeadObjectCommand({ Bucket: emu.bucket, Key: `audio/${audioId}.mp3` }))
    .catch(() => undefined);
  return head?.ContentLength;
}

test('S3 fails a whole delivery: the job is released, redelivered and finished — one audio object', async () => {
  const audioId = await queueJob();
  synthCalls = 0;
  // The SDK makes 3 attempts per PUT: 3 failures fail the first delivery.
  proxies.s3.fail({ match: s3Op('PUT', `/${emu.bucket}/audio/`), mode: AWS_FAULTS.s3Internal, times: 3 });
  poll();
  const done = await settled(audioId);
  expect(done.status).toBe('done');
  expect(done.attempts).toBe(2);
  expect(synthCalls).toBe(2); // narrated once per delivery: the failed one and the good one
  expect(await audioBytes(audioId)).toBe(done.bytes);
  expect(await messagesIn(emu.queues.standard!)).toEqual([]);
});

// The SDK retries throttling within its retry quota (a token bucket shared by the process's client, drained by the
// failures earlier tests inject): with tokens left it absorbs all three, else the claim fails and SQS redelivers.
// Either way: finished, narrated once.
test('DynamoDB throttles the claim and progress writes: absorbed by SDK retries or a redelivery, narrated once', async () => {
  const audioId = await queueJob();
  synthCalls = 0;
  proxies.dynamodb.fail({ match: dynamoOp('UpdateItem'), mode: AWS_FAULTS.dynamoThrottle, times: 3 });
  poll();
  const done = await settled(audioId);
  expect(done.status).toBe('done');
  expect(done.attempts).toBeLessThanOrEqual(2);
  expect(synthCalls).toBe(1);
  expect(proxies.dynamodb.log.filter((r) => r.outcome === 400)).toHaveLength(3);
});

test('SQS fails the poller for a while: once it is back the job runs, exactly once', async () => {
  const audioId = await queueJob();
  synthCalls = 0;
  proxies.sqs.fail({ match: sqsOp('ReceiveMessage'), mode: AWS_FAULTS.sqsInternal });
  poll();
  // Event-driven: wait until the poller has had three receives refused (not a fixed sleep), then the job is
  // still untouched.
  const deadline = Date.now() + 120_000; // generous: a loaded machine (the bound only ends a hang)
  while (proxies.sqs.log.filter((r) => r.outcome === 500).length < 3) {
    if (Date.now() > deadline) throw new Error('the poller never tried to receive through the failing proxy');
    await new Promise((r) => setTimeout(r, 50));
  }
  expect((await awsDeps().audio.get(audioId))?.status).toBe('queued');
  proxies.sqs.clear();
  const done = await settled(audioId);
  expect(done.status).toBe('done');
  expect(synthCalls).toBe(1);
  expect(await audioBytes(audioId)).toBe(done.bytes);
});

test('SQS fails the acknowledgement: the message comes back and the finished job is not narrated again', async () => {
  const audioId = await queueJob();
  synthCalls = 0;
  deliveries = 0;
  // sqs-consumer deletes the message after the handler succeeds; every delete fails until the message has come back,
  // and the fault ends as the second delivery reaches the handler, before its own delete (cleared from the test
  // after it saw the delivery, that delete could still fail, and each further return costs a receive of the three
  // before the DLQ).
  proxies.sqs.fail({ match: sqsOp('DeleteMessage'), mode: AWS_FAULTS.sqsInternal });
  onDelivery = (n) => {
    if (n === 2) proxies.sqs.clear();
  };
  poll();
  const done = await settled(audioId);
  expect(done.status).toBe('done');
  await until('the message delivered again after its failed acknowledgement', async () =>
    deliveries >= 2 ? true : undefined,
  );
  // The redelivered message is acknowledged without work, then deleted for good.
  const deadline = Date.now() + 120_000; // generous: a loaded machine (the bound only ends a hang)
  while (
    proxies.sqs.log.filter((r) => r.target === 'AmazonSQS.DeleteMessage' && r.outcome === 'passed').length ===
    0
  ) {
    if (Date.now() > deadline) throw new Error('the message was never acknowledged');
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(deliveries).toBeGreaterThanOrEqual(2); // delivered again after the failed acknowledgement…
  expect(synthCalls).toBe(1); // …and not narrated again
  expect((await awsDeps().audio.get(audioId))?.status).toBe('done');
  // Every further delivery (a stale receipt may let one more through on a busy machine) is acknowledged without
  // work: the queue drains with the poller still running, and nothing is narrated again.
  expect(await drained(emu.queues.standard!, 30_000)).toBe(true);
  expect(synthCalls).toBe(1);
});

test('S3 fails every delivery: failed after 3 attempts with the reason, and the message in the DLQ', async () => {
  const audioId = await queueJob();
  proxies.s3.fail({ match: s3Op('PUT', `/${emu.bucket}/audio/`), mode: AWS_FAULTS.s3Internal });
  poll();
  const failed = await settled(audioId);
  expect(failed.status).toBe('failed');
  expect(failed.attempts).toBe(3);
  expect(failed.error).toMatch(/after 3 attempts \(.+\)\. Please submit the text again\./);
  expect(await audioBytes(audioId)).toBeUndefined();
  for (const p of pollers.splice(0)) await p.stop();
  // As in SQS, the move to the DLQ happens when the message would be received a 4th time.
  // This job's message (another test's message may reach the same DLQ: it is not ours and is left there).
  const redriven = await receiveUntilRedriven(
    sqs,
    emu.queues.standard!,
    emu.queues.standardDlq!,
    (body) => (body as { audioId?: string }).audioId === audioId,
  );
  expect(redriven.received).toEqual([]);
  expect(redriven.dead.body).toEqual({ audioId });
  // Once. (Under load, the previous test's acknowledged-late message can reach the DLQ too: its failed DeleteMessage
  // leaves a receipt the emulator keeps counting; that job is done and is not narrated again.)
  const inDlq = await messagesIn(emu.queues.standardDlq!);
  expect(inDlq.filter((m) => (m as { audioId: string }).audioId === audioId)).toEqual([{ audioId }]);
});
