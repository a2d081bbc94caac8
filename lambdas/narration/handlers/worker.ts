// Worker: fed by the priority and standard job queues (SQS event source, reportBatchItemFailures).
// Each record names a queued job; runJob is idempotent. Failures are reported per record so SQS retries only
// those, after a backoff of seconds to minutes (JOB_RETRY_SCHEDULE_S: the failed message's visibility is shortened;
// the queue's long visibility timeout only guards against a worker that dies); after MAX_RECEIVE_COUNT attempts the
// job is marked failed and SQS moves the message to the DLQ. The middy chain and batch handling are the shared
// sqsWorker's (lambdas/shared/sqs-worker.ts).
import { z } from 'zod';
import { recordJobDone, recordJobFailure } from '../metrics';
import { sqsWorker } from '../../shared/sqs-worker';
import { retryPolicy } from '../../shared/jobs/retry';
import { awsDeps, type NarrationDeps } from '../deps';
import { JobBusyError } from '../../shared/jobs/leased-job';
import { runJob } from '../use-cases/narration-job';
import { findVoice } from '../core/voices';

const Message = z.object({ audioId: z.string().min(1).max(64), backstop: z.literal(true).optional() });

export const makeHandler = (deps: NarrationDeps) =>
  sqsWorker(
    Message,
    async ({ message: { audioId, backstop }, attempt }) => {
      const started = performance.now();
      try {
        const outcome = await runJob(deps, audioId, attempt, findVoice, backstop);
        if (outcome === 'done') {
          const job = await deps.audio.get(audioId).catch(() => undefined);
          recordJobDone(performance.now() - started, job?.chars);
        }
        return outcome;
      } catch (err) {
        // Another worker holding the job's lease is not a failure.
        if (!(err instanceof JobBusyError)) recordJobFailure();
        throw err;
      }
    },
    () => retryPolicy(deps.config, deps.redelivery),
  );

export const handler = makeHandler(awsDeps());
