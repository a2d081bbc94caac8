// Narration's business metrics: the names its handlers and worker emit (metrics.ts) and its alarms and dashboard
// read (lib/constructs/service-alarms.ts). Every data point is published under the dimension set [service] (what
// alarms and the dashboard read) and, when it carries one, under [service, <detail>] as well (format or route).
import { PLATFORM_METRICS, type MetricSpec } from '../shared/observability/names';

export const NARRATION_METRICS = {
  /** Conversions accepted (200 narrated inline, or 202 queued); detail: format. */
  Conversions: 'Conversions',
  /** Characters of the callers' texts that became audio (inline conversions and finished jobs). */
  CharactersNarrated: 'CharactersNarrated',
  /** 429 answers of the free-tier or demo limits; detail: route. */
  QuotaRejections: PLATFORM_METRICS.QuotaRejections,
  /** Polly calls answered with a throttling error (each attempt, retried by the SDK or not). */
  PollyThrottles: 'PollyThrottles',
  /** Worker attempts that failed (a job is retried, and lands in the DLQ after MAX_RECEIVE_COUNT of them). */
  JobFailures: 'JobFailures',
  /** Wall time of a finished worker job, claim to upload (milliseconds). */
  JobDurationMs: 'JobDurationMs',
} as const;

/** Every narration metric with its unit. */
export const NARRATION_METRIC_SPECS: MetricSpec[] = [
  { name: NARRATION_METRICS.Conversions, unit: 'Count' },
  { name: NARRATION_METRICS.CharactersNarrated, unit: 'Count' },
  { name: NARRATION_METRICS.QuotaRejections, unit: 'Count' },
  { name: NARRATION_METRICS.PollyThrottles, unit: 'Count' },
  { name: NARRATION_METRICS.JobFailures, unit: 'Count' },
  { name: NARRATION_METRICS.JobDurationMs, unit: 'Milliseconds' },
];
