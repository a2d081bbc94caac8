// Delivery worker: fed by the documents delivery queue (SQS event source, batch size 1, reportBatchItemFailures).
// Each message is one webhook event of one job; deliverEvent (domain/webhooks.ts) POSTs it, signed, through the
// SSRF boundary and records the attempt on the job. A failed attempt sets the message's visibility to the retry
// schedule's next delay (WEBHOOK_RETRY_SCHEDULE_S: 1 min, 5 min, 30 min, 2 h, 6 h) and reports it failed, so SQS
// redelivers it then; after the last attempt it reappears at once and SQS moves it to the DLQ (maxReceiveCount =
// attempts).
import { z } from 'zod';
import { sqsWorker } from '../../shared/sqs-worker';
import { awsDeps, type DocumentsDeps } from '../deps';
import { deliverEvent, type DeliveryDeps } from '../use-cases/webhooks';

const Message = z.object({ jobId: z.string().min(1).max(64), eventId: z.string().min(1).max(64) });

export function deliveryDeps(deps: DocumentsDeps): DeliveryDeps {
  return {
    jobs: deps.jobs,
    jobFiles: deps.jobFiles,
    webhooks: deps.webhooks,
    deliveryQueue: deps.deliveryQueue,
    policy: deps.webhookPolicy,
    retryScheduleS: deps.config.WEBHOOK_RETRY_SCHEDULE_S,
    downloadTtlS: deps.config.JOB_DOWNLOAD_TTL_S,
    now: () => deps.now(),
  };
}

export const makeHandler = (deps: DocumentsDeps) =>
  sqsWorker(Message, ({ message, attempt, record }) =>
    deliverEvent(deliveryDeps(deps), message, attempt, record.receiptHandle),
  );

export const handler = makeHandler(awsDeps());
