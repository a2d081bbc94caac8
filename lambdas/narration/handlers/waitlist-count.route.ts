// GET /waitlist/count: the route's spec, next to its handler (waitlist-count.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { z as zod } from 'zod';

export const waitlistCountRoute = {
  id: 'WaitlistCount',
  method: 'GET',
  path: '/waitlist/count',
  handler: 'lambdas/narration/handlers/waitlist-count.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { growth: 'r' } },
  docs: {
    summary: 'Waitlist size',
    tags: ['growth'],
    responses: { 200: { description: 'Exact count', schema: zod.object({ count: zod.int() }) } },
  },
} satisfies RouteSpec;
