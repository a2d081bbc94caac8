// What the platform knows of metric names: each service's CloudWatch namespace and the metrics every service emits
// through the platform (quota rejections, jobs ended late). A service's own metrics are named in its
// lambdas/<service>/metric-names.ts, read both by the code that emits them and by the alarms and dashboard
// (lib/constructs/service-alarms.ts), so a renamed metric cannot silently leave an alarm watching nothing. Plain data: safe to import from CDK code and from
// any Lambda bundle.

export type ServiceName = 'narration' | 'documents';

/** CloudWatch namespace per service (EMF `Namespace`). */
export const METRICS_NAMESPACE: Record<ServiceName, string> = {
  narration: 'VozDocs/Narration',
  documents: 'VozDocs/Documents',
};

/** Metrics the platform records for any service. */
export const PLATFORM_METRICS = {
  /** 429 answers of the free-tier, demo or plan quotas; detail: route. */
  QuotaRejections: 'QuotaRejections',
  /**
   * Jobs found settled but not ended (their worker died between the two) and ended by a later delivery: each is a
   * crash the platform recovered from; detail: kind (narration, render, batch).
   */
  JobsEndedLate: 'JobsEndedLate',
} as const;

/** A metric name (a service's metric-names.ts lists its own). */
export type MetricName = string;

/** A metric with its unit: the dashboard graphs counts as sums and durations as percentiles. */
export interface MetricSpec {
  name: MetricName;
  unit: 'Count' | 'Milliseconds';
}

/**
 * A service's metrics declared once, name → unit: `names` for the code that emits them (`names.X === 'X'`) and
 * `specs` (in declaration order) for the alarms and dashboard.
 */
export function serviceMetrics<const U extends Record<string, MetricSpec['unit']>>(
  units: U,
): { names: { readonly [K in keyof U]: K }; specs: MetricSpec[] } {
  const names = Object.fromEntries(Object.keys(units).map((name) => [name, name]));
  const specs = Object.entries(units).map(([name, unit]) => ({ name, unit }));
  return { names: names as { readonly [K in keyof U]: K }, specs };
}
