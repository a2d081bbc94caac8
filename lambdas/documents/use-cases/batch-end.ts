// CFDI batches, how a batch ends (the steps: ./batch-run.ts). Settle, then end, as async renders do
// (jobs-render.ts): the write that settles the batch (complete or fail, each conditional: only one ever succeeds)
// records what its end gives back (refundUnits) and the `ending` mark; the end gives that back (its charge's id,
// batch:<jobId>, makes it once), queues the webhook event and removes the mark last (markEnded). A delivery of the
// batch's split or assembly that finds it settled and still `ending` (its run died in between) runs the end again.
// Not the shared engine's runLeasedJob: the batch is not a leased job (its parts render while its assembly runs,
// nothing claims it); its store's `ending` and markEnded, and listUnfinished's restart, are the engine's.
import { logger } from '../../shared/logger';
import { isSettled } from '../../shared/jobs/leased-job';
import { recordJobEndedLate } from '../../shared/observability/metrics';
import { chargedDecision, slotsFor } from '../../shared/quota/windows';
import { monthlyRules } from '../core/plans';
import type { JobRecord } from '../ports';
import type { BatchAssembleDeps } from './batch-run-deps';
import { outcomeEvent, queueEvent } from './job-events';

export type BatchEndDeps = Pick<BatchAssembleDeps, 'jobs' | 'quotas' | 'events' | 'now'>;

/** The id of a batch's charge: once per batch, whichever run of its split makes it. */
export const batchChargeId = (jobId: string) => `batch:${jobId}`;

/**
 * Gives back `job.refundUnits` of the batch's charge (in the windows it was charged: those the split recorded, or,
 * before that, the month the batch was started in), queues its event, and marks it ended. Safe twice: the charge's
 * id gives back once (a refund by an id never charged, or given back already, gives back nothing), the event is
 * queued until marked queued (its id is deterministic).
 */
export async function endBatch(deps: BatchEndDeps, job: JobRecord): Promise<void> {
  const units = job.refundUnits ?? 0;
  const refund = async () => {
    if (!job.batch || units <= 0) return;
    const slots = job.charged.length
      ? job.charged
      : slotsFor(job.batch.quotaSubject, monthlyRules(job.plan), new Date(job.createdAt));
    await deps.quotas.refund(chargedDecision(slots, { chargeId: batchChargeId(job.jobId), units }));
  };
  // At once (each round trip's latency overlaps the other's); the mark is removed only after both.
  await Promise.all([refund(), queueEvent(deps.events, job)]);
  await deps.jobs.markEnded(job.jobId);
}

/**
 * Completes the batch with its zip and event (outcomeEvent, looked up by the assembly while its upload ends), then
 * ends it: gives back its `failed` CFDI. False if it was settled already.
 */
export async function completeBatch(
  deps: BatchEndDeps,
  job: JobRecord,
  fields: Pick<JobRecord, 'result' | 'event'>,
  failed: number,
): Promise<boolean> {
  const settled = {
    ...fields,
    completedAt: deps.now().toISOString(),
    refundUnits: failed,
  };
  if (!(await deps.jobs.complete(job.jobId, { ...settled, ending: true }))) return false;
  await endBatch(deps, { ...job, ...settled, status: 'done', progress: 1, ending: true });
  return true;
}

/**
 * Fails the batch, then ends it: gives back all it was charged (`units`, recorded by the split before its charge;
 * none when the split failed before charging: a refused batch is never charged). Nothing if settled already.
 */
export async function failBatch(deps: BatchEndDeps, job: JobRecord, reason: string): Promise<void> {
  const settled = {
    event: await outcomeEvent(deps.events, job, 'document.failed'),
    completedAt: deps.now().toISOString(),
    refundUnits: job.units ?? job.batch?.total ?? 0,
  };
  if (await deps.jobs.fail(job.jobId, reason, { ...settled, ending: true }))
    await endBatch(deps, { ...job, ...settled, status: 'failed', error: reason, ending: true });
}

/**
 * A settled batch found by a delivery of its split or assembly: still `ending`, it is ended again. Answers whether
 * the batch is settled (the delivery then has nothing else to do).
 */
export async function endIfSettled(deps: BatchEndDeps, job: JobRecord): Promise<boolean> {
  if (!isSettled(job)) return false;
  if (job.ending) {
    logger.warn('batch settled but not ended (its worker died in between): ending it', { jobId: job.jobId });
    recordJobEndedLate('documents', 'batch');
    await endBatch(deps, job);
  }
  return true;
}

/**
 * The last attempt of the batch's split or assembly failed (its message goes on to the DLQ): the batch fails, and
 * all its charge is given back. Read again: a batch settled meanwhile keeps its outcome (only its end is run).
 */
export async function giveUpBatch(
  deps: BatchEndDeps,
  jobId: string,
  step: 'split' | 'assembly',
  attempts: number,
): Promise<void> {
  const job = await deps.jobs.get(jobId);
  if (!job?.batch || (await endIfSettled(deps, job))) return;
  await failBatch(
    deps,
    job,
    step === 'split'
      ? `The batch could not be read on our side after ${attempts} attempts. It was not counted against your limits; please start it again.`
      : `The batch's zip could not be written on our side after ${attempts} attempts. It was not counted against your limits; please start it again.`,
  );
}
