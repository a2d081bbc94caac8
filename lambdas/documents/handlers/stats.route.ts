// GET /stats: the route's spec, next to its handler (stats.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { StatsResponse } from '../api/schemas';

export const documentStatsRoute = {
  id: 'DocumentStats',
  method: 'GET',
  path: '/stats',
  handler: 'lambdas/documents/handlers/stats.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { growth: 'r' } },
  docs: {
    summary: 'Public statistics',
    tags: ['meta'],
    description: 'Counters, not scans: documents delivered, by format. Cached 60 s.',
    responses: { 200: { description: 'Statistics', schema: StatsResponse } },
  },
} satisfies RouteSpec;
