// GET /templates/{slug}/source: the route's spec, next to its handler (template-source.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const templateSourceRoute = {
  id: 'TemplateSource',
  method: 'GET',
  path: '/templates/{slug}/source',
  handler: 'lambdas/documents/handlers/template-source.ts',
  packaging: 'image',
  memoryMb: 256,
  timeoutS: 5,
  access: {},
} satisfies RouteSpec;
