// GET /dashboard/summary — behind the dashboard token, like GET /ab/results (Bearer or X-Dashboard-Token; 401,
// 503 when DASHBOARD_TOKEN is unset, 429 after 20 wrong tokens from one address in the hour): the waitlist (count, interest, sources), public statistics, failed jobs and
// the DLQs' depth, for the /panel page. Read-only and never cached. Body: docs/growth.md ("Dashboard").
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { authorizeDashboard } from '../../shared/growth/dashboard-auth';
import { dlqEnvVar } from '../../shared/manifest';
import { awsDeps, awsQueueDepth, type NarrationDeps } from '../deps';
import type { QueueDepth } from '../ports';
import { dashboardSummary } from '../use-cases/dashboard';
import { dashboardSummaryRoute } from './dashboard-summary.route';

type DlqVar = 'PRIORITY_DLQ_URL' | 'STANDARD_DLQ_URL' | 'WEBHOOKS_DLQ_URL';
/** The DLQs this route may read (its spec's access.readDlqs) and the variables the stack puts their URLs in. */
const DLQS = dashboardSummaryRoute.access.readDlqs.map((queue) => ({
  queue,
  envVar: dlqEnvVar(queue) as DlqVar,
}));

export const makeHandler = (deps: NarrationDeps, queueDepth: QueueDepth = awsQueueDepth()) =>
  apiHandler(async (req) => {
    // Authenticate first: nothing is told to a caller without the token.
    // Without a configured token the 503 comes before any storage is reached.
    await authorizeDashboard(req, deps);
    const summary = await dashboardSummary({
      growth: deps.growth,
      experiments: deps.config.AB_EXPERIMENTS,
      queueDepth,
      dlqs: DLQS.map((d) => ({ queue: d.queue, url: deps.config[d.envVar] })),
      now: deps.now(),
    });
    return json(200, summary, { 'cache-control': 'no-store' });
  });

export const handler = makeHandler(awsDeps());
