// GET / and GET /site/{file}: the documents playground (lambdas/documents/site/src, built into
// site/files.generated.ts by `npm run build:site`), served by one handler (site.ts); routes.ts lists both specs.
import type { RouteSpec } from '../../shared/manifest';
import { ErrorDetail } from '../api/schemas';

export const sitePageRoute = {
  id: 'SitePage',
  method: 'GET',
  path: '/',
  handler: 'lambdas/documents/handlers/site.ts',
  memoryMb: 256,
  timeoutS: 3,
  access: {},
  docs: {
    summary: 'Playground (Spanish): try the templates in the browser',
    tags: ['meta'],
    description:
      'The HTML page for people (es-MX): pick a template, edit its sample data (checked as you type against the ' +
      "template's JSON Schema from GET /templates), pick a format and render through POST /v1/render (PDF and PNG " +
      'previewed, everything downloadable); a custom_html tab for paid keys. Strict Content-Security-Policy (own ' +
      'scripts and styles only, `frame-src blob:` for the PDF preview), HSTS, no framing; weak ETag (304 on ' +
      'If-None-Match); brotli/gzip per Accept-Encoding.',
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
} satisfies RouteSpec;

export const siteFileRoute = {
  ...sitePageRoute,
  id: 'SiteFile',
  path: '/site/{file}',
  docs: {
    summary: 'A file of the playground (script, style sheet)',
    tags: ['meta'],
    description: 'The files the page loads, by name; unknown names → 404 `{"detail": ...}`.',
    responses: {
      200: { description: 'The file' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
      404: { description: 'No such file', schema: ErrorDetail },
    },
  },
} satisfies RouteSpec;
