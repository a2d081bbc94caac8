// GET /templates/{slug}/source: the route's spec, next to its handler (template-source.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { slug } from '../api/doc-parts';
import { z } from 'zod';
import { ErrorDetail } from '../api/schemas';

export const templateSourceRoute = {
  id: 'TemplateSource',
  method: 'GET',
  path: '/templates/{slug}/source',
  handler: 'lambdas/documents/handlers/template-source.ts',
  packaging: 'image',
  memoryMb: 256,
  timeoutS: 5,
  access: {},
  docs: {
    summary: "A template's Jinja2 source",
    tags: ['templates'],
    description:
      'The HTML/Jinja2 source of a built-in template, as text/plain: copy and adapt it as custom_html (it may ' +
      'include the partials base.html, estilos.html and macros.html).',
    params: [slug],
    responses: {
      200: { description: 'Jinja2 source', schema: z.string(), contentType: 'text/plain; charset=utf-8' },
      404: { description: 'Unknown template', schema: ErrorDetail },
    },
  },
} satisfies RouteSpec;
