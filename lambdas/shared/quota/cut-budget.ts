// The abuse budget of requests cut at their route's deadline, for both services. Such a request is answered 503 and
// refunded (nothing was delivered), so without a bound it could be repeated forever, each time costing up to a
// route's deadline of CPU. Each cut counts on the caller's own hourly counter (`cut#<subject>`, beside its usage,
// which stays equal to what was delivered); once FREE_CUT_PER_HOUR cuts are counted, the caller's next requests are
// refused with 429 before any work, until the hour ends. The work of a cut request is also stopped (the request's
// abort signal), so a cut costs about a deadline of work, and a caller at most FREE_CUT_PER_HOUR of them an hour.
import { QuotaExceeded } from '../errors';
import { logger } from '../logger';
import { rateLimitHeaders, type QuotaStore, type WindowRule } from './windows';

const cutSubject = (subject: string) => `cut#${subject}`;
const cutRules = (perHour: number): WindowRule[] => [{ period: 'hour', limit: perHour }];

/** Counts one request of `subject` cut at its deadline (past the limit if need be); never throws (logged). */
export async function countCut(
  quotas: QuotaStore,
  subject: string,
  perHour: number,
  now: Date,
): Promise<void> {
  await quotas
    .consume(cutSubject(subject), cutRules(perHour), now, { force: true })
    .catch((e) => logger.error('cut budget not counted', { error: e as Error }));
}

/**
 * 429 (with Retry-After and RateLimit headers) when `subject` had `perHour` requests cut at their deadline this
 * hour; `advice` says what to send instead (the service's way to get long work done).
 */
export async function refuseIfCutTooOften(
  quotas: QuotaStore,
  subject: string,
  perHour: number,
  now: Date,
  advice: string,
): Promise<void> {
  const [cuts] = await quotas.peek(cutSubject(subject), cutRules(perHour), now);
  if (!cuts || cuts.used < cuts.limit) return;
  const binding = { ...cuts, remaining: 0 };
  const headers = rateLimitHeaders(
    { allowed: false, charged: [], binding, all: [binding], slots: [cuts] },
    now,
  );
  throw new QuotaExceeded(
    `Too many of this address's requests ran past the ${cuts.limit}-per-hour allowance of requests cut at ` +
      `their deadline: ${advice}, or try again in ${headers['retry-after']} seconds.`,
    headers,
  );
}
