// Documents' business metrics: the names its handlers and workers emit (metrics.ts) and its alarms and dashboard
// read (lib/constructs/service-alarms.ts). Published under [service] and, with a detail, [service, <detail>].
import { PLATFORM_METRICS, serviceMetrics } from '../shared/observability/names';

const metrics = serviceMetrics({
  /** Documents delivered (inline or by redirect); detail: format. */
  DocumentsRendered: 'Count',
  /** Time spent rendering one document (milliseconds); detail: format. */
  RenderDurationMs: 'Milliseconds',
  /** 429 answers of the monthly plan quotas; detail: route. */
  [PLATFORM_METRICS.QuotaRejections]: 'Count',
  /** Jobs a later delivery ended (their worker died between settling and ending them); detail: kind. */
  [PLATFORM_METRICS.JobsEndedLate]: 'Count',
  /** Renders that failed for a reason other than the caller's request (answered 500); detail: format. */
  RenderFailures: 'Count',
});

export const DOCUMENTS_METRICS = metrics.names;
/** Every documents metric with its unit. */
export const DOCUMENTS_METRIC_SPECS = metrics.specs;
