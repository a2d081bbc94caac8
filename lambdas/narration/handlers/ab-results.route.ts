// GET /ab/results/{experiment}: the route's spec, next to its handler (ab-results.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { ErrorDetail } from '../api/schemas';
import { common, dashboardTokenResponses } from '../api/doc-parts';

export const abResultsRoute = {
  id: 'AbResults',
  method: 'GET',
  path: '/ab/results/{experiment}',
  handler: 'lambdas/narration/handlers/ab-results.ts',
  memoryMb: 256,
  timeoutS: 10,
  // quotas: wrong-token counters per address (dashboard-auth.ts).
  access: { settings: ['DASHBOARD_TOKEN', 'AB_EXPERIMENTS'], tables: { growth: 'r', quotas: 'rw' } },
  docs: {
    summary: 'A/B results (dashboard)',
    tags: ['growth'],
    description:
      'Send the dashboard token as `Authorization: Bearer <token>` or `X-Dashboard-Token: <token>` (constant-time ' +
      'comparison). Per variant: exposures, conversions, rate, uplift vs control, and a two-sided two-proportion ' +
      'z-test p-value (`method` names it). See docs/growth.md for the exact body.',
    responses: {
      200: { description: 'Results per variant' },
      ...dashboardTokenResponses,
      404: { description: 'Unknown experiment', schema: ErrorDetail },
      422: common[422],
    },
  },
} satisfies RouteSpec;
