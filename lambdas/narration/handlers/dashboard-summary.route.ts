// GET /dashboard/summary: the route's spec, next to its handler (dashboard-summary.ts); routes.ts lists it.
// Reads the growth counters and the DLQs' depth (sqs:GetQueueAttributes on the DLQs only).
import type { RouteSpec } from '../../shared/manifest';
import { dashboardTokenResponses } from '../api/doc-parts';

export const dashboardSummaryRoute = {
  id: 'DashboardSummary',
  method: 'GET',
  path: '/dashboard/summary',
  handler: 'lambdas/narration/handlers/dashboard-summary.ts',
  memoryMb: 256,
  timeoutS: 10,
  access: {
    settings: ['DASHBOARD_TOKEN', 'AB_EXPERIMENTS'],
    // quotas: wrong-token counters per address (dashboard-auth.ts).
    tables: { growth: 'r', quotas: 'rw' },
    readDlqs: ['priority', 'standard', 'webhooks'],
  },
  docs: {
    summary: 'Dashboard summary (dashboard token)',
    tags: ['growth'],
    description:
      'What the /panel page shows besides the A/B results: the configured `experiments` (read each with ' +
      'GET /ab/results/{experiment}), the waitlist (`count`, `interest`, sign-ups per `source` — A/B refs grouped ' +
      'per variant), the public statistics, and recent failures: queued jobs that ended failed (total, per UTC ' +
      'day for 7 days) and the depth of each DLQ (`messages: null` with an `error` when it cannot be read). Same ' +
      'token as /ab/results (`Authorization: Bearer <token>` or `X-Dashboard-Token`). Never cached.',
    responses: {
      200: { description: 'Summary (docs/growth.md, "Dashboard")' },
      ...dashboardTokenResponses,
    },
  },
} satisfies RouteSpec;
