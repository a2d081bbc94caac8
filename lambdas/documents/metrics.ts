// The business events the documents handlers and workers record (names in metric-names.ts,
// read by the alarms too).
import { DomainError } from '../shared/errors';
import { metricsFor } from '../shared/observability/metrics';
import { DOCUMENTS_METRICS as D } from './metric-names';

/**
 * Runs one document render and records it: DocumentsRendered and RenderDurationMs by format, or RenderFailures when
 * it failed for a reason other than the caller's request (a DomainError is the caller's: bad template, limits).
 */
export async function observeRender<T>(format: string, run: () => Promise<T>): Promise<T> {
  const timed = await timeRender(format, run);
  timed.delivered();
  return timed.doc;
}

/**
 * Like observeRender, for a render that may be dropped after it succeeded (POST /v1/render renders while its quota
 * charge is written; a denial drops the document): a failure is recorded at once, a success only when
 * `delivered()` is called.
 */
export async function timeRender<T>(
  format: string,
  run: () => Promise<T>,
): Promise<{ doc: T; delivered: () => void }> {
  const metrics = metricsFor('documents');
  const started = performance.now();
  try {
    const doc = await run();
    const ms = Math.round(performance.now() - started);
    return {
      doc,
      delivered: () => {
        metrics.add(D.DocumentsRendered, 'Count', 1, { format });
        metrics.add(D.RenderDurationMs, 'Milliseconds', ms, { format });
      },
    };
  } catch (err) {
    if (!(err instanceof DomainError)) metrics.add(D.RenderFailures, 'Count', 1, { format });
    throw err;
  }
}
