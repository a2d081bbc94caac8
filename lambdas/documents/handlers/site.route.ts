// GET / and GET /site/{file}: the documents playground (lambdas/documents/site/src, built into
// site/files.generated.ts by `npm run build:site`), served by one handler (site.ts); the platform's builder
// (lambdas/shared/http/page-routes.ts) makes the specs, routes.ts lists them.
import { siteRoutes } from '../../shared/http/page-routes';

export const SITE_ROUTES = siteRoutes({
  handler: 'lambdas/documents/handlers/site.ts',
  files: 'script, style sheet',
  csp: 'Its CSP also allows `frame-src blob:` for the PDF preview.',
  pages: [
    {
      id: 'SitePage',
      path: '/',
      summary: 'Playground (Spanish): try the templates in the browser',
      description:
        'The HTML page for people (es-MX): pick a template, edit its sample data (checked as you type against ' +
        "the template's JSON Schema from GET /templates), pick a format and render through POST /v1/render (PDF " +
        'and PNG previewed, everything downloadable); a custom_html tab for paid keys.',
    },
  ],
});
