// Batch assembler: fed by the documents assemble queue (SQS event source, batch size 1, reportBatchItemFailures),
// two messages per CFDI batch: its split (use-cases/batch-split.ts; sent by POST /v1/batches: it reads the zip, writes
// and queues the parts for the batch worker, charges the month), then its assembly (sent by the split), which streams
// the batch's result zip part by
// part as the batch worker's parts are counted (use-cases/batch-assemble.ts), so the zip is written while the
// batch renders instead of after it, for at most FOLLOW_MS (then it defers to the count that completes the batch,
// which queues the next assembly: a success here, so a long batch uses up no receives). A zip bundle: no Chromium.
// A fault is retried by SQS redelivery after a backoff (JOB_RETRY_SCHEDULE_S); the retry starts the zip again from
// the first part. On the last attempt (the queue's maxReceiveCount) the batch fails and its charge is given back
// (use-cases/batch-end.ts giveUpBatch), and the message goes on to the DLQ (its alarm).
import { z } from 'zod';
import { logger } from '../../shared/logger';
import { sqsWorker } from '../../shared/sqs-worker';
import { retryPolicy } from '../../shared/jobs/retry';
import { awsDeps, batchDeps, type DocumentsDeps } from '../deps';
import { assembleBatch } from '../use-cases/batch-assemble';
import { giveUpBatch } from '../use-cases/batch-end';
import type { BatchAssembleDeps, BatchSplitDeps } from '../use-cases/batch-run-deps';
import { splitBatch } from '../use-cases/batch-split';
import type { AssembleMessage } from '../use-cases/batches';

const Message = z.object({
  jobId: z.string().min(1).max(64),
  step: z.literal('split').optional(),
}) satisfies z.ZodType<AssembleMessage>;

/** The stores the assembly uses, named one by one (a spread would read every lazy getter). */
export function batchAssembleDeps(deps: DocumentsDeps): BatchAssembleDeps {
  return {
    jobs: deps.batches,
    batchFiles: deps.batchFiles,
    quotas: deps.quotas,
    now: () => deps.now(),
    events: {
      jobs: deps.batches,
      deliveryQueue: deps.deliveryQueue,
      subscribed: async (owner, type) => !!(await deps.webhooks.get(owner))?.events.includes(type),
    },
  };
}

/** The split's: the batch's stores, the parts' and the assembly's queues, the webhook side of a refused batch. */
export function batchSplitDeps(deps: DocumentsDeps): BatchSplitDeps {
  return { ...batchDeps(deps), batchQueue: deps.batchQueue, events: batchAssembleDeps(deps).events };
}

export const makeHandler = (deps: DocumentsDeps) =>
  sqsWorker(
    Message,
    async ({ message, attempt }) => {
      const step = message.step ?? 'assembly';
      try {
        if (step === 'split') await splitBatch(batchSplitDeps(deps), message.jobId);
        else await assembleBatch(batchAssembleDeps(deps), message.jobId);
      } catch (err) {
        const last = attempt >= deps.config.MAX_RECEIVE_COUNT;
        logger.error(`batch ${step} failed; ${last ? 'giving up' : 'SQS retries it'}`, {
          error: err as Error,
          attempt,
        });
        // A give-up that fails too leaves the batch for the DLQ's redrive: its delivery ends or fails the batch.
        if (last)
          await giveUpBatch(batchAssembleDeps(deps), message.jobId, step, attempt).catch((e: unknown) =>
            logger.error('batch give-up failed', { error: e as Error }),
          );
        throw err;
      }
    },
    () => retryPolicy(deps.config, deps.assembleRedelivery),
  );

export const handler = makeHandler(awsDeps());
