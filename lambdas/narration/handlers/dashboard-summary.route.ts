// GET /dashboard/summary: the route's spec, next to its handler (dashboard-summary.ts); routes.ts lists it.
// Reads the growth counters and the DLQs' depth (sqs:GetQueueAttributes on the DLQs only).
import type { RouteSpec } from '../../shared/manifest';

export const dashboardSummaryRoute = {
  id: 'DashboardSummary',
  method: 'GET',
  path: '/dashboard/summary',
  handler: 'lambdas/narration/handlers/dashboard-summary.ts',
  memoryMb: 256,
  timeoutS: 10,
  access: {
    settings: ['DASHBOARD_TOKEN', 'AB_EXPERIMENTS'],
    tables: { growth: 'r' },
    readDlqs: ['priority', 'standard', 'webhooks'],
  },
} satisfies RouteSpec;
