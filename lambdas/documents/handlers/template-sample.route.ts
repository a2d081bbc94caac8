// GET /templates/{slug}/sample.pdf: the route's spec, next to its handler (template-sample.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { slug } from '../api/doc-parts';
import { Binary, ErrorDetail } from '../api/schemas';

export const templateSampleRoute = {
  id: 'TemplateSample',
  method: 'GET',
  path: '/templates/{slug}/sample.pdf',
  handler: 'lambdas/documents/handlers/template-sample.ts',
  packaging: 'image',
  memoryMb: 2048,
  timeoutS: 29,
  // Rendered in memory and cached per container: no table, bucket or queue.
  access: {},
  docs: {
    summary: "A template's sample PDF",
    tags: ['templates'],
    description:
      'The template rendered from its sample data, without watermark (`inline; filename="<slug>-ejemplo.pdf"`). ' +
      'Not counted against any plan. Cached 1 day.',
    params: [slug],
    responses: {
      200: { description: 'PDF', schema: Binary, contentType: 'application/pdf' },
      404: { description: 'Unknown template', schema: ErrorDetail },
    },
  },
} satisfies RouteSpec;
