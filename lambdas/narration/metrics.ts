// The business events narration's handlers and worker record, one function each, so an emission point is one line
// and the metric names, units and dimensions live here (names in metric-names.ts, read by the
// alarms too).
import { QuotaExceeded } from '../shared/errors';
import { metricsFor, recordQuotaRejection } from '../shared/observability/metrics';
import { NARRATION_METRICS as N } from './metric-names';

/**
 * Runs a narration conversion and records it: Conversions (200 or 202), CharactersNarrated when it was narrated
 * inline (200: the worker records queued ones when they finish), QuotaRejections when it was refused with 429.
 */
export async function observeConversion<T extends { statusCode: number; body: Record<string, unknown> }>(
  route: string | undefined,
  format: string,
  run: () => Promise<T>,
): Promise<T> {
  let out: T;
  try {
    out = await run();
  } catch (err) {
    if (err instanceof QuotaExceeded) recordQuotaRejection('narration', route);
    throw err;
  }
  const metrics = metricsFor('narration');
  metrics.add(N.Conversions, 'Count', 1, { format });
  if (out.statusCode === 200 && typeof out.body.chars === 'number')
    metrics.add(N.CharactersNarrated, 'Count', out.body.chars);
  return out;
}

/** A queued job finished: its duration, and its characters when known. */
export function recordJobDone(durationMs: number, chars: number | undefined): void {
  const metrics = metricsFor('narration');
  metrics.add(N.JobDurationMs, 'Milliseconds', Math.round(durationMs));
  if (chars !== undefined) metrics.add(N.CharactersNarrated, 'Count', chars);
}

/** A worker attempt failed (SQS retries it; after MAX_RECEIVE_COUNT attempts the job is failed and in the DLQ). */
export function recordJobFailure(): void {
  metricsFor('narration').add(N.JobFailures, 'Count', 1);
}
