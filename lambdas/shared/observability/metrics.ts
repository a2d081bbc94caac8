// Business metrics behind a small port. Handlers and the worker record through `metricsFor(service)`; domain code
// never sees Powertools. In Lambda the sink is EMF (Powertools Metrics: one JSON line on stdout per dimension set,
// which CloudWatch turns into metrics, no API call); elsewhere (the local runtime, tests) it does nothing, unless
// POWERTOOLS_METRICS_DISABLED=false asks for EMF lines locally. Tests swap in InMemoryMetrics with useMetrics().
// Sinks buffer until flushMetrics(): the API and worker middleware (metricsMiddleware) flushes after each invocation.
import type { MiddlewareObj } from '@middy/core';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, PLATFORM_METRICS, type MetricName, type ServiceName } from './names';

export type Unit = 'Count' | 'Milliseconds';
/** Extra dimensions of one data point: keep them to a handful of values (format, route), never ids. */
export type Detail = Record<string, string>;

export interface MetricsSink {
  add(name: MetricName, unit: Unit, value: number, detail?: Detail): void;
  /** Publishes what was added since the last flush. */
  flush(): void;
}

export interface MetricPoint {
  name: MetricName;
  unit: Unit;
  value: number;
  detail: Detail;
}

/** Keeps every point (tests; inspect `points` or `total()`). */
export class InMemoryMetrics implements MetricsSink {
  readonly points: MetricPoint[] = [];
  add(name: MetricName, unit: Unit, value: number, detail: Detail = {}): void {
    this.points.push({ name, unit, value, detail });
  }
  flush(): void {}
  /** Sum of the values recorded under `name` (and, when given, with this detail). */
  total(name: MetricName, detail?: Detail): number {
    return this.points
      .filter(
        (p) => p.name === name && (!detail || Object.entries(detail).every(([k, v]) => p.detail[k] === v)),
      )
      .reduce((sum, p) => sum + p.value, 0);
  }
}

const NOOP: MetricsSink = { add: () => undefined, flush: () => undefined };

/** At most this many points wait for a flush; more are published at once (EMF allows 100 metrics per line). */
const MAX_PENDING = 90;

/** Embedded Metric Format through Powertools Metrics, namespace per service, default dimension `service`. */
export class EmfMetrics implements MetricsSink {
  private readonly emf: Metrics;
  private pending = new Map<string, { detail: Detail; points: Omit<MetricPoint, 'detail'>[] }>();
  private count = 0;

  constructor(service: ServiceName) {
    this.emf = new Metrics({ namespace: METRICS_NAMESPACE[service], serviceName: service });
  }

  add(name: MetricName, unit: Unit, value: number, detail: Detail = {}): void {
    const key = JSON.stringify(Object.entries(detail).sort(([a], [b]) => a.localeCompare(b)));
    let group = this.pending.get(key);
    if (!group) this.pending.set(key, (group = { detail, points: [] }));
    group.points.push({ name, unit, value });
    if (++this.count >= MAX_PENDING) this.flush();
  }

  flush(): void {
    const groups = [...this.pending.values()];
    this.pending = new Map();
    this.count = 0;
    for (const { detail, points } of groups) {
      // One line per dimension set: [service] always, plus [service, ...detail] when the point has detail.
      this.emf.addDimensions({});
      if (Object.keys(detail).length > 0) this.emf.addDimensions(detail);
      for (const p of points) this.emf.addMetric(p.name, MetricUnit[p.unit], p.value);
      this.emf.publishStoredMetrics();
    }
  }
}

/** EMF in Lambda unless POWERTOOLS_METRICS_DISABLED is true; elsewhere only when it is explicitly false. */
export function emfEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const flag = (env.POWERTOOLS_METRICS_DISABLED ?? '').trim().toLowerCase();
  if (flag === 'true' || flag === '1') return false;
  if (flag === 'false' || flag === '0') return true;
  return (env.AWS_EXECUTION_ENV ?? '').startsWith('AWS_Lambda_');
}

const sinks = new Map<ServiceName, MetricsSink>();

/** The process's sink for `service` (the local runtime hosts both services in one process). */
export function metricsFor(service: ServiceName): MetricsSink {
  let sink = sinks.get(service);
  if (!sink) sinks.set(service, (sink = emfEnabled() ? new EmfMetrics(service) : NOOP));
  return sink;
}

/** Replaces the sink of `service` (tests); returns a function that restores the default choice. */
export function useMetrics(service: ServiceName, sink: MetricsSink): () => void {
  sinks.set(service, sink);
  return () => {
    sinks.delete(service);
  };
}

/** Publishes every sink's pending points. Never throws: metrics must not fail a request. */
export function flushMetrics(): void {
  for (const sink of sinks.values()) {
    try {
      sink.flush();
    } catch {
      // A malformed point is dropped with its line; the answer is what matters.
    }
  }
}

/** middy: flush after every invocation, answered or failed. */
export function metricsMiddleware(): MiddlewareObj {
  return { after: () => flushMetrics(), onError: () => flushMetrics() };
}

/** A settled job ended by a later delivery: its worker died between settling and ending it (JobsEndedLate). */
export function recordJobEndedLate(service: ServiceName, kind: string): void {
  metricsFor(service).add(PLATFORM_METRICS.JobsEndedLate, 'Count', 1, { kind });
}

/** A 429 of a plan or free-tier limit (both services name it QuotaRejections). `route` is the route key ("POST /convert/text"). */
export function recordQuotaRejection(service: ServiceName, route: string | undefined): void {
  metricsFor(service).add(PLATFORM_METRICS.QuotaRejections, 'Count', 1, { route: route ?? 'unknown' });
}
