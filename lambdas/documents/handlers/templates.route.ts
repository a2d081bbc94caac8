// GET /templates: the route's spec, next to its handler (templates.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { TemplatesResponse } from '../api/schemas';

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
  docs: {
    summary: 'List the built-in templates',
    tags: ['templates'],
    description:
      'Every built-in template with its purpose, formats, page defaults, the JSON Schema of its data (`fields`), ' +
      'sample data and links; the partials custom HTML may include; the formats custom HTML renders to. Cached 1 h.',
    responses: { 200: { description: 'Templates', schema: TemplatesResponse } },
  },
} satisfies RouteSpec;
