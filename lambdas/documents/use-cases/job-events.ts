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

/**
 * Is the job's event still to be delivered? Not when an attempt delivered it (or found nobody subscribed any more),
 * nor after its last attempt (no next one: it went to the DLQ, whose redrive sends it again).
 */
export function eventPending(job: Pick<JobRecord, 'event' | 'deliveries'>): boolean {
  if (!job.event) return false;
  const attempts = (job.deliveries ?? []).filter((d) => d.eventId === job.event!.id);
  if (attempts.some((d) => d.outcome === 'delivered' || d.outcome === 'skipped')) return false;
  const last = attempts.at(-1);
  return !last || !!last.nextAttemptAt;
}

/**
 * After a local restart (its queues live in memory, so messages of the previous run are gone): queues again the
 * events of settled jobs that were not delivered yet — queued then lost, or never queued (a kill between the job's
 * outcome and its event). A retry waits what its schedule said. At least once, like SQS: an event delivered just
 * before the kill, whose attempt was not recorded, is sent again (receivers dedupe on its id). Answers how many.
 */
export async function requeuePendingEvents(
  deps: Pick<JobEventDeps, 'deliveryQueue' | 'jobs'>,
  jobs: JobRecord[],
  now: Date,
): Promise<number> {
  let queued = 0;
  for (const job of jobs) {
    if (!eventPending(job)) continue;
    const next = job.deliveries?.filter((d) => d.eventId === job.event!.id).at(-1)?.nextAttemptAt;
    const delayS = next ? Math.max(0, Math.ceil((Date.parse(next) - now.getTime()) / 1000)) : 0;
    await deps.deliveryQueue.send(
      { jobId: job.jobId, eventId: job.event!.id } satisfies DeliveryMessage,
      delayS,
    );
    await deps.jobs.markEventQueued(job.jobId);
    queued++;
  }
  return queued;
}
