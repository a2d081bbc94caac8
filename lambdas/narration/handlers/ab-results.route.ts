// GET /ab/results/{experiment}: the route's spec, next to its handler (ab-results.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const abResultsRoute = {
  id: 'AbResults',
  method: 'GET',
  path: '/ab/results/{experiment}',
  handler: 'lambdas/narration/handlers/ab-results.ts',
  memoryMb: 256,
  timeoutS: 10,
  access: { settings: ['DASHBOARD_TOKEN', 'AB_EXPERIMENTS'], tables: { growth: 'r' } },
} satisfies RouteSpec;
