// GET /, GET /gracias and GET /site/{file}: the web pages (lambdas/narration/site/src, built into site/files.generated.ts by
// `npm run build:site`), served by one handler (site.ts); routes.ts lists both specs.
import type { RouteSpec } from '../../shared/manifest';

export const sitePageRoute = {
  id: 'SitePage',
  method: 'GET',
  path: '/',
  handler: 'lambdas/narration/handlers/site.ts',
  memoryMb: 256,
  timeoutS: 3,
  access: {},
} satisfies RouteSpec;

export const siteFileRoute = {
  ...sitePageRoute,
  id: 'SiteFile',
  path: '/site/{file}',
} satisfies RouteSpec;

/** After paying: Stripe's success_url (NARRATION_PAY.pages); its script picks up the key from GET /pay/success. */
export const siteThanksRoute = {
  ...sitePageRoute,
  id: 'SiteThanks',
  path: '/gracias',
} satisfies RouteSpec;

/** The read-only dashboard (panel.html; its data needs the dashboard token, asked for on the page). */
export const sitePanelRoute = {
  ...sitePageRoute,
  id: 'SitePanel',
  path: '/panel',
} satisfies RouteSpec;
