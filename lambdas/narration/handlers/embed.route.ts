// GET /embed.js: the route's spec, next to its handler (embed.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const embedRoute = {
  id: 'Embed',
  method: 'GET',
  path: '/embed.js',
  handler: 'lambdas/narration/handlers/embed.ts',
  memoryMb: 128,
  timeoutS: 3,
  access: {},
} satisfies RouteSpec;
