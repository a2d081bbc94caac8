// The business events handlers and workers record, one function each, so an emission point is one line and the
// metric names, units and dimensions live here (names in ./names.ts, read by the alarms too).
import { HttpError, TooManyRequestsError } from '../http/errors';
import { metricsFor } from './metrics';
import { DOCUMENTS_METRICS as D, NARRATION_METRICS as N, type ServiceName } from './names';

/** A 429 of a plan or free-tier limit. `route` is the route key ("POST /convert/text"). */
export function recordQuotaRejection(service: ServiceName, route: string | undefined): void {
  metricsFor(service).add(N.QuotaRejections, 'Count', 1, { route: route ?? 'unknown' });
}

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
    if (err instanceof TooManyRequestsError) recordQuotaRejection('narration', route);
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

/**
 * Runs one document render and records it: DocumentsRendered and RenderDurationMs by format, or RenderFailures when
 * it failed for a reason other than the caller's request (an HttpError is the caller's: bad template, limits).
 */
export async function observeRender<T>(format: string, run: () => Promise<T>): Promise<T> {
  const metrics = metricsFor('documents');
  const started = performance.now();
  try {
    const doc = await run();
    metrics.add(D.DocumentsRendered, 'Count', 1, { format });
    metrics.add(D.RenderDurationMs, 'Milliseconds', Math.round(performance.now() - started), { format });
    return doc;
  } catch (err) {
    if (!(err instanceof HttpError)) metrics.add(D.RenderFailures, 'Count', 1, { format });
    throw err;
  }
}
