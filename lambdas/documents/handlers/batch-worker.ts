// Batch worker: fed by the documents batch queue (SQS event source, batch size 1, reportBatchItemFailures) with the
// parts of CFDI batches (use-cases/batch-run.ts; the split and the assembly are the batch assembler's,
// handlers/batch-assembler.ts: a `split` or `assemble` message left from before is forwarded to it). Runs in the container image (Chromium)
// and renders with the same renderDocument() as POST /v1/render; parts run in parallel, one per invocation, up to
// the queue's maxConcurrency. A fault is retried by SQS redelivery after a backoff (JOB_RETRY_SCHEDULE_S); on the
// last attempt a part reports its CFDI still without a PDF as failed, and the batch goes on.
import { z } from 'zod';
import { logger } from '../../shared/logger';
import { sqsWorker } from '../../shared/sqs-worker';
import { retryPolicy } from '../../shared/jobs/retry';
import { awsDeps, type DocumentsDeps } from '../deps';
import { runBatchStep } from '../use-cases/batch-run';
import type { BatchRunDeps } from '../use-cases/batch-run-deps';
import type { BatchStep } from '../use-cases/batches';
import { recordRender } from './render';

// `part` is a number in the message; a string here, as the worker's log keys are.
const Message = z.object({
  jobId: z.string().min(1).max(64),
  step: z.enum(['split', 'part', 'assemble']),
  part: z.int().min(0).max(10_000).transform(String).optional(),
});

function stepOf(m: z.output<typeof Message>): BatchStep {
  if (m.step !== 'part') return { jobId: m.jobId, step: m.step };
  if (m.part === undefined) throw new Error('a part step without its part number');
  return { jobId: m.jobId, step: 'part', part: Number(m.part) };
}

/** The stores a part uses, named one by one (the deps are lazy getters: a store this function has no grant for throws). */
export function batchRunDeps(deps: DocumentsDeps): BatchRunDeps {
  return {
    jobs: deps.batches,
    batchFiles: deps.batchFiles,
    assembleQueue: deps.assembleQueue,
    batchQueue: deps.batchQueue,
    renderer: () => deps.renderer(),
    recordRender: async (format, count) => void (await recordRender(deps, format, count)),
    maxAttempts: deps.config.MAX_RECEIVE_COUNT,
  };
}

export const makeHandler = (deps: DocumentsDeps) =>
  sqsWorker(
    Message,
    async ({ message, attempt, remainingMs }) => {
      try {
        await runBatchStep(batchRunDeps(deps), stepOf(message), attempt, remainingMs);
      } catch (err) {
        logger.error('batch step failed; SQS retries it', { error: err as Error, attempt });
        throw err;
      }
    },
    () => retryPolicy(deps.config, deps.batchRedelivery),
  );

export const handler = makeHandler(awsDeps());
