// GET /stats: the route's spec, next to its handler (stats.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const statsRoute = {
  id: 'Stats',
  method: 'GET',
  path: '/stats',
  handler: 'lambdas/narration/handlers/stats.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { growth: 'r' } },
} satisfies RouteSpec;
