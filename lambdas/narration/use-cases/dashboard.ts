// GET /dashboard/summary: what the read-only dashboard (/panel) shows besides the A/B results (which it reads from
// GET /ab/results/{experiment}, the experiments named here): the waitlist (count, interest, sources), the public
// statistics, and recent failures (jobs that ended failed, and the depth of the service's DLQs). Counters and
// GetQueueAttributes only: no scans, no message is received.
import type { Experiments } from '../../shared/growth/experiments';
import type { GrowthStore } from '../../shared/growth/ports';
import { failedJobs, publicStats, type FailedJobs, type PublicStats } from '../../shared/growth/stats';
import { waitlistCounts, waitlistSources, type WaitlistCounts } from '../../shared/growth/waitlist';
import { logger } from '../../shared/logger';
import type { QueueDepth } from '../ports';

export interface DlqDepth {
  /** The source queue's manifest id (priority, standard, webhooks). */
  queue: string;
  /** Messages waiting in the DLQ; null when the depth could not be read (`error` says why). */
  messages: number | null;
  in_flight: number | null;
  error?: string;
}

export interface DashboardSummary {
  experiments: string[];
  waitlist: WaitlistCounts & {
    sources: { source: string; count: number }[];
    /** Distinct sources seen; those past the listed cap (MAX_LISTED_SOURCES) are counted here but not listed. */
    distinct_sources: number;
  };
  stats: Omit<PublicStats, 'generated_at'>;
  failures: { jobs: FailedJobs; dlqs: DlqDepth[] };
  generated_at: string;
}

export interface DashboardInput {
  growth: GrowthStore;
  experiments: Experiments;
  queueDepth: QueueDepth;
  /** Each DLQ the dashboard may read: its source queue's id and URL (undefined: not configured here). */
  dlqs: { queue: string; url: string | undefined }[];
  now: Date;
}

async function dlqDepth(q: DashboardInput['dlqs'][number], depth: QueueDepth): Promise<DlqDepth> {
  if (!q.url) return { queue: q.queue, messages: null, in_flight: null, error: 'not configured' };
  try {
    const d = await depth.depth(q.url);
    return { queue: q.queue, messages: d.visible, in_flight: d.inFlight };
  } catch (err) {
    // One unreadable queue must not hide the rest of the dashboard.
    logger.warn('DLQ depth not read', { queue: q.queue, error: err as Error });
    return { queue: q.queue, messages: null, in_flight: null, error: 'unavailable' };
  }
}

export async function dashboardSummary(input: DashboardInput): Promise<DashboardSummary> {
  const [counts, sources, stats, jobs, dlqs] = await Promise.all([
    waitlistCounts(input.growth),
    waitlistSources(input.growth),
    publicStats(input.growth, input.now),
    failedJobs(input.growth, input.now),
    Promise.all(input.dlqs.map((q) => dlqDepth(q, input.queueDepth))),
  ]);
  const { generated_at: _generated, ...statsBody } = stats;
  return {
    experiments: [...input.experiments.keys()],
    waitlist: {
      ...counts,
      sources: sources.sources,
      distinct_sources: sources.distinct,
    },
    stats: statsBody,
    failures: { jobs, dlqs },
    generated_at: input.now.toISOString(),
  };
}
