// Async renders (Scale plan): POST /v1/render with `options.async: true` → 202 {id, status: "queued", status_url}.
// The request is stored (S3: a render body may be 2 MiB, an SQS message at most 256 KiB) with its secrets sealed
// (options.password: use-cases/job-secrets.ts, the key only on the job record), a job record is created
// and its id queued; the render worker (handlers/render-worker.ts) renders with the same renderDocument() as the
// synchronous path, stores the file under results/, records the outcome and, when the account has a webhook
// endpoint, queues the event for the delivery worker (domain/webhooks.ts). GET /v1/jobs/{id} shows the job to the
// account that created it (404 to everyone else).
//
// Quota: charged at acceptance, like a synchronous render, and held until the 202 leaves (the route commits it): a
// request that dies before its job exists, or before it is queued, leaves a hold that is given back. A job queued
// by a request that died before its 202 is rendered by its worker, which commits the charge when it delivers (once,
// by its charge id). Given back when the job fails (nothing was delivered, whatever the cause: the synchronous path
// does not count failed renders either). Talks only to ports.
//
// With an Idempotency-Key the job's id derives from the charge's (jobIdFor): the retry that takes over the key of a
// request that died after creating its job (or was answered 503 after queueing it) finds that job and continues it
// — the same id, rendered and charged once — instead of queueing a second render of the same request. A retry that
// finds the key's job failed is a new job with a charge id of its own (keyedChargeId): that job's refund, which may
// come late (a redelivery that ends it after its worker died), is by its own id and cannot give this one's back.
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord } from '../../shared/auth/keys';
import type { MessageQueue } from '../../shared/webhooks/delivery';
import { webhookEventId } from '../../shared/webhooks/events';
import { ownerOf } from '../../shared/auth/owner';
import { Forbidden, Unavailable } from '../../shared/errors';
import { isSettled } from '../../shared/jobs/leased-job';
import { logger } from '../../shared/logger';
import { chargedDecision, type QuotaDecision, type QuotaStore } from '../../shared/quota/windows';
import type { DocumentsPlan } from '../core/plans';
import { sealRequest } from './job-secrets';
// Types only: this module is loaded by zip functions (no Chromium, no isolated-vm); the render worker's side, which
// renders, is domain/jobs-render.ts.
import type { ValidRenderRequest } from '../request/valid-request';
import type { JobFiles, JobRecord, JobRepository, WebhookEventType } from '../ports';

// ---- messages ------------------------------------------------------------------------------------------------

// The platform's, re-exported for documents' modules: what jobs belong to, and the queue port.
export { ownerOf, type MessageQueue };

export interface RenderMessage {
  jobId: string;
}
export interface DeliveryMessage {
  jobId: string;
  eventId: string;
}

/**
 * A job and its result live one day by default (RESULTS_PREFIX.days of lambdas/documents/bucket.ts, the lifecycle
 * backstop), or `options.expires_in` seconds (60..86400). The record stays a day longer (410 instead of 404).
 */
export const JOB_TTL_S = 86400;

/** Until when the job and its result are available (epoch seconds). */
export function availableUntil(job: Pick<JobRecord, 'expiresAt' | 'resultExpiresAt'>): number {
  return job.resultExpiresAt ?? job.expiresAt;
}

/**
 * A download link for a finished job: valid `ttlS`, but never past the job's expiry (a link must not outlive the
 * result it points to). Undefined when the job has no result or it has expired.
 */
export async function downloadFor(
  jobFiles: Pick<JobFiles, 'presignResult'>,
  job: JobRecord,
  ttlS: number,
  now: Date,
): Promise<{ url: string; expiresAt: Date } | undefined> {
  // Whole seconds that fit before the expiry (the link's end, now + ttl, must not pass it even by a fraction).
  const left = Math.floor((availableUntil(job) * 1000 - now.getTime()) / 1000);
  if (job.status !== 'done' || !job.result || left <= 0) return undefined;
  const ttl = Math.min(ttlS, left);
  return {
    url: await jobFiles.presignResult(job.result, ttl),
    expiresAt: new Date(now.getTime() + ttl * 1000),
  };
}

// ---- identities ----------------------------------------------------------------------------------------------

export function newJobId(): string {
  return 'job_' + randomBytes(16).toString('base64url');
}

export const JOB_ID_RE = /^job_[A-Za-z0-9_-]{22}$/;

/** The job of the request whose charge id (idempotentId: its Idempotency-Key and caller) is `chargeId`. */
export function jobIdFor(chargeId: string): string {
  return 'job_' + createHash('sha256').update(`docjob\n${chargeId}`).digest('base64url').slice(0, 22);
}

/**
 * The charge id of an Idempotency-Key's `n`th job (0: the key's own id, idempotentId): each job a key makes after
 * the previous one failed is charged under an id of its own, and its job's id derives from that (jobIdFor).
 */
export function keyedChargeId(keyId: string, n: number): string {
  return n === 0 ? keyId : `${keyId}.${n}`;
}

/** Deterministic per job and type: a duplicated worker run produces the same event id (receivers dedupe on it). */
export function eventIdFor(jobId: string, type: WebhookEventType): string {
  return webhookEventId(jobId, type);
}

export function statusUrl(jobId: string): string {
  return `/v1/jobs/${jobId}`;
}

// ---- acceptance (POST /v1/render, options.async) --------------------------------------------------------------

export interface AcceptDeps {
  jobs: JobRepository;
  jobFiles: JobFiles;
  renderQueue: MessageQueue;
  quotas: QuotaStore;
}

/**
 * Gives back a job's (or request's) charge: as a hold while it is held, then by its charge id (a charge with neither:
 * a plain unit). Once either way: a hold given back takes its id with it, and a charge id is given back once.
 */
export async function giveBackCharge(quotas: QuotaStore, decision: QuotaDecision): Promise<void> {
  if (decision.hold) await quotas.refund(decision);
  if (decision.hold && decision.chargeId === undefined) return;
  await quotas.refund(
    chargedDecision(decision.charged, { chargeId: decision.chargeId, units: decision.units }),
  );
}

/** Only Scale keys render in the background: 403 naming the caller's plan and the way to Scale. */
export function assertAsyncAllowed(plan: DocumentsPlan): void {
  if (plan === 'scale') return;
  throw new Forbidden(
    plan === 'free'
      ? 'Async rendering (options.async) is a Scale plan feature: send `Authorization: Bearer <Scale key>` ' +
          '(GET /pricing), or leave options.async out to get the document in the response.'
      : `Async rendering (options.async) is a Scale plan feature; this key is on the ${plan} plan. Upgrade to ` +
          'Scale (GET /pricing), or leave options.async out to get the document in the response.',
    { plan },
  );
}

/** The 202 of an accepted job (the job as it is now: a retry may find it rendering or done). */
function acceptedAnswer(job: Pick<JobRecord, 'jobId' | 'status' | 'progress'>) {
  return {
    statusCode: 202 as const,
    body: {
      id: job.jobId,
      object: 'job',
      status: job.status,
      progress: job.status === 'done' ? 1 : job.progress,
      status_url: statusUrl(job.jobId),
    },
    headers: { location: statusUrl(job.jobId), 'retry-after': '2' },
  };
}

const UNQUEUED =
  'The render could not be queued because a backing service is unavailable. Please retry; this attempt was not counted against your limits.';

/** A request with an Idempotency-Key: its charge's id, and how to charge it again under another. */
interface KeyedCharge {
  /** The charge's id (idempotentId of a request with an Idempotency-Key): the job's id derives from it. */
  chargeId: string;
  /**
   * Charges this request again under `chargeId` (held like its first charge, and past the limit: it was admitted):
   * a retry whose key's job failed is charged under an id of its own.
   */
  recharge(chargeId: string): Promise<QuotaDecision>;
}

type Accepted = ReturnType<typeof acceptedAnswer> & {
  /** The request's charge as it stands (moved to a charge id of its own: keyedChargeId): the one to commit. */
  decision: QuotaDecision;
};

/**
 * Creates and queues the job of an accepted async render. The quota was charged by the caller (`decision`, under
 * `keyed.chargeId` when the request has an Idempotency-Key); any failure here gives it back and answers 503 (the
 * job, if it was created, is retired: it never renders). An idempotent retry whose first request created the job
 * continues that job: queued again (a duplicate message is harmless: one claim per job), nothing charged again. A
 * retry that finds the key's job failed makes the key's next job (the first of its chain, keyedChargeId, not
 * failed), its charge moved there. Answers the charge to commit.
 */
export async function acceptAsyncRender(
  deps: AcceptDeps,
  input: {
    body: unknown;
    request: ValidRenderRequest;
    key: ApiKeyRecord;
    plan: DocumentsPlan;
    decision: QuotaDecision;
    now: Date;
    /** With an Idempotency-Key. */
    keyed?: KeyedCharge;
  },
): Promise<Accepted> {
  const { request, now, keyed } = input;
  let decision = input.decision;
  let jobId = keyed ? jobIdFor(keyed.chargeId) : newJobId();
  if (keyed) {
    let chargeId = keyed.chargeId;
    let earlier = await lookUp(deps, jobId);
    // A chain ends: each failed job of the key was made by one of its requests that died or was answered 503.
    for (let n = 1; earlier?.status === 'failed'; n++) {
      chargeId = keyedChargeId(keyed.chargeId, n);
      jobId = jobIdFor(chargeId);
      earlier = await lookUp(deps, jobId);
    }
    if (chargeId !== keyed.chargeId) decision = await moveCharge(deps, { ...keyed, decision }, chargeId);
    if (earlier) return { ...(await resumeJob(deps, earlier, input.body, false)), decision };
  }
  const iso = now.toISOString();
  const sealed = sealRequest(input.body);
  const job: JobRecord = {
    jobId,
    owner: ownerOf(input.key),
    plan: input.plan,
    status: 'queued',
    progress: 0,
    template: request.kind === 'template' ? request.template.meta.slug : null,
    format: request.format,
    createdAt: iso,
    updatedAt: iso,
    resultExpiresAt: Math.floor(now.getTime() / 1000) + (request.options.expires_in ?? JOB_TTL_S),
    expiresAt: Math.floor(now.getTime() / 1000) + (request.options.expires_in ?? JOB_TTL_S) + JOB_TTL_S,
    charged: decision.charged,
    ...(decision.chargeId ? { chargeId: decision.chargeId } : {}),
    ...(decision.hold ? { hold: decision.hold } : {}),
    ...(decision.units && decision.units !== 1 ? { units: decision.units } : {}),
    ...(request.metadata ? { metadata: JSON.stringify(request.metadata) } : {}),
    ...(sealed.secret ? { requestSecret: sealed.secret } : {}),
  };
  let created = false;
  let other: JobRecord | undefined;
  try {
    await deps.jobFiles.putRequest(jobId, sealed.stored);
    try {
      await deps.jobs.create(job);
      created = true;
    } catch (err) {
      // Another attempt of the same request (its key's lease lapsed while it still ran) created it first.
      if (!keyed) throw err;
      other = await lookUp(deps, jobId);
      if (!other) throw err;
    }
    if (created) await deps.renderQueue.send({ jobId } satisfies RenderMessage);
  } catch (err) {
    if (err instanceof Unavailable) throw err; // lookUp's: the charge may be an earlier attempt's job's
    // Never rendered for nobody (a restart re-queues unfinished jobs): retired before its charge is given back.
    const retired =
      !created ||
      (await deps.jobs
        .fail(jobId, 'Not accepted: the render could not be queued. Please submit it again.')
        .catch(() => false));
    if (retired)
      await deps.quotas
        .refund(decision)
        .catch((e) => logger.error('quota refund failed', { error: e as Error }));
    logger.error('async render not queued', { error: err as Error, jobId, retired });
    throw new Unavailable(UNQUEUED);
  }
  return { ...(other ? await resumeJob(deps, other, input.body, true) : acceptedAnswer(job)), decision };
}

/**
 * The charge of a retry whose key's job failed, moved from the key's id to `chargeId` (its own job's): charged there
 * first, then given back under the key's id. That id's charge was either this request's (the failed job had been
 * given its charge back) or, counted as already made, the failed job's, not yet given back (its worker died first):
 * given back either way, once (the failed job's own refund, by that id, then finds nothing). A failure answers 503:
 * what this request holds is given back when its hold runs out.
 */
async function moveCharge(
  deps: AcceptDeps,
  input: { decision: QuotaDecision; recharge(chargeId: string): Promise<QuotaDecision> },
  chargeId: string,
): Promise<QuotaDecision> {
  try {
    const moved = await input.recharge(chargeId);
    await giveBackCharge(deps.quotas, input.decision);
    logger.info("async render: the key's job failed; this retry is charged under its own id", { chargeId });
    return moved;
  } catch (err) {
    logger.error('async render: charge not moved to its own id', { error: err as Error, chargeId });
    throw new Unavailable(UNQUEUED);
  }
}

/**
 * An accepted job whose request was answered 503 meanwhile (the route's deadline): retired before any worker takes
 * it, and its charge given back. A job a worker already settled is left as it is. Never throws (logged).
 */
export async function withdrawAsyncRender(
  deps: Pick<AcceptDeps, 'jobs' | 'quotas'>,
  jobId: string,
  decision: QuotaDecision,
): Promise<void> {
  try {
    if (await deps.jobs.fail(jobId, 'Not accepted: the caller was answered 503.'))
      await deps.quotas.refund(decision);
    logger.warn('async render accepted after the deadline answered 503: withdrawn', { jobId });
  } catch (err) {
    logger.error('async render accepted after the deadline answered 503 not withdrawn', {
      error: err as Error,
      jobId,
    });
  }
}

/**
 * The job under a derived id, if an earlier attempt created it. A failed read answers 503 and gives nothing back:
 * the charge may be that job's, and the caller's retry with the same key settles it either way.
 */
async function lookUp(deps: AcceptDeps, jobId: string): Promise<JobRecord | undefined> {
  try {
    return await deps.jobs.get(jobId);
  } catch (err) {
    logger.error('async render: its earlier attempt could not be read', { error: err as Error, jobId });
    throw new Unavailable(UNQUEUED);
  }
}

/**
 * An idempotent retry found the job its request's first attempt created: queued again unless settled (that attempt
 * may have died before sending it), answered with its id. `overwritten`: this attempt stored its own copy of the
 * request before it lost the job's creation, so the request is stored again sealed with the job's key. A failure
 * answers 503 without giving anything back (the charge is the job's).
 */
async function resumeJob(
  deps: AcceptDeps,
  job: JobRecord,
  body: unknown,
  overwritten: boolean,
): Promise<ReturnType<typeof acceptedAnswer>> {
  logger.info('idempotent retry continues an earlier async render', { jobId: job.jobId, status: job.status });
  if (!isSettled(job))
    try {
      if (overwritten) await deps.jobFiles.putRequest(job.jobId, sealRequest(body, job.requestSecret).stored);
      await deps.renderQueue.send({ jobId: job.jobId } satisfies RenderMessage);
    } catch (err) {
      logger.error('async render not queued again', { error: err as Error, jobId: job.jobId });
      throw new Unavailable(UNQUEUED);
    }
  return acceptedAnswer(job);
}

// ---- the caller's view ------------------------------------------------------------------------------------------

/** The job as GET /v1/jobs/{id} and webhook payloads show it; `download` only for a finished job. */
export function publicJob(
  job: JobRecord,
  download?: { url: string; expiresAt: Date },
  opts: { deliveries?: boolean } = { deliveries: true },
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: job.jobId,
    object: 'job',
    status: job.status,
    progress: job.status === 'done' ? 1 : Math.round((job.progress ?? 0) * 100) / 100,
    template: job.template,
    format: job.format,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    completed_at: job.completedAt ?? null,
    expires_at: new Date(availableUntil(job) * 1000).toISOString(),
    status_url: statusUrl(job.jobId),
    metadata: job.metadata ? (JSON.parse(job.metadata) as unknown) : {},
  };
  if (job.status === 'done' && job.result) {
    out.filename = job.result.filename;
    out.content_type = job.result.contentType;
    out.bytes = job.result.bytes;
    if (download) {
      out.download_url = download.url;
      out.download_expires_at = download.expiresAt.toISOString();
    }
  }
  if (job.status === 'failed') {
    out.reason = job.error ?? 'Rendering failed.';
    if (job.problems?.length) out.problems = job.problems;
  }
  if (opts.deliveries !== false) {
    out.event = job.event ? { id: job.event.id, type: job.event.type } : null;
    out.deliveries = (job.deliveries ?? []).map((d) => ({
      event_id: d.eventId,
      type: d.type,
      attempt: d.attempt,
      at: d.at,
      outcome: d.outcome,
      status_code: d.statusCode,
      ...(d.error ? { error: d.error } : {}),
      duration_ms: d.durationMs,
      next_attempt_at: d.nextAttemptAt ?? null,
    }));
  }
  return out;
}
