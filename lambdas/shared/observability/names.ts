// Names shared by the code that emits metrics (lambdas/) and the infrastructure that alarms and graphs them (lib/):
// one list, so a renamed metric cannot silently leave an alarm watching nothing. Plain data: safe to import from
// CDK code and from any Lambda bundle.

export type ServiceName = 'narration' | 'documents';

/** CloudWatch namespace per service (EMF `Namespace`). */
export const METRICS_NAMESPACE: Record<ServiceName, string> = {
  narration: 'VozDocs/Narration',
  documents: 'VozDocs/Documents',
};

/**
 * Business metrics. Every data point is published under the dimension set [service] (what alarms and the dashboard
 * read) and, when it carries one, under [service, <detail>] as well (format or route: a handful of values each).
 */
export const NARRATION_METRICS = {
  /** Conversions accepted (200 narrated inline, or 202 queued); detail: format. */
  Conversions: 'Conversions',
  /** Characters of the callers' texts that became audio (inline conversions and finished jobs). */
  CharactersNarrated: 'CharactersNarrated',
  /** 429 answers of the free-tier or demo limits; detail: route. */
  QuotaRejections: 'QuotaRejections',
  /** Polly calls answered with a throttling error (each attempt, retried by the SDK or not). */
  PollyThrottles: 'PollyThrottles',
  /** Worker attempts that failed (a job is retried, and lands in the DLQ after MAX_RECEIVE_COUNT of them). */
  JobFailures: 'JobFailures',
  /** Wall time of a finished worker job, claim to upload (milliseconds). */
  JobDurationMs: 'JobDurationMs',
} as const;

export const DOCUMENTS_METRICS = {
  /** Documents delivered (inline or by redirect); detail: format. */
  DocumentsRendered: 'DocumentsRendered',
  /** Time spent rendering one document (milliseconds); detail: format. */
  RenderDurationMs: 'RenderDurationMs',
  /** 429 answers of the monthly plan quotas; detail: route. */
  QuotaRejections: 'QuotaRejections',
  /** Renders that failed for a reason other than the caller's request (answered 500); detail: format. */
  RenderFailures: 'RenderFailures',
} as const;

export type NarrationMetric = (typeof NARRATION_METRICS)[keyof typeof NARRATION_METRICS];
export type DocumentsMetric = (typeof DOCUMENTS_METRICS)[keyof typeof DOCUMENTS_METRICS];
export type MetricName = NarrationMetric | DocumentsMetric;

/** Metrics per service with their unit (the dashboard graphs counts as sums and durations as percentiles). */
export const SERVICE_METRICS: Record<ServiceName, { name: MetricName; unit: 'Count' | 'Milliseconds' }[]> = {
  narration: [
    { name: NARRATION_METRICS.Conversions, unit: 'Count' },
    { name: NARRATION_METRICS.CharactersNarrated, unit: 'Count' },
    { name: NARRATION_METRICS.QuotaRejections, unit: 'Count' },
    { name: NARRATION_METRICS.PollyThrottles, unit: 'Count' },
    { name: NARRATION_METRICS.JobFailures, unit: 'Count' },
    { name: NARRATION_METRICS.JobDurationMs, unit: 'Milliseconds' },
  ],
  documents: [
    { name: DOCUMENTS_METRICS.DocumentsRendered, unit: 'Count' },
    { name: DOCUMENTS_METRICS.RenderDurationMs, unit: 'Milliseconds' },
    { name: DOCUMENTS_METRICS.QuotaRejections, unit: 'Count' },
    { name: DOCUMENTS_METRICS.RenderFailures, unit: 'Count' },
  ],
};
