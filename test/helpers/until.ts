// Evidence-based waiting for tests: poll a probe until it answers something (never a fixed sleep standing in for
// "it happened"), bounded, and on time-out say what was awaited and, when given, the last state seen.

/**
 * Calls `probe` every `everyMs` until it returns a value other than undefined, and returns that value. After
 * `timeoutMs` it throws naming `what` (plus `last()`'s JSON, to show how far things got).
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  last?: () => Promise<unknown>,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}` + (last ? `: ${JSON.stringify(await last())}` : ''));
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
