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
  docs: {
    summary: 'Public statistics',
    tags: ['growth'],
    description:
      'Counters, not scans: conversions, characters and seconds narrated, waitlist size. Cached 60 s.',
    responses: { 200: { description: 'Statistics (docs/growth.md)' } },
  },
} satisfies RouteSpec;
