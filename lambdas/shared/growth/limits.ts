// Per-IP limits of the public growth routes (POST /ab/event, POST /waitlist), on the same QuotaStore as the free
// tier but under their own subjects (`ab#ip#<hash>`, `waitlist#ip#<hash>`), so they never spend, nor are spent
// by, the conversion allowance. 429 with Retry-After and RateLimit-* headers, like the convert routes.
import { ipSubject } from '../auth/resolve-caller';
import { QuotaExceeded } from '../errors';
import { rateLimitHeaders, type QuotaStore, type WindowRule } from '../quota/windows';

/** What is counted per IP: the subject's prefix (`<prefix>#ip#<hash>`) and the words the 429 names it with. */
export interface PerIpCounter {
  prefix: string;
  what: string;
}

export const AB_EVENTS: PerIpCounter = { prefix: 'ab', what: 'A/B events' };
export const WAITLIST_SIGN_UPS: PerIpCounter = { prefix: 'waitlist', what: 'waitlist sign-ups' };

/** How many requests one IP address may make per hour and per day (0 or absent: no limit for that window). */
export interface PerIpLimits {
  hour: number;
  day?: number;
}

/** Charges one request; returns the RateLimit headers for the answer, or throws 429 naming the limit. */
export async function chargePerIp(
  quotas: QuotaStore,
  counter: PerIpCounter,
  clientIp: string,
  limits: PerIpLimits,
  now: Date,
): Promise<Record<string, string>> {
  const rules: WindowRule[] = [{ period: 'hour', limit: limits.hour }];
  if (limits.day !== undefined) rules.push({ period: 'day', limit: limits.day });
  const active = rules.filter((r) => r.limit > 0);
  if (!active.length) return {};
  const decision = await quotas.consume(`${counter.prefix}#${ipSubject(clientIp)}`, active, now);
  const headers = rateLimitHeaders(decision, now);
  if (!decision.allowed)
    throw new QuotaExceeded(
      `Too many ${counter.what}: at most ${decision.binding.limit} per ${decision.binding.period} per IP address. ` +
        `Try again in ${headers['retry-after']} seconds.`,
      headers,
    );
  return headers;
}
