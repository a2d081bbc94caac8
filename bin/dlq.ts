// Dead-letter queues: see what failed and send it back for another try.
//   npm run dlq -- list                              every DLQ (a queue some RedrivePolicy points at), its depth, its source
//   npm run dlq -- peek <queue> [--max 10]           the messages, without removing them (narration: the job's status)
//   npm run dlq -- redrive <queue> [--max N] [--dry-run]
//       moves messages back to their source queue: receive → send to the source → delete, in batches of 10.
//       Job messages — narration's ({"audioId"}, AUDIO_TABLE) and documents' async renders ({"jobId"},
//       ACCOUNTS_TABLE) — first have their job set back from `failed` to `queued`, because a worker acknowledges a
//       failed job without running it; a redriven message starts again with 3 attempts. Webhook event messages
//       (they carry an eventId) and a CFDI batch's steps are moved as they are (a batch that gave up was given its
//       charge back: it is started again by its caller, not redriven).
//   npm run dlq -- redrive <queue> --native          SQS's own redrive (StartMessageMoveTask; cloud only), for queues
//       whose messages need no reset. `npm run dlq -- status <queue>` shows its progress (ListMessageMoveTasks).
// <queue> is a queue URL, its name, or a unique part of the name ("priority", "standard-dlq").
// Cloud: AWS credentials and region as for the AWS CLI, AUDIO_TABLE for narration jobs and ACCOUNTS_TABLE for
// documents renders (docs/operations/runbook.md). Local: talks to the running `npm start` (endpoints in $DATA_DIR/endpoints.json).
// At-least-once: a message sent but not yet deleted when the command dies is in both queues; the worker is idempotent
// (a job is claimed once, output keys are deterministic), so a duplicate does no harm.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ListMessageMoveTasksCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
  type Message,
} from '@aws-sdk/client-sqs';
import { DynamoAudioRepository } from '../lambdas/narration/adapters/audio-repository';
import { DynamoJobRepository } from '../lambdas/documents/adapters/job-repository';
import type { LeasedJob, LeasedJobStore } from '../lambdas/shared/jobs/leased-job';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE =
  'usage: npm run dlq -- list | peek <queue> [--max N] | redrive <queue> [--max N] [--dry-run] [--native] | status <queue>';

export interface DlqInfo {
  name: string;
  url: string;
  arn: string;
  visible: number;
  inFlight: number;
  /** Queues whose RedrivePolicy sends failures here. */
  sources: { name: string; url: string; arn: string; maxReceiveCount: number }[];
}

/** What the CLI needs of a service's leased-job store. */
export type ResettableJobs = Pick<LeasedJobStore<LeasedJob>, 'get' | 'requeueFailed' | 'restoreFailed'>;

export interface DlqDeps {
  sqs: SQSClient;
  /**
   * Narration's jobs (the audio table's leased-job store), to reset failed jobs before a redrive (optional:
   * without it they stay failed).
   */
  audio?: ResettableJobs;
  /** Documents' async renders (the accounts table's `docjob#` items), likewise. */
  documentJobs?: ResettableJobs;
  out: (line: string) => void;
}

/** The job a message names: a job message's body is exactly {"audioId"} (narration) or {"jobId"} (documents). */
type JobRef = { kind: 'audioId' | 'jobId'; id: string };

const nameOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

async function allQueueUrls(sqs: SQSClient): Promise<string[]> {
  const urls: string[] = [];
  let token: string | undefined;
  do {
    const page = await sqs.send(new ListQueuesCommand({ NextToken: token, MaxResults: 1000 }));
    urls.push(...(page.QueueUrls ?? []));
    token = page.NextToken;
  } while (token);
  return urls;
}

/** Every DLQ in the account/region (or emulator): the queues some other queue's RedrivePolicy targets. */
export async function listDlqs(sqs: SQSClient): Promise<DlqInfo[]> {
  const queues = await Promise.all(
    (await allQueueUrls(sqs)).map(async (url) => {
      const { Attributes: a = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: [
            'QueueArn',
            'RedrivePolicy',
            'ApproximateNumberOfMessages',
            'ApproximateNumberOfMessagesNotVisible',
          ],
        }),
      );
      const policy = a.RedrivePolicy
        ? (JSON.parse(a.RedrivePolicy) as { deadLetterTargetArn: string; maxReceiveCount: number | string })
        : undefined;
      return {
        url,
        name: nameOf(url),
        arn: a.QueueArn ?? '',
        visible: Number(a.ApproximateNumberOfMessages ?? 0),
        inFlight: Number(a.ApproximateNumberOfMessagesNotVisible ?? 0),
        policy,
      };
    }),
  );
  const dlqs: DlqInfo[] = [];
  for (const q of queues) {
    const sources = queues
      .filter((s) => s.policy?.deadLetterTargetArn === q.arn)
      .map((s) => ({
        name: s.name,
        url: s.url,
        arn: s.arn,
        maxReceiveCount: Number(s.policy!.maxReceiveCount),
      }));
    if (sources.length)
      dlqs.push({ name: q.name, url: q.url, arn: q.arn, visible: q.visible, inFlight: q.inFlight, sources });
  }
  return dlqs.sort((a, b) => a.name.localeCompare(b.name));
}

/** The DLQ named by `ref` (URL, exact name, or a unique case-insensitive part of the name). */
export async function findDlq(sqs: SQSClient, ref: string): Promise<DlqInfo> {
  const dlqs = await listDlqs(sqs);
  const exact = dlqs.find((d) => d.url === ref || d.name === ref);
  if (exact) return exact;
  const matches = dlqs.filter((d) => d.name.toLowerCase().includes(ref.toLowerCase()));
  if (matches.length === 1) return matches[0]!;
  const known = dlqs.map((d) => d.name).join(', ') || 'none';
  throw new Error(
    matches.length
      ? `"${ref}" matches several DLQs (${matches.map((d) => d.name).join(', ')}): be more specific`
      : `no DLQ matches "${ref}" (DLQs: ${known})`,
  );
}

function jobOf(m: Message): JobRef | undefined {
  let body: unknown;
  try {
    body = JSON.parse(m.Body ?? '');
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const keys = Object.keys(body);
  // Webhook event messages also name a job (plus eventId, type): they are deliveries, not jobs to run again.
  if (keys.length !== 1 || (keys[0] !== 'audioId' && keys[0] !== 'jobId')) return undefined;
  const id = (body as Record<string, unknown>)[keys[0]];
  return typeof id === 'string' ? { kind: keys[0], id } : undefined;
}

const storeFor = (deps: DlqDeps, job: JobRef | undefined): ResettableJobs | undefined =>
  job && (job.kind === 'audioId' ? deps.audio : deps.documentJobs);

export async function peek(deps: DlqDeps, ref: string, max = 10): Promise<Message[]> {
  const dlq = await findDlq(deps.sqs, ref);
  const seen = new Map<string, Message>();
  // VisibilityTimeout 0: the messages stay available (a DLQ has no redrive policy, so receiving them is harmless).
  for (let round = 0; round < 5 && seen.size < max; round++) {
    const r = await deps.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlq.url,
        MaxNumberOfMessages: Math.min(10, max - seen.size),
        VisibilityTimeout: 0,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['SentTimestamp', 'ApproximateReceiveCount'],
      }),
    );
    const fresh = (r.Messages ?? []).filter((m) => !seen.has(m.MessageId!));
    if (!fresh.length) break;
    for (const m of fresh) seen.set(m.MessageId!, m);
  }
  deps.out(`${dlq.name}: ${dlq.visible} visible, ${dlq.inFlight} in flight; showing ${seen.size}`);
  for (const m of seen.values()) {
    const sent = new Date(Number(m.Attributes?.SentTimestamp ?? 0)).toISOString();
    const ref = jobOf(m);
    const store = storeFor(deps, ref);
    let job = '';
    if (ref && store) {
      const rec = await store.get(ref.id);
      job = rec ? `  job ${rec.status}${rec.error ? `: ${rec.error}` : ''}` : '  job missing';
    }
    deps.out(`${m.MessageId}  first sent ${sent}  ${(m.Body ?? '').slice(0, 200)}${job}`);
  }
  return [...seen.values()];
}

export interface RedriveResult {
  moved: number;
  requeued: number;
  /** Jobs left as they were (not failed: done, queued, active or missing), by status. */
  untouched: Record<string, number>;
}

/**
 * Moves up to `max` messages from the DLQ back to its source queue (receive → send → delete). Stops when the DLQ
 * answers empty twice in a row, at `max`, or after `deadlineMs`.
 */
export async function redrive(
  deps: DlqDeps,
  ref: string,
  opts: { max?: number; dryRun?: boolean; deadlineMs?: number } = {},
): Promise<RedriveResult> {
  const dlq = await findDlq(deps.sqs, ref);
  if (dlq.sources.length !== 1)
    throw new Error(`${dlq.name} serves ${dlq.sources.length} source queues: redrive each with --native`);
  const source = dlq.sources[0]!;
  const max = opts.max ?? Number.MAX_SAFE_INTEGER;
  const deadline = Date.now() + (opts.deadlineMs ?? 10 * 60_000);
  const result: RedriveResult = { moved: 0, requeued: 0, untouched: {} };
  if (opts.dryRun) {
    deps.out(
      `dry run: would move up to ${Math.min(max, dlq.visible)} of ${dlq.visible} message(s) ${dlq.name} → ${source.name}`,
    );
    return result;
  }
  const missingStore = new Set<JobRef['kind']>();
  let emptyRounds = 0;
  while (result.moved < max && emptyRounds < 2 && Date.now() < deadline) {
    const r = await deps.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlq.url,
        MaxNumberOfMessages: Math.min(10, max - result.moved),
        // Long enough to send and delete the batch; a message of a failed run comes back after it.
        VisibilityTimeout: 60,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ['All'],
      }),
    );
    const batch = r.Messages ?? [];
    if (!batch.length) {
      emptyRounds++;
      continue;
    }
    emptyRounds = 0;
    // Reset first: the worker skips a job still marked failed, so the message must not arrive before the reset.
    const previous = new Map<number, string>();
    for (const [i, m] of batch.entries()) {
      const ref = jobOf(m);
      const store = storeFor(deps, ref);
      if (!ref || !store) {
        if (ref) missingStore.add(ref.kind);
        continue;
      }
      // A CFDI batch's assembly ({"jobId"} too) is not a job to run again: a batch that gave up was failed and its
      // charge given back, so set back to queued it would wait for a split that never comes. Its message is moved
      // as it is (its step finds the batch failed and does nothing): the caller starts the batch again.
      if (ref.kind === 'jobId' && ((await store.get(ref.id)) as { batch?: unknown } | undefined)?.batch) {
        result.untouched.batch = (result.untouched.batch ?? 0) + 1;
        continue;
      }
      const outcome = await store.requeueFailed(ref.id);
      if (outcome.requeued) {
        result.requeued++;
        previous.set(i, outcome.error);
      } else result.untouched[outcome.status] = (result.untouched[outcome.status] ?? 0) + 1;
    }
    const sent = await deps.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: source.url,
        Entries: batch.map((m, i) => ({
          Id: String(i),
          MessageBody: m.Body!,
          MessageAttributes: m.MessageAttributes,
        })),
      }),
    );
    const ok = new Set((sent.Successful ?? []).map((s) => Number(s.Id)));
    for (const f of sent.Failed ?? []) {
      const i = Number(f.Id);
      deps.out(`send failed for ${batch[i]!.MessageId} (left in the DLQ): ${f.Message}`);
      const ref = jobOf(batch[i]!);
      const store = storeFor(deps, ref);
      if (previous.has(i) && ref && store) {
        // Already picked up by a worker: nothing to restore.
        await store.restoreFailed(ref.id, previous.get(i)!).catch(() => undefined);
        result.requeued--;
      }
    }
    const toDelete = batch.filter((_, i) => ok.has(i));
    if (toDelete.length)
      await deps.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: dlq.url,
          Entries: toDelete.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    result.moved += toDelete.length;
  }
  const untouched = Object.entries(result.untouched)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  deps.out(
    `moved ${result.moved} message(s) ${dlq.name} → ${source.name}` +
      (deps.audio || deps.documentJobs ? `; ${result.requeued} failed job(s) set back to queued` : '') +
      (untouched ? `; jobs left as they were: ${untouched}` : ''),
  );
  for (const kind of missingStore)
    deps.out(
      kind === 'audioId'
        ? 'note: AUDIO_TABLE not set, so narration jobs were not reset (the worker skips jobs still marked failed)'
        : 'note: ACCOUNTS_TABLE not set, so documents renders were not reset (the worker skips jobs still marked failed)',
    );
  return result;
}

/** SQS's own redrive back to the source queue(s). AWS only: the local emulator does not implement it. */
export async function redriveNative(deps: DlqDeps, ref: string, maxPerSecond?: number): Promise<string> {
  const dlq = await findDlq(deps.sqs, ref);
  try {
    const r = await deps.sqs.send(
      new StartMessageMoveTaskCommand({ SourceArn: dlq.arn, MaxNumberOfMessagesPerSecond: maxPerSecond }),
    );
    deps.out(
      `started a message move task for ${dlq.name} (handle ${r.TaskHandle}); follow it with: npm run dlq -- status ${dlq.name}`,
    );
    return r.TaskHandle ?? '';
  } catch (err) {
    const e = err as Error & { name: string };
    if (
      /UnsupportedOperation|InvalidAction|UnknownOperation|not.*(support|implement)/i.test(
        `${e.name} ${e.message}`,
      )
    )
      throw new Error(
        `this SQS endpoint does not implement StartMessageMoveTask (${e.name}): use redrive without --native`,
      );
    throw err;
  }
}

export async function status(deps: DlqDeps, ref: string): Promise<void> {
  const dlq = await findDlq(deps.sqs, ref);
  const r = await deps.sqs.send(new ListMessageMoveTasksCommand({ SourceArn: dlq.arn, MaxResults: 10 }));
  if (!r.Results?.length) deps.out(`${dlq.name}: no message move tasks`);
  for (const t of r.Results ?? [])
    deps.out(
      `${dlq.name}: ${t.Status} — ${t.ApproximateNumberOfMessagesMoved ?? 0} of ${t.ApproximateNumberOfMessagesToMove ?? '?'} moved` +
        (t.FailureReason ? `; ${t.FailureReason}` : ''),
    );
}

/** Local runtime endpoints ($DATA_DIR/endpoints.json), if `npm start` is running; else the environment as is. */
async function localEndpoints(): Promise<void> {
  if (process.env.AWS_ENDPOINT_URL_SQS) return;
  const file = join(resolve(process.env.DATA_DIR ?? '.data'), 'endpoints.json');
  if (!existsSync(file)) return;
  const env = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const alive = await fetch(env.AWS_ENDPOINT_URL_SQS!).then(
    () => true,
    () => false,
  );
  if (alive) Object.assign(process.env, env);
}

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      max: { type: 'string' },
      'dry-run': { type: 'boolean' },
      native: { type: 'boolean' },
      rate: { type: 'string' },
    },
  });
  const [command, ref] = positionals;
  if (!command || !['list', 'peek', 'redrive', 'status'].includes(command) || (command !== 'list' && !ref)) {
    out(USAGE);
    return 2;
  }
  const max = values.max === undefined ? undefined : Number(values.max);
  if (max !== undefined && !(Number.isInteger(max) && max > 0))
    throw new Error('--max must be a positive integer');
  await localEndpoints();
  const sqs = new SQSClient({});
  const audioTable = process.env.AUDIO_TABLE;
  const accountsTable = process.env.ACCOUNTS_TABLE;
  const ddb = audioTable || accountsTable ? DynamoDBDocumentClient.from(new DynamoDBClient({})) : undefined;
  const deps: DlqDeps = {
    sqs,
    audio: ddb && audioTable ? new DynamoAudioRepository(ddb, audioTable) : undefined,
    documentJobs: ddb && accountsTable ? new DynamoJobRepository(ddb, accountsTable) : undefined,
    out,
  };
  try {
    if (command === 'list') {
      const dlqs = await listDlqs(sqs);
      if (!dlqs.length) out('no dead-letter queues found');
      for (const d of dlqs)
        out(
          `${d.name}  ${d.visible} visible, ${d.inFlight} in flight  ← ${d.sources.map((s) => `${s.name} (after ${s.maxReceiveCount} receives)`).join(', ')}`,
        );
    } else if (command === 'peek') await peek(deps, ref!, max ?? 10);
    else if (command === 'status') await status(deps, ref!);
    else if (values.native) await redriveNative(deps, ref!, values.rate ? Number(values.rate) : undefined);
    else await redrive(deps, ref!, { max, dryRun: values['dry-run'] });
    return 0;
  } finally {
    sqs.destroy();
    ddb?.destroy();
  }
}

if (require.main === module)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`dlq: ${(err as Error).message}\n${USAGE}`);
      process.exit(1);
    },
  );
