// Render worker: fed by the documents render queue (SQS event source, batch size 1, reportBatchItemFailures) with
// the async renders POST /v1/render accepted (domain/jobs.ts). Runs in the container image (Chromium) and renders
// with the same renderDocument() as the synchronous route. A fault is retried by SQS redelivery after a backoff of
// seconds to minutes (JOB_RETRY_SCHEDULE_S, lambdas/shared/jobs/retry.ts); a request the
// caller must fix fails at once; after MAX_RECEIVE_COUNT attempts the job is failed (quota given back, webhook
// event queued) and SQS moves the message to the DLQ.
import { z } from 'zod';
import { sqsWorker } from '../../shared/sqs-worker';
import { retryPolicy } from '../../shared/jobs/retry';
import { awsDeps, type DocumentsDeps } from '../deps';
import { runRenderJob, type RenderJobDeps } from '../use-cases/jobs-render';
import { recordRender } from './render';

const Message = z.object({ jobId: z.string().min(1).max(64) });

export function renderJobDeps(deps: DocumentsDeps): RenderJobDeps {
  return {
    jobs: deps.jobs,
    jobFiles: deps.jobFiles,
    renderQueue: deps.renderQueue,
    deliveryQueue: deps.deliveryQueue,
    quotas: deps.quotas,
    subscribed: async (owner, type) => !!(await deps.webhooks.get(owner))?.events.includes(type),
    renderer: () => deps.renderer(),
    recordRender: async (format) => void (await recordRender(deps, format)),
    now: () => deps.now(),
    maxAttempts: deps.config.MAX_RECEIVE_COUNT,
  };
}

export const makeHandler = (deps: DocumentsDeps) =>
  sqsWorker(
    Message,
    ({ message, attempt }) => runRenderJob(renderJobDeps(deps), message.jobId, attempt),
    () => retryPolicy(deps.config, deps.redelivery),
  );

export const handler = makeHandler(awsDeps());
