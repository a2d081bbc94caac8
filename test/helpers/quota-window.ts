// Free-tier windows are fixed UTC hours (lambdas/shared/quota/windows.ts): a test whose charges span the turn of an
// hour finds them in two windows. This names the window an answer was counted in, from its own headers.

const HOUR_S = 3600;

/**
 * The end (epoch seconds) of the hourly window `res` was counted in: its RateLimit-Reset from when it was read.
 * Read up to a request's duration after the server's clock took it, which is never an hour: rounding down to the
 * hour gives the exact end.
 */
export function hourWindowOf(res: Response, readAtMs = Date.now()): number {
  const reset = Number(res.headers.get('ratelimit-reset'));
  if (!Number.isFinite(reset) || reset <= 0) throw new Error(`no RateLimit-Reset on a ${res.status} answer`);
  return Math.floor((readAtMs / 1000 + reset) / HOUR_S) * HOUR_S;
}
