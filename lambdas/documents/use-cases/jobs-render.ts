// The render worker's side of async renders (use-cases/jobs.ts has the acceptance, ../ports.ts the records and ports): claim the job,
// render it with the same renderDocument() as POST /v1/render, store the file, record the outcome and queue its
// webhook event. Loaded only by the render worker (container image): it pulls in Chromium and the template sandbox.
import { DomainError, Unavailable } from '../../shared/errors';
import { runLeasedJob } from '../../shared/jobs/leased-job';
import { logger } from '../../shared/logger';
import { chargedDecision } from '../../shared/quota/windows';
import { DocumentRequestError, type DocumentProblem } from '../errors';
import { giveBackCharge, type AcceptDeps } from './jobs';
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
 * The end of a settled job: its charge settled (a failed job's given back, a delivered one's committed), its event
 * queued, the `ending` mark its settling write left removed last (markEnded), then the render counted (GET /stats),
 * only by the call that removed the mark. A worker that dies before that leaves the job `ending`, and the next
 * delivery of its message runs this again (runLeasedJob: policy.end); a step that throws leaves the mark too, and
 * the message is retried. Each step is safe twice: the charge is given back or committed once per charge id (a
 * keyed retry after a failed job is charged under an id of its own: use-cases/jobs.ts keyedChargeId), the event is
 * sent until it is marked queued (its id is deterministic: receivers dedupe on it), and the counter is added at
 * most once. `again`: a delivery ends a job settled earlier (it cannot tell whether its request is still needed: it
 * leaves it to the bucket's jobs/ rule). `keepRequest`: a job failed on our side keeps it (a redrive renders it).
 */
async function endJob(
  deps: RenderJobDeps,
  job: JobRecord,
  how: { again?: true; keepRequest?: boolean } = {},
): Promise<void> {
  if (job.charged?.length) {
    const charge = chargedDecision(job.charged, job);
    // A charge without an id (a job accepted before every async charge had one) is given back by its settling call
    // only: a plain unit would be given back twice.
    if (job.status === 'failed' && (job.chargeId || !how.again)) await giveBackCharge(deps.quotas, charge);
    // A delivered job's charge stays: its hold committed (the 202 that accepted it did, unless that request died
    // after queueing it: then the hold was given back and is charged again now, once by its charge id).
    if (job.status === 'done' && job.hold) await deps.quotas.commit(charge);
  }
  await queueEvent(deps, job);
  if (!(await deps.jobs.markEnded(job.jobId))) return; // another delivery ended it
  if (job.status === 'done') await deps.recordRender(job.format);
  if (!how.again && !how.keepRequest)
    await deps.jobFiles
      .deleteRequest(job.jobId)
      .catch((e) => logger.warn('job request cleanup failed', { error: e as Error }));
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
  const fields = {
    problems: failure.problems?.length ? failure.problems : undefined,
    event: await outcomeEvent(deps, job, 'document.failed'),
    completedAt: deps.now().toISOString(),
  };
  if (await deps.jobs.fail(job.jobId, failure.reason, { ...fields, ending: true }))
    await endJob(deps, { ...job, ...fields, status: 'failed', error: failure.reason }, { keepRequest });
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
 * least once, so a finished job is acknowledged without work (ended first if its worker died before its end:
 * endJob), and a retry overwrites the same result key. After the last attempt the job is failed (quota given back,
 * event queued) and the error rethrown, so SQS moves the message to the DLQ (its alarm tells the operator).
 */
export function runRenderJob(
  deps: RenderJobDeps,
  jobId: string,
  attempt: number,
): Promise<'done' | 'failed' | 'skipped'> {
  return runLeasedJob(deps.jobs, jobId, attempt, (claimed) => renderJob(deps, claimed), {
    maxAttempts: deps.maxAttempts,
    metric: { service: 'documents', kind: 'render' },
    // Settled but not ended: its worker died between the two; the end runs again (safe twice).
    end: (current) => endJob(deps, current, { again: true }),
    // Settled and ended: only an event whose queueing was lost (a job ended before `ending` existed) is queued.
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
  const fields = { result, event: await outcomeEvent(deps, claimed, 'document.rendered') };
  const completedAt = deps.now().toISOString();
  // Settled by another delivery meanwhile (this one lost its lease): that one ends it.
  if (await deps.jobs.complete(jobId, { ...fields, completedAt, ending: true }))
    await endJob(deps, { ...claimed, ...fields, completedAt, status: 'done', progress: 1 });
  return 'done';
}
