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
  const metrics = metricsFor('documents');
  const started = performance.now();
  try {
    const doc = await run();
    metrics.add(D.DocumentsRendered, 'Count', 1, { format });
    metrics.add(D.RenderDurationMs, 'Milliseconds', Math.round(performance.now() - started), { format });
    return doc;
  } catch (err) {
    if (!(err instanceof DomainError)) metrics.add(D.RenderFailures, 'Count', 1, { format });
    throw err;
  }
}
