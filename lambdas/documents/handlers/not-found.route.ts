// ANY $default: the route's spec, next to its handler (not-found.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const notFoundRoute = {
  id: 'NotFound',
  method: 'ANY',
  path: '$default',
  handler: 'lambdas/documents/handlers/not-found.ts',
  memoryMb: 128,
  timeoutS: 3,
  access: {},
} satisfies RouteSpec;
