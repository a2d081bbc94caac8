// Narration's business metrics: the names its handlers and worker emit (metrics.ts) and its alarms and dashboard
// read (lib/constructs/service-alarms.ts). Every data point is published under the dimension set [service] (what
// alarms and the dashboard read) and, when it carries one, under [service, <detail>] as well (format or route).
import { PLATFORM_METRICS, serviceMetrics } from '../shared/observability/names';

const metrics = serviceMetrics({
  /** Conversions accepted (200 narrated inline, or 202 queued); detail: format. */
  Conversions: 'Count',
  /** Characters of the callers' texts that became audio (inline conversions and finished jobs). */
  CharactersNarrated: 'Count',
  /** 429 answers of the free-tier or demo limits; detail: route. */
  [PLATFORM_METRICS.QuotaRejections]: 'Count',
  /** Jobs a later delivery ended (their worker died between settling and ending them); detail: kind. */
  [PLATFORM_METRICS.JobsEndedLate]: 'Count',
  /** Polly calls answered with a throttling error (each attempt, retried by the SDK or not). */
  PollyThrottles: 'Count',
  /** Worker attempts that failed (a job is retried, and lands in the DLQ after MAX_RECEIVE_COUNT of them). */
  JobFailures: 'Count',
  /** Wall time of a finished worker job, claim to upload (milliseconds). */
  JobDurationMs: 'Milliseconds',
});

export const NARRATION_METRICS = metrics.names;
/** Every narration metric with its unit. */
export const NARRATION_METRIC_SPECS = metrics.specs;
