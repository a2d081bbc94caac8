// The handler of a service's pages: its web pages and their files (staticSiteHandler, ./static-assets.ts) and the
// `$default` route (404 / 405 / CORS preflight from its route index, ./not-found.ts). One file per service
// (lambdas/<service>/handlers/pages.ts) passes what differs: the files, which path shows which page, the CSP
// additions, the route index. Each route is still its own function; the `$default` route's events (route key
// `$default`) go to the not-found handler, every other to the site. Each is made on its function's first request,
// so the $default function never prepares (compresses) the site's files.
import { makeNotFoundHandler, type RouteIndex } from './not-found';
import { SHARED_ROUTE_INDEX } from './route-index.generated';
import { lazyHandlers, type RouteHandler } from './route-handlers';
import { type StaticFile, staticSiteHandler } from './static-assets';

export interface PagesOptions {
  /** The site's files by name (lambdas/<service>/site/files.generated.ts). */
  files: Record<string, StaticFile>;
  /** Request path → page file. */
  pages: Record<string, string>;
  /** Headers of every answer of the site (pageSecurityHeaders() with the service's CSP additions). */
  headers: Record<string, string>;
  /**
   * What the `$default` route answers 405/204 for besides the routes every service serves alike (./route-index.generated.ts):
   * the service's own (lambdas/<service>/route-index.generated.ts).
   */
  routes: RouteIndex;
}

export function pagesHandler(o: PagesOptions): RouteHandler {
  const made = lazyHandlers({
    site: () => staticSiteHandler(o.files, o.pages, o.headers) as RouteHandler,
    notFound: () => makeNotFoundHandler([...o.routes, ...SHARED_ROUTE_INDEX]) as RouteHandler,
  });
  return (event, context) =>
    event.routeKey === '$default' ? made.notFound(event, context) : made.site(event, context);
}
