// The webhook event of a finished documents job (an async render or a batch): whether there is one, and queuing it
// for the delivery worker. Apart from the render worker's side (jobs-render.ts), which pulls in Chromium and the
// template sandbox: the batch assembler, a zip bundle without them, uses these too.
import { logger } from '../../shared/logger';
import type { MessageQueue } from '../../shared/webhooks/delivery';
import type { JobRecord, JobRepository, WebhookEventType } from '../ports';
import { eventIdFor, type DeliveryMessage } from './jobs';

export interface JobEventDeps {
  deliveryQueue: MessageQueue;
  /** Is an endpoint of `owner` subscribed to `type`? (decides whether the outcome becomes an event) */
  subscribed(owner: string, type: WebhookEventType): Promise<boolean>;
  jobs: Pick<JobRepository, 'markEventQueued'>;
}

/** The event of a finished job when its owner's endpoint subscribes to `type` (batches share it). */
export async function outcomeEvent(
  deps: Pick<JobEventDeps, 'subscribed'>,
  job: JobRecord,
  type: WebhookEventType,
): Promise<JobRecord['event']> {
  try {
    return (await deps.subscribed(job.owner, type))
      ? { id: eventIdFor(job.jobId, type), type, queued: false }
      : undefined;
  } catch (err) {
    // The outcome is recorded either way; a webhook lookup failure must not fail the job. Retrying the job would
    // not help (it is finished), so this event is lost: say so loudly.
    logger.error('webhook endpoint lookup failed; no event for this job', { error: err as Error });
    return undefined;
  }
}

/** Queues the job's event for the delivery worker (idempotent: the event id is deterministic). */
export async function queueEvent(
  deps: Pick<JobEventDeps, 'deliveryQueue' | 'jobs'>,
  job: Pick<JobRecord, 'jobId' | 'event'>,
): Promise<void> {
  if (!job.event || job.event.queued) return;
  await deps.deliveryQueue.send({ jobId: job.jobId, eventId: job.event.id } satisfies DeliveryMessage);
  await deps.jobs.markEventQueued(job.jobId);
}
