// In-memory fakes of documents' ports (lambdas/documents/ports.ts, use-cases/webhooks.ts), behaving like their
// adapters: the job repository is the shared leased-job fake (claimed jobs are `rendering`) plus the event flag and
// the bounded delivery log; files are kept by key; the webhook store answers 409 to a stale write like DynamoDB's
// conditional put; the queue records what was sent and retried.
import type { MessageVisibility, ReceivedMessage } from '../../lambdas/shared/jobs/retry';
import { Conflict } from '../../lambdas/shared/errors';
import {
  MAX_RECORDED_DELIVERIES,
  type DeliveryAttempt,
  type JobFiles,
  type JobRecord,
  type BatchRepository,
  type JobRepository,
  type JobResult,
  type RenderedDocument,
  type SplitBatch,
  type WebhookEventType,
} from '../../lambdas/documents/ports';
import type { WindowSlot } from '../../lambdas/shared/quota/windows';
import type { MessageQueue } from '../../lambdas/documents/use-cases/jobs';
import type { WebhookEndpoint, WebhookStore } from '../../lambdas/shared/webhooks/endpoints';
import { Faults } from './faults';
import { FakeLeasedJobStore } from './leased-job-store';

export class FakeJobRepository extends FakeLeasedJobStore<JobRecord> implements JobRepository {
  constructor(now: () => Date = () => new Date(), leaseS = 120) {
    super('jobId', 'rendering', now, leaseS);
  }

  async markEventQueued(jobId: string): Promise<void> {
    this.transition(
      jobId,
      (j) => j.event !== undefined,
      (j) => void (j.event!.queued = true),
      false,
    );
  }

  async listSettledWithEvents(limit: number): Promise<JobRecord[]> {
    return [...this.items.values()]
      .filter((j) => j.event !== undefined && (j.status === 'done' || j.status === 'failed'))
      .slice(0, limit)
      .map((j) => structuredClone(j));
  }

  async addDelivery(jobId: string, attempt: DeliveryAttempt): Promise<void> {
    this.transition(
      jobId,
      (j) => (j.deliveries?.length ?? 0) < MAX_RECORDED_DELIVERIES,
      (j) => void (j.deliveries = [...(j.deliveries ?? []), structuredClone(attempt)]),
      false,
    );
  }
}

/**
 * The batch's counters on the job record, as DynamoBatchRepository keeps them (test/integration/adapters/batch.cases.ts
 * runs the adapter): each step one conditional update; the parts seen and started are sets beside the record.
 */
export class FakeBatchRepository extends FakeJobRepository implements BatchRepository {
  private readonly seen = new Map<string, Set<number>>();
  private readonly started = new Map<string, Set<number>>();
  private readonly live = (j: JobRecord) => j.status === 'queued' || j.status === 'rendering';

  async planBatch(jobId: string, plan: SplitBatch, charged: WindowSlot[]): Promise<Set<number> | undefined> {
    const old = this.transition(
      jobId,
      (j) => j.status === 'queued',
      (j) =>
        Object.assign(j, {
          status: 'rendering',
          batch: plan,
          charged,
          batchDone: j.batchDone ?? 0,
          batchFailed: j.batchFailed ?? 0,
          partsDone: j.partsDone ?? 0,
        }),
    );
    return old && this.partsCounted(jobId);
  }

  async recordPart(jobId: string, part: number, done: number, failed: number) {
    const old = this.transition(
      jobId,
      (j) => this.live(j) && !this.seen.get(jobId)?.has(part),
      (j) =>
        Object.assign(j, {
          batchDone: (j.batchDone ?? 0) + done,
          batchFailed: (j.batchFailed ?? 0) + failed,
          partsDone: (j.partsDone ?? 0) + 1,
        }),
    );
    if (!old) return undefined;
    this.seen.set(jobId, (this.seen.get(jobId) ?? new Set()).add(part));
    return { job: (await this.get(jobId))!, parts: await this.partsCounted(jobId) };
  }

  async recordBatchUnits(jobId: string, units: number): Promise<boolean> {
    return !!this.transition(
      jobId,
      (j) => j.status === 'queued',
      (j) => void (j.units = units),
      false,
    );
  }

  async partsCounted(jobId: string): Promise<Set<number>> {
    return new Set(this.seen.get(jobId));
  }

  async deferAssembly(jobId: string, parts: number): Promise<boolean> {
    return !!this.transition(
      jobId,
      (j) => j.status === 'rendering' && (j.partsDone ?? 0) < parts,
      (j) => void (j.assemblyDeferred = true),
      false,
    );
  }

  async startPart(jobId: string, part: number) {
    const job = this.transition(jobId, this.live, () => undefined);
    if (!job) return undefined;
    const startedBefore = !!this.started.get(jobId)?.has(part);
    this.started.set(jobId, (this.started.get(jobId) ?? new Set()).add(part));
    return { job, startedBefore };
  }
}

export class FakeJobFiles implements JobFiles {
  /** jobs/<id>.json and results/jobs/<id>/<filename>, as the S3 adapter keys them. */
  readonly objects = new Map<string, Buffer>();
  readonly faults = new Faults();

  async putRequest(jobId: string, body: string): Promise<void> {
    this.faults.check('putRequest');
    this.objects.set(`jobs/${jobId}.json`, Buffer.from(body));
  }

  async getRequest(jobId: string): Promise<string | undefined> {
    this.faults.check('getRequest');
    return this.objects.get(`jobs/${jobId}.json`)?.toString('utf8');
  }

  async deleteRequest(jobId: string): Promise<void> {
    this.objects.delete(`jobs/${jobId}.json`);
  }

  async deleteResult(result: JobResult): Promise<void> {
    this.objects.delete(result.key);
  }

  async putResult(jobId: string, doc: RenderedDocument): Promise<JobResult> {
    this.faults.check('putResult');
    const key = `results/jobs/${jobId}/${doc.filename}`;
    this.objects.set(key, Buffer.from(doc.bytes));
    return { key, filename: doc.filename, contentType: doc.contentType, bytes: doc.bytes.length };
  }

  async presignResult(result: JobResult, expiresInS: number): Promise<string> {
    return `http://127.0.0.1:9/${result.key}?expires=${expiresInS}`;
  }
}

export class FakeMessageQueue implements MessageQueue {
  readonly sent: { message: Record<string, unknown>; delayS: number }[] = [];
  readonly retries: { receiptHandle: string; delayS: number }[] = [];
  readonly faults = new Faults();

  async send(message: Record<string, unknown>, delayS = 0): Promise<void> {
    this.faults.check('send');
    this.sent.push({ message: structuredClone(message), delayS });
  }

  async retryAfter(receiptHandle: string, delayS: number): Promise<void> {
    this.faults.check('retryAfter');
    this.retries.push({ receiptHandle, delayS });
  }

  /** The message bodies sent so far. */
  get messages(): Record<string, unknown>[] {
    return this.sent.map((s) => s.message);
  }
}

/** Records each failed job message's retry delay (lambdas/shared/jobs/retry.ts). */
export class FakeMessageVisibility implements MessageVisibility {
  readonly retries: { message: ReceivedMessage; delayS: number }[] = [];

  async retryAfter(message: ReceivedMessage, delayS: number): Promise<void> {
    this.retries.push({ message, delayS });
  }
}

/** Also narration's (E = its event types): the store is the platform's (lambdas/shared/webhooks). */
export class FakeWebhookStore<E extends string = WebhookEventType> implements WebhookStore<E> {
  readonly endpoints = new Map<string, WebhookEndpoint<E>>();

  async get(owner: string): Promise<WebhookEndpoint<E> | undefined> {
    const e = this.endpoints.get(owner);
    return e && structuredClone(e);
  }

  async put(endpoint: WebhookEndpoint<E>, previousSecret?: string): Promise<void> {
    const current = this.endpoints.get(endpoint.owner);
    const ok = previousSecret === undefined ? !current : current?.secret === previousSecret;
    if (!ok)
      throw new Conflict(
        'The webhook endpoint was changed by another request just now. Read it again (GET /v1/webhook) and retry.',
      );
    this.endpoints.set(endpoint.owner, structuredClone(endpoint));
  }

  async remove(owner: string): Promise<boolean> {
    return this.endpoints.delete(owner);
  }
}

/** A queued async render job as acceptAsyncRender() creates it (Scale plan, ventas as CSV, kept one day). */
export function jobRecord(over: Partial<JobRecord> = {}, now = new Date('2026-03-01T12:00:00Z')): JobRecord {
  return {
    jobId: 'job_test0000000000000000001',
    owner: 'acct:cus_1',
    plan: 'scale',
    status: 'queued',
    progress: 0,
    template: 'ventas',
    format: 'csv',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + 86400,
    charged: [],
    ...over,
  };
}
