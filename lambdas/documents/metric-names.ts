// Documents' business metrics: the names its handlers and workers emit (metrics.ts) and its alarms and dashboard
// read (lib/constructs/service-alarms.ts). Published under [service] and, with a detail, [service, <detail>].
import { PLATFORM_METRICS, type MetricSpec } from '../shared/observability/names';

export const DOCUMENTS_METRICS = {
  /** Documents delivered (inline or by redirect); detail: format. */
  DocumentsRendered: 'DocumentsRendered',
  /** Time spent rendering one document (milliseconds); detail: format. */
  RenderDurationMs: 'RenderDurationMs',
  /** 429 answers of the monthly plan quotas; detail: route. */
  QuotaRejections: PLATFORM_METRICS.QuotaRejections,
  /** Renders that failed for a reason other than the caller's request (answered 500); detail: format. */
  RenderFailures: 'RenderFailures',
} as const;

/** Every documents metric with its unit. */
export const DOCUMENTS_METRIC_SPECS: MetricSpec[] = [
  { name: DOCUMENTS_METRICS.DocumentsRendered, unit: 'Count' },
  { name: DOCUMENTS_METRICS.RenderDurationMs, unit: 'Milliseconds' },
  { name: DOCUMENTS_METRICS.QuotaRejections, unit: 'Count' },
  { name: DOCUMENTS_METRICS.RenderFailures, unit: 'Count' },
];
