// GET / and GET /site/{file}: the documents playground (lambdas/documents/site/src, built into
// site/files.generated.ts by `npm run build:site`), served by one handler (site.ts); routes.ts lists both specs.
import type { RouteSpec } from '../../shared/manifest';

export const sitePageRoute = {
  id: 'SitePage',
  method: 'GET',
  path: '/',
  handler: 'lambdas/documents/handlers/site.ts',
  memoryMb: 256,
  timeoutS: 3,
  access: {},
} satisfies RouteSpec;

export const siteFileRoute = {
  ...sitePageRoute,
  id: 'SiteFile',
  path: '/site/{file}',
} satisfies RouteSpec;
