// GET /templates: the route's spec, next to its handler (templates.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const templatesRoute = {
  id: 'Templates',
  method: 'GET',
  path: '/templates',
  handler: 'lambdas/documents/handlers/templates.ts',
  packaging: 'image',
  // Measured: 68 MB RSS after init (bench/cold-start.bench.ts); the answer is cached for an hour.
  memoryMb: 256,
  timeoutS: 10,
  access: {},
} satisfies RouteSpec;
