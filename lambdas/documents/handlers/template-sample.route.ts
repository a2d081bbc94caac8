// GET /templates/{slug}/sample.pdf: the route's spec, next to its handler (template-sample.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const templateSampleRoute = {
  id: 'TemplateSample',
  method: 'GET',
  path: '/templates/{slug}/sample.pdf',
  handler: 'lambdas/documents/handlers/template-sample.ts',
  packaging: 'image',
  memoryMb: 2048,
  timeoutS: 29,
  access: { bucket: 'rw' },
} satisfies RouteSpec;
