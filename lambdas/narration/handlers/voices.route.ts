// GET /voices: the route's spec, next to its handler (voices.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const voicesRoute = {
  id: 'Voices',
  method: 'GET',
  path: '/voices',
  handler: 'lambdas/narration/handlers/voices.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: {},
} satisfies RouteSpec;
