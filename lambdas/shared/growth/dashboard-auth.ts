// The dashboard token that guards GET /ab/results/{experiment}. Sent as `Authorization: Bearer <token>` or
// `X-Dashboard-Token: <token>`. Compared in constant time: both sides are hashed to SHA-256 first, so
// timingSafeEqual always sees equal-length buffers and neither the token's content nor its length leaks through
// timing. No token configured → 503 (nothing could ever pass; the operator must set DASHBOARD_TOKEN), not 401.
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../auth/keys';
import { Unauthenticated, Unavailable } from '../errors';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

/** Throws 503 when no token is configured, 401 unless one of the two headers carries it. */
export function assertDashboardToken(headers: Record<string, string>, expected: string | undefined): void {
  if (!expected)
    throw new Unavailable(
      'A/B results are disabled: no dashboard token is configured. Set DASHBOARD_TOKEN (at least 16 characters) on this function.',
      null,
    );
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
