// The dashboard token that guards GET /ab/results/{experiment}. Sent as `Authorization: Bearer <token>` or
// `X-Dashboard-Token: <token>`. Compared in constant time: both sides are hashed to SHA-256 first, so
// timingSafeEqual always sees equal-length buffers and neither the token's content nor its length leaks through
// timing. No token configured → 503 (nothing could ever pass; the operator must set DASHBOARD_TOKEN), not 401.
// Guesses are throttled per address (authorizeDashboard): wrong tokens are counted on the QuotaStore under
// `dashtoken#ip#<hash>`; past the limit every attempt from that address, right or wrong, gets 429 with Retry-After
// until the window resets, so a guess that happens to be right is not even compared.
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../auth/keys';
import { ipSubject } from '../auth/resolve-caller';
import { QuotaExceeded, Unauthenticated, Unavailable } from '../errors';
import { logger } from '../logger';
import { rateLimitHeaders, type QuotaStore, type WindowRule } from '../quota/windows';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

const notConfigured = () =>
  new Unavailable(
    'A/B results are disabled: no dashboard token is configured. Set DASHBOARD_TOKEN (at least 16 characters) on this function.',
    null,
  );

/** Throws 503 when no token is configured, 401 unless one of the two headers carries it. */
export function assertDashboardToken(headers: Record<string, string>, expected: string | undefined): void {
  if (!expected) throw notConfigured();
  const candidates = [bearerToken(headers['authorization']), headers['x-dashboard-token']?.trim()].filter(
    (t): t is string => typeof t === 'string' && t !== '',
  );
  // Compare every candidate (no early exit) so the answer time does not depend on which header matched.
  let ok = false;
  for (const c of candidates) ok = tokensEqual(c, expected) || ok;
  if (!ok)
    throw new Unauthenticated(
      candidates.length
        ? 'Wrong dashboard token.'
        : 'A dashboard token is required: send `Authorization: Bearer <token>` or `X-Dashboard-Token: <token>`.',
    );
}

/** Wrong dashboard tokens one address may send per hour before it is refused (429) until the hour ends. */
export const DASHBOARD_FAILURES_PER_HOUR = 20;

export const dashboardFailureSubject = (ip: string) => `dashtoken#${ipSubject(ip)}`;

/** What authorizeDashboard reads from a service's deps: the expected token, and the store counting wrong guesses. */
export interface DashboardAuthDeps {
  readonly config: { readonly DASHBOARD_TOKEN?: string };
  readonly quotas: QuotaStore;
  now(): Date;
}

/**
 * assertDashboardToken with guesses throttled per address: 429 (Retry-After, RateLimit-*) once the caller's address
 * sent DASHBOARD_FAILURES_PER_HOUR wrong tokens this hour; each wrong token is counted. A missing token is not a
 * guess. Without a configured token the 503 comes first, before `deps.quotas` is even read (its store is made lazily
 * by the service's deps), so a dashboard left unconfigured touches no storage.
 */
export async function authorizeDashboard(
  req: { readonly headers: Record<string, string>; readonly clientIp: string },
  deps: DashboardAuthDeps,
  opts: { failuresPerHour?: number } = {},
): Promise<void> {
  const expected = deps.config.DASHBOARD_TOKEN;
  if (!expected) throw notConfigured();
  const now = deps.now();
  const quotas = deps.quotas;
  const rules: WindowRule[] = [
    { period: 'hour', limit: opts.failuresPerHour ?? DASHBOARD_FAILURES_PER_HOUR },
  ];
  const subject = dashboardFailureSubject(req.clientIp);
  const [slot] = await quotas.peek(subject, rules, now);
  if (slot && slot.used >= slot.limit) {
    const headers = rateLimitHeaders(
      { allowed: false, charged: [], binding: { ...slot, remaining: 0 }, all: [], slots: [slot] },
      now,
    );
    throw new QuotaExceeded(
      `Too many wrong dashboard tokens from this address: at most ${slot.limit} per hour. ` +
        `Try again in ${headers['retry-after']} seconds.`,
      headers,
    );
  }
  try {
    assertDashboardToken(req.headers, expected);
  } catch (err) {
    if (err instanceof Unauthenticated && /^Wrong/.test(err.message))
      await quotas
        .consume(subject, rules, now)
        .catch((e: unknown) => logger.warn('could not count a wrong dashboard token', { error: e as Error }));
    throw err;
  }
}
