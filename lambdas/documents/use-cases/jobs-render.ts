// The render worker's side of async renders (use-cases/jobs.ts has the acceptance, ../ports.ts the records and ports): claim the job,
// render it with the same renderDocument() as POST /v1/render, store the file, record the outcome and queue its
// webhook event. Loaded only by the render worker (container image): it pulls in Chromium and the template sandbox.
import { DomainError, Unavailable } from '../../shared/errors';
import { runLeasedJob } from '../../shared/jobs/leased-job';
import { logger } from '../../shared/logger';
import { chargedDecision, type QuotaStore } from '../../shared/quota/windows';
import { DocumentRequestError, type DocumentProblem } from '../errors';
import type { AcceptDeps } from './jobs';
import { outcomeEvent, queueEvent } from './job-events';
import { openRequest } from './job-secrets';
import type { MessageQueue } from '../../shared/webhooks/delivery';
import type { JobRecord, RenderDeps, RenderedDocument, WebhookEventType } from '../ports';
import { observeRender } from '../metrics';
import { parseRenderRequest } from '../request/validate';
import { renderDocument } from './render-request';

export interface RenderJobDeps extends AcceptDeps {
  deliveryQueue: MessageQueue;
  /** Is an endpoint of `owner` subscribed to `type`? (decides whether the outcome becomes an event) */
  subscribed(owner: string, type: WebhookEventType): Promise<boolean>;
  renderer(): Promise<RenderDeps>;
  recordRender(format: string): Promise<void>;
  now(): Date;
  maxAttempts: number;
}

/**
 * Gives back what a job was charged: its units in its windows, by its charge id when it has one (so exactly that
 * charge, once, whichever job or attempt asks; a plain unit for jobs charged without one). A held charge (its
 * request died before its 202) is given back as a hold, only while held, then by its id: once either way.
 */
async function refundJob(quotas: QuotaStore, job: JobRecord): Promise<void> {
  if (!job.charged?.length) return;
  const charge = chargedDecision(job.charged, { chargeId: job.chargeId, units: job.units });
  if (job.hold) await quotas.refund({ ...charge, hold: job.hold });
  await quotas.refund(charge);
}

/**
 * A delivered job's charge is there: its hold committed (the 202 that accepted it did, unless that request died
 * after queueing it: then the hold was given back and is charged again now, once by its charge id). Never throws.
 */
async function commitJob(quotas: QuotaStore, job: JobRecord): Promise<void> {
  if (!job.hold || !job.charged?.length) return;
  await quotas
    .commit(chargedDecision(job.charged, job))
    .catch((e) => logger.error('quota charge not committed', { error: e as Error, jobId: job.jobId }));
}

async function failJob(
  deps: RenderJobDeps,
  job: JobRecord,
  failure: { reason: string; problems?: DocumentProblem[] },
  /**
   * Keep the stored request: a job that failed on our side goes to the DLQ and may be redriven (`npm run dlq`),
   * which renders it from that request; the bucket's jobs/ rule removes it after JOB_REQUESTS_PREFIX.days.
   */
  keepRequest = false,
): Promise<void> {
  const event = await outcomeEvent(deps, job, 'document.failed');
  const moved = await deps.jobs.fail(job.jobId, failure.reason, {
    problems: failure.problems?.length ? failure.problems : undefined,
    event,
    completedAt: deps.now().toISOString(),
  });
  if (!moved) return;
  await refundJob(deps.quotas, job).catch((e) =>
    logger.error('quota refund failed', { error: e as Error, jobId: job.jobId }),
  );
  await queueEvent(deps, { jobId: job.jobId, event });
  if (keepRequest) return;
  await deps.jobFiles
    .deleteRequest(job.jobId)
    .catch((e) => logger.warn('job request cleanup failed', { error: e as Error }));
}

/** Errors that are the request's own: rendering it again cannot succeed (a synchronous render would answer 4xx). */
function callerFault(err: unknown): { reason: string; problems?: DocumentProblem[] } | undefined {
  if (err instanceof DocumentRequestError)
    return {
      reason:
        `The document could not be rendered as requested: ${err.problems.map((p) => p.msg).join('; ')}`.slice(
          0,
          1000,
        ),
      problems: err.problems,
    };
  if (err instanceof DomainError && !(err instanceof Unavailable))
    return { reason: `The document could not be rendered as requested: ${err.detail}`.slice(0, 1000) };
  return undefined;
}

/**
 * Runs one queued render (the shared leased-job engine claims, releases and gives up). Idempotent: SQS delivers at
 * least once, so a finished job is acknowledged without work (its event re-queued if that step was lost), and a
 * retry overwrites the same result key. After the last attempt the job is failed (quota given back, event queued)
 * and the error rethrown, so SQS moves the message to the DLQ (its alarm tells the operator).
 */
export function runRenderJob(
  deps: RenderJobDeps,
  jobId: string,
  attempt: number,
): Promise<'done' | 'failed' | 'skipped'> {
  return runLeasedJob(deps.jobs, jobId, attempt, (claimed) => renderJob(deps, claimed), {
    maxAttempts: deps.maxAttempts,
    onSettled: async (current) => {
      if (current) await queueEvent(deps, current);
    },
    async giveUp(claimed, err, tried) {
      await failJob(
        deps,
        claimed,
        {
          reason: `Rendering failed on our side after ${tried} attempts. It was not counted against your limits; please submit it again.`,
        },
        true,
      );
      throw err; // the message goes on to the DLQ (its alarm), as narration's do
    },
  });
}

async function renderJob(deps: RenderJobDeps, claimed: JobRecord): Promise<'done' | 'failed'> {
  const { jobId } = claimed;
  const text = await deps.jobFiles.getRequest(jobId);
  let body: unknown;
  try {
    body = text === undefined ? undefined : openRequest(text, claimed.requestSecret);
  } catch (err) {
    logger.error('stored render request could not be opened', { error: err as Error, jobId });
  }
  if (body === undefined) {
    await failJob(deps, claimed, {
      reason: 'The job could not be read back (its request expired). Please submit it again.',
    });
    return 'failed';
  }
  let doc: RenderedDocument;
  try {
    const request = parseRenderRequest(body);
    await deps.jobs.setProgress(jobId, 0.1);
    // Async is Scale-only: never watermarked.
    const renderer = await deps.renderer();
    // Counted like a synchronous render (DocumentsRendered, RenderDurationMs, RenderFailures).
    doc = await observeRender(request.format, () =>
      renderDocument(request, renderer, { watermark: claimed.plan === 'free' }),
    );
  } catch (err) {
    const fault = callerFault(err);
    if (!fault) throw err;
    await failJob(deps, claimed, fault);
    return 'failed';
  }
  await deps.jobs.setProgress(jobId, 0.9);
  const result = await deps.jobFiles.putResult(jobId, doc);
  const event = await outcomeEvent(deps, claimed, 'document.rendered');
  await deps.jobs.complete(jobId, { result, event, completedAt: deps.now().toISOString() });
  await commitJob(deps.quotas, claimed);
  await deps.recordRender(claimed.format);
  await queueEvent(deps, { jobId, event });
  await deps.jobFiles
    .deleteRequest(jobId)
    .catch((e) => logger.warn('job request cleanup failed', { error: e as Error }));
  return 'done';
}
