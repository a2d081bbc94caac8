// How a failed job attempt is retried: the worker sets the failed message's visibility to a growing backoff
// (seconds, then minutes), so a transient fault (a Polly throttle burst, a Chromium crash) is retried soon instead
// of after the queue's visibility timeout. That long timeout stays as the guard for a worker that dies (nobody
// is left to shorten it). The last attempt's message is made visible at once, so SQS moves it to the DLQ on its
// next receive. Used by narration's worker and documents' render worker (lambdas/shared/sqs-worker.ts).
import { z } from 'zod';

/** Seconds before delivery 2, 3, …: the default of JOB_RETRY_SCHEDULE_S (its last value repeats). */
export const DEFAULT_JOB_RETRY_SCHEDULE_S: readonly number[] = [10, 60, 300, 900];

/** The longest visibility SQS accepts (12 h). */
const MAX_VISIBILITY_S = 43_200;

/** JOB_RETRY_SCHEDULE_S: comma-separated whole seconds, each at most 12 h. */
export const jobRetryScheduleVar = z
  .string()
  .default(DEFAULT_JOB_RETRY_SCHEDULE_S.join(','))
  .transform((v, ctx) => {
    const parts = v.split(',').map((p) => p.trim());
    const nums = parts.map(Number);
    if (!parts.length || parts.some((p, i) => !/^\d+$/.test(p) || nums[i]! > MAX_VISIBILITY_S)) {
      ctx.addIssue({
        code: 'custom',
        message: 'JOB_RETRY_SCHEDULE_S must be comma-separated whole seconds, each at most 43200 (12 h)',
      });
      return z.NEVER;
    }
    return nums;
  });

/** Seconds to wait after failed attempt `attempt` (1 = the first delivery); the schedule's last value repeats. */
export function retryDelayS(schedule: readonly number[], attempt: number): number {
  if (schedule.length === 0) return 0;
  return schedule[Math.min(Math.max(1, attempt), schedule.length) - 1]!;
}

/** The received message a worker failed, as the SQS event gives it. */
export interface ReceivedMessage {
  receiptHandle: string;
  /** arn:aws:sqs:<region>:<account>:<queue name> */
  eventSourceARN: string;
}

/** Port: makes a received message reappear after `delayS` seconds instead of the queue's visibility timeout. */
export interface MessageVisibility {
  retryAfter(message: ReceivedMessage, delayS: number): Promise<void>;
}

/** What a worker's failed attempt asks of sqsWorker. */
export interface RetryPolicy {
  /** The queues' maxReceiveCount: after this attempt the message goes to the DLQ at once. */
  maxAttempts: number;
  schedule: readonly number[];
  visibility: MessageVisibility;
}

/** A job worker's policy: its service's MAX_RECEIVE_COUNT and JOB_RETRY_SCHEDULE_S, its queue's visibility. */
export function retryPolicy(
  config: { MAX_RECEIVE_COUNT: number; JOB_RETRY_SCHEDULE_S: readonly number[] },
  visibility: MessageVisibility,
): RetryPolicy {
  return { maxAttempts: config.MAX_RECEIVE_COUNT, schedule: config.JOB_RETRY_SCHEDULE_S, visibility };
}

/**
 * A failure that knows its own earliest sensible retry (e.g. another worker holds the job's lease until then):
 * the delay is at least `retryInS`.
 */
export interface RetryHint {
  retryInS: number;
}

const hintOf = (err: unknown): number =>
  typeof (err as Partial<RetryHint> | null)?.retryInS === 'number' ? (err as RetryHint).retryInS : 0;

/** The visibility to give a message whose attempt `attempt` failed with `err`. */
export function failedAttemptDelayS(
  policy: Pick<RetryPolicy, 'maxAttempts' | 'schedule'>,
  attempt: number,
  err: unknown,
): number {
  if (attempt >= policy.maxAttempts && hintOf(err) === 0) return 0;
  return Math.min(MAX_VISIBILITY_S, Math.max(retryDelayS(policy.schedule, attempt), Math.ceil(hintOf(err))));
}
