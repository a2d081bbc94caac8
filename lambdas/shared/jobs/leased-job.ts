// The leased-job state machine, once for every queue-fed worker (narration's conversions, documents' async
// renders) and for the DLQ CLI:
//
//   queued ──claim──▶ <active> ──complete──▶ done
//     ▲                 │  │
//     └────release──────┘  └──fail (last attempt, or a job that cannot succeed)──▶ failed ──requeueFailed──▶ queued
//
// A claim takes a lease (leaseUntil, epoch seconds) that the worker renews while it works (runLeasedJob's heartbeat,
// every third of the lease), so a job may take longer than its lease; a job whose lease ran out (its worker crashed
// or timed out, so nobody renewed it) may be claimed again by the next delivery. Every transition is one conditional write, so duplicate deliveries
// and a worker that lost its lease cannot move a job backwards, and `done`/`failed` are settled once.
//
// A settled job's end (what must follow its outcome: the charge settled, its webhook queued, counters) is not part
// of the settling write: the service writes `ending` with it and removes the mark last (markEnded). A worker that
// dies in between leaves a settled job still `ending`, and the next delivery of it runs the end again
// (policy.end): once here for every service, so each end must be safe twice.
import { logger } from '../logger';
import { recordJobEndedLate } from '../observability/metrics';
import type { ServiceName } from '../observability/names';

/** The fields the engine reads and writes; a service's record adds its own. */
export interface LeasedJob {
  /** queued | <the store's active status, e.g. processing or rendering> | done | failed */
  status: string;
  /** 0..1 */
  progress?: number;
  /** Worker attempts so far (SQS receive count seen). */
  attempts?: number;
  /** Epoch seconds until which the current worker owns the job. */
  leaseUntil?: number;
  updatedAt: string;
  /** Why it failed, in words the caller can act on. */
  error?: string;
  /**
   * Settled, its end (policy.end) not finished: written with the settling write (complete/fail), removed last by
   * the end (markEnded). A delivery that finds a settled job still `ending` runs the end again.
   */
  ending?: true;
}

export type Requeued = { requeued: true; error: string } | { requeued: false; status: string };

/**
 * The port. The store has the clock and the lease length; a service's repository port extends it with its own
 * extras. Transitions that may lose a race answer false (nothing changed) instead of throwing.
 */
export interface LeasedJobStore<T extends LeasedJob> {
  /** Seconds a claim, or a renewal, holds the job. */
  readonly leaseS: number;
  /** Fails if a job with this id exists. */
  create(job: T): Promise<void>;
  get(id: string): Promise<T | undefined>;
  /** queued → active (or active → active after a lost lease); undefined if another worker holds it or it is settled. */
  claim(id: string, attempt: number): Promise<T | undefined>;
  /**
   * The holder's heartbeat: a job still active under the lease `heldUntil` (the claimed record's leaseUntil, or the
   * last renewal's) is held leaseS more from now. Answers the new leaseUntil, or undefined when the job is no longer
   * the caller's (another delivery took it over after the lease ran out, or it was settled or released).
   */
  renew(id: string, heldUntil: number): Promise<number | undefined>;
  /** active → queued, so the next delivery can take it at once. */
  release(id: string): Promise<void>;
  /** While active only (late progress of a slow duplicate changes nothing). */
  setProgress(id: string, progress: number): Promise<void>;
  /** queued/active → done with `fields` (progress 1, lease and error cleared); false if already settled. */
  complete(id: string, fields: Partial<T>): Promise<boolean>;
  /** → failed with `reason` and `fields`, unless already done or failed; true when this call made the transition. */
  fail(id: string, reason: string, fields?: Partial<T>): Promise<boolean>;
  /** failed → queued (error, lease and progress cleared), for a redrive. Says the previous error, or why not. */
  requeueFailed(id: string): Promise<Requeued>;
  /** Undoes requeueFailed (queued → failed with `error`) while no worker took the job; false otherwise. */
  restoreFailed(id: string, error: string): Promise<boolean>;
  /**
   * Jobs not finished: not settled, or settled but not ended (`ending`). The local runtime re-queues them after a
   * restart (its queues live in memory): their next delivery works or ends them.
   */
  listUnfinished(limit: number): Promise<T[]>;
  /** Removes `ending` (the job's end is done); true only for the call that removed it (one conditional write). */
  markEnded(id: string): Promise<boolean>;
}

export const isSettled = (job: Pick<LeasedJob, 'status'>) => job.status === 'done' || job.status === 'failed';

/**
 * A job whose lease another worker still holds: retry later, not before the lease runs out (`retryInS`, read by the
 * worker's retry backoff: lambdas/shared/jobs/retry.ts).
 */
export class JobBusyError extends Error {
  constructor(
    message: string,
    readonly retryInS = 0,
  ) {
    super(message);
  }
}

export interface LeasedJobPolicy<T extends LeasedJob, R> {
  /** Whose jobs these are, for the JobsEndedLate metric (its `kind` detail). */
  metric: { service: ServiceName; kind: string };
  /** The delivery that may fail for good (the queue's maxReceiveCount). */
  maxAttempts: number;
  /**
   * A settled job still `ending`: its worker (or request) died between settling it and ending it. Runs the end
   * again; it must be safe twice and call markEnded last. A throw leaves the message for the next delivery.
   */
  end?(current: T): Promise<void>;
  /**
   * The job is already settled (and ended), or gone: it is acknowledged without work after this (e.g. re-queue a
   * lost event).
   */
  onSettled?(current: T | undefined): Promise<void>;
  /**
   * The last attempt failed with `err`: record the failure (the store's fail()). Return an outcome to acknowledge
   * the message, or throw to let it go to the DLQ.
   */
  giveUp(job: T, err: unknown, attempt: number): Promise<R>;
}

/**
 * Runs one delivery of job `id`: claims it, runs `work` on the claimed record and returns its outcome. A settled
 * or missing job is 'skipped' (a settled one still `ending` is ended first: policy.end); a job another worker holds
 * throws JobBusyError. While `work` runs its lease is renewed; `lost` aborts if the job stops being this worker's
 * (then `work` should stop: its outcome no longer counts). When `work` throws, the job is released for the next delivery (and the error rethrown), or on the last
 * attempt handed to `policy.giveUp`. `work` settles the job itself (complete, or fail for a job that cannot succeed).
 */
export async function runLeasedJob<T extends LeasedJob, R>(
  store: LeasedJobStore<T>,
  id: string,
  attempt: number,
  work: (job: T, lost: AbortSignal) => Promise<R>,
  policy: LeasedJobPolicy<T, R>,
): Promise<R | 'skipped'> {
  const claimed = await store.claim(id, attempt);
  if (!claimed) {
    const current = await store.get(id);
    if (!current || isSettled(current)) {
      if (current?.ending && policy.end) {
        logger.warn('job settled but not ended (its worker died in between): ending it', { id });
        recordJobEndedLate(policy.metric.service, policy.metric.kind);
        await policy.end(current);
      } else await policy.onSettled?.(current);
      logger.info('job already settled, acknowledging', { status: current?.status ?? 'missing' });
      return 'skipped';
    }
    // SQS visibility is real time, so the lease's remainder is too.
    const leftS = current.leaseUntil ? Math.max(0, current.leaseUntil - Date.now() / 1000) : 0;
    throw new JobBusyError(`job ${id} is being worked on by another worker`, Math.ceil(leftS) + 1);
  }
  const lease = holdLease(store, id, claimed.leaseUntil);
  try {
    return await work(claimed, lease.lost);
  } catch (err) {
    logger.error('job attempt failed', { attempt, max: policy.maxAttempts, error: err as Error });
    if (attempt >= policy.maxAttempts) return policy.giveUp(claimed, err, attempt);
    await store.release(id);
    throw err;
  } finally {
    lease.stop();
  }
}

/**
 * The heartbeat of a claimed job: renews its lease every third of it while the work runs, so a job longer than its
 * lease is never taken over by a second worker while the first is alive. A renewal the store refuses means the job
 * is no longer ours: `lost` aborts and the heartbeat stops. A renewal that fails (a throttled write) is retried at
 * the next beat; two thirds of the lease are left for it.
 */
function holdLease(
  store: Pick<LeasedJobStore<LeasedJob>, 'leaseS' | 'renew'>,
  id: string,
  leaseUntil: number | undefined,
): { lost: AbortSignal; stop(): void } {
  const lost = new AbortController();
  let held = leaseUntil;
  let beat: Promise<void> | undefined;
  const timer = setInterval(
    () => {
      if (beat || held === undefined) return; // the previous renewal is still on its way
      beat = store
        .renew(id, held)
        .then((next) => {
          if (next !== undefined) held = next;
          else if (!lost.signal.aborted) {
            logger.warn('job lease lost: another worker holds the job, or it was settled', { id });
            clearInterval(timer);
            lost.abort(new Error(`job ${id} is no longer held by this worker`));
          }
        })
        .catch((err: unknown) => logger.warn('job lease not renewed; retrying', { id, error: err as Error }))
        .finally(() => (beat = undefined));
    },
    (store.leaseS * 1000) / 3,
  );
  timer.unref();
  return { lost: lost.signal, stop: () => clearInterval(timer) };
}
