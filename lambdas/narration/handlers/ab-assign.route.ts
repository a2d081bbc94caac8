// GET /ab/assign/{experiment}: the route's spec, next to its handler (ab-assign.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const abAssignRoute = {
  id: 'AbAssign',
  method: 'GET',
  path: '/ab/assign/{experiment}',
  handler: 'lambdas/narration/handlers/ab-assign.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { settings: ['AB_EXPERIMENTS'] },
} satisfies RouteSpec;
