// bin/dlq.ts against the local emulators (fauxqs for SQS, dynalite for the audio table), with the same queues and
// redrive policy (maxReceiveCount 3) as the stack: a job whose message failed three times lands in the DLQ and is
// marked failed; `redrive` sets the job back to queued and the message back on its source queue, where the worker's
// claim accepts it again. fauxqs does not implement StartMessageMoveTask: `--native` must say so and move nothing.
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { main, peek, redrive, redriveNative, listDlqs, type DlqDeps } from '../../bin/dlq';
import { DynamoAudioRepository } from '../../lambdas/narration/adapters/audio-repository';
import { narrationManifest } from '../../lambdas/narration/routes';
import { withEmulators } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';

jest.setTimeout(60_000);

let emu: Awaited<ReturnType<typeof withEmulators>>;
let sqs: SQSClient;
let db: DynamoDBDocumentClient;
let deps: DlqDeps;
let lines: string[];
let tripwire: Tripwire;

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  // Narration's queues only (jobs and completion webhooks): the CLI lists every DLQ it finds.
  emu = await withEmulators({ queueVisibilityS: 1, queues: narrationManifest.queues });
  sqs = new SQSClient({});
  db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
});
afterAll(async () => {
  sqs?.destroy();
  db?.destroy();
  await emu?.cleanup();
  tripwire.uninstall();
  expect(tripwire.attempts).toEqual([]);
});
beforeEach(() => {
  lines = [];
  deps = { sqs, audio: new DynamoAudioRepository(db, emu.tableNames.audio), out: (l) => lines.push(l) };
});

async function failedJob(audioId: string): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: emu.tableNames.audio,
      Item: {
        audioId,
        status: 'failed',
        error: 'Speech engine unavailable',
        voice: 'es-MX-Mia',
        fmt: 'mp3',
        chars: 4000,
        plan: 'pro',
        attempts: 3,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        expiresAt: Math.floor(Date.now() / 1000) + 86400,
      },
    }),
  );
}

/** Sends a job message and lets it fail maxReceiveCount times (received, never deleted), so SQS dead-letters it. */
async function deadLetter(audioId: string, queueUrl: string): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ audioId }) }));
  for (let i = 0; i < 20; i++) {
    const r = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 0,
        WaitTimeSeconds: 0,
      }),
    );
    if (!r.Messages?.length && i >= 3) return;
  }
}

async function drain(queueUrl: string): Promise<string[]> {
  const bodies: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 30,
        WaitTimeSeconds: 0,
      }),
    );
    for (const m of r.Messages ?? []) {
      bodies.push(m.Body!);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
    }
    if (!r.Messages?.length) break;
  }
  return bodies;
}

test('list finds every DLQ with its source queue and depth', async () => {
  await deadLetter('job-list', emu.queues.standard!);
  const dlqs = await listDlqs(sqs);
  const names = dlqs.map((d) => d.name).sort();
  // Every DLQ of the queues this test created (narration's two job queues, its completion-webhooks queue and its two
  // feed queues), each found with its source queue.
  expect(names).toEqual([
    'test-feedarticles-dlq',
    'test-feedpolls-dlq',
    'test-priority-dlq',
    'test-standard-dlq',
    'test-webhooks-dlq',
  ]);
  const standard = dlqs.find((d) => d.name === 'test-standard-dlq')!;
  expect(standard.sources.map((s) => [s.name, s.maxReceiveCount])).toEqual([['test-standard', 3]]);
  expect(standard.visible).toBe(1);
  expect(await drain(emu.queues.standardDlq!)).toEqual([JSON.stringify({ audioId: 'job-list' })]);
});

test('redrive resets failed jobs to queued and moves their messages back; the worker can claim them again', async () => {
  await failedJob('job-a');
  await failedJob('job-b');
  await deadLetter('job-a', emu.queues.priority!);
  await deadLetter('job-b', emu.queues.priority!);

  const shown = await peek(deps, 'priority-dlq');
  expect(shown.map((m) => m.Body).sort()).toEqual(
    [JSON.stringify({ audioId: 'job-a' }), JSON.stringify({ audioId: 'job-b' })].sort(),
  );
  expect(lines.join('\n')).toMatch(/job failed: Speech engine unavailable/);

  const result = await redrive(deps, 'priority-dlq');
  expect(result).toEqual({ moved: 2, requeued: 2, untouched: {} });
  expect(await drain(emu.queues.priorityDlq!)).toEqual([]);
  expect((await drain(emu.queues.priority!)).sort()).toEqual(
    [JSON.stringify({ audioId: 'job-a' }), JSON.stringify({ audioId: 'job-b' })].sort(),
  );
  const job = (await db.send(new GetCommand({ TableName: emu.tableNames.audio, Key: { audioId: 'job-a' } })))
    .Item!;
  expect(job.status).toBe('queued');
  expect(job.error).toBeUndefined();
  // The worker's own claim (a conditional update from queued) accepts it again.
  const repo = new DynamoAudioRepository(db, emu.tableNames.audio, () => new Date(), 60);
  expect((await repo.claim('job-a', 1))?.status).toBe('processing');
});

test('redrive leaves settled jobs alone and still returns their messages; --max bounds the move', async () => {
  await db.send(
    new PutCommand({
      TableName: emu.tableNames.audio,
      Item: { audioId: 'job-done', status: 'done', createdAt: '', updatedAt: '', expiresAt: 0 },
    }),
  );
  await deadLetter('job-done', emu.queues.standard!);
  await deadLetter('job-missing', emu.queues.standard!);
  await deadLetter('job-later', emu.queues.standard!);
  const first = await redrive(deps, 'test-standard-dlq', { max: 2 });
  expect(first.moved).toBe(2);
  const second = await redrive(deps, 'test-standard-dlq');
  expect(second.moved).toBe(1);
  const untouched: Record<string, number> = {};
  for (const [k, n] of [...Object.entries(first.untouched), ...Object.entries(second.untouched)])
    untouched[k] = (untouched[k] ?? 0) + n;
  expect(untouched).toEqual({ done: 1, missing: 2 });
  expect(await drain(emu.queues.standard!)).toHaveLength(3);
  const done = (
    await db.send(new GetCommand({ TableName: emu.tableNames.audio, Key: { audioId: 'job-done' } }))
  ).Item!;
  expect(done.status).toBe('done');
});

test('--dry-run moves nothing; --native explains that this endpoint lacks StartMessageMoveTask', async () => {
  await deadLetter('job-dry', emu.queues.standard!);
  await redrive(deps, 'standard-dlq', { dryRun: true });
  expect(lines.join('\n')).toMatch(/dry run: would move up to 1 of 1/);
  await expect(redriveNative(deps, 'standard-dlq')).rejects.toThrow(
    /does not implement StartMessageMoveTask/,
  );
  expect(await drain(emu.queues.standardDlq!)).toEqual([JSON.stringify({ audioId: 'job-dry' })]);
});

test('the command line: usage on bad input, ambiguous names refused, list output', async () => {
  const out: string[] = [];
  expect(await main(['redrive'], (l) => out.push(l))).toBe(2);
  expect(out[0]).toMatch(/^usage: npm run dlq/);
  await expect(main(['peek', 'dlq'], () => undefined)).rejects.toThrow(/matches several DLQs/);
  await expect(main(['peek', 'nope'], () => undefined)).rejects.toThrow(/no DLQ matches "nope"/);
  out.length = 0;
  expect(await main(['list'], (l) => out.push(l))).toBe(0);
  expect(out.join('\n')).toMatch(
    /test-priority-dlq {2}0 visible, 0 in flight {2}← test-priority \(after 3 receives\)/,
  );
});

test("redrive moves a CFDI batch's assembly message as it is: a batch that gave up is not set back to queued", async () => {
  // A documents job store holding a batch that gave up (failed, its charge given back): the reset must not touch it.
  const reset: string[] = [];
  const documentJobs = {
    get: async (id: string) => ({ jobId: id, status: 'failed', batch: { parts: 3 } }),
    requeueFailed: async (id: string) => (reset.push(id), { requeued: true as const, error: 'gave up' }),
    restoreFailed: async () => true,
  } as unknown as NonNullable<DlqDeps['documentJobs']>;
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: emu.queues.standard!,
      MessageBody: JSON.stringify({ jobId: 'job_gave_up' }),
    }),
  );
  await deadLetter('job-with-the-batch', emu.queues.standard!);
  const result = await redrive({ ...deps, documentJobs }, 'test-standard-dlq');
  expect(reset).toEqual([]);
  expect(result.untouched).toMatchObject({ batch: 1 });
  expect(await drain(emu.queues.standard!)).toContain(JSON.stringify({ jobId: 'job_gave_up' }));
});
