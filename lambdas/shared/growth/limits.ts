// Per-IP limits of the public growth routes (POST /ab/event, POST /waitlist), on the same QuotaStore as the free
// tier but under their own subjects (`ab#ip#<hash>`, `waitlist#ip#<hash>`), so they never spend, nor are spent
// by, the conversion allowance. 429 with Retry-After and RateLimit-* headers, like the convert routes.
import { ipSubject } from '../auth/resolve-caller';
import { QuotaExceeded } from '../errors';
import { rateLimitHeaders, type QuotaStore, type WindowRule } from '../quota/windows';

export const abEventSubject = (ip: string) => `ab#${ipSubject(ip)}`;
export const waitlistSubject = (ip: string) => `waitlist#${ipSubject(ip)}`;

/** Charges one request; returns the RateLimit headers for the answer, or throws 429 naming the limit. */
export async function chargePerIp(
  quotas: QuotaStore,
  subject: string,
  rules: WindowRule[],
  now: Date,
  what: string,
): Promise<Record<string, string>> {
  const active = rules.filter((r) => r.limit > 0);
  if (!active.length) return {};
  const decision = await quotas.consume(subject, active, now);
  const headers = rateLimitHeaders(decision, now);
  if (!decision.allowed)
    throw new QuotaExceeded(
      `Too many ${what}: at most ${decision.binding.limit} per ${decision.binding.period} per IP address. ` +
        `Try again in ${headers['retry-after']} seconds.`,
      headers,
    );
  return headers;
}
