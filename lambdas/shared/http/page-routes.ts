// The route specs of the pages every service serves itself, built here once and called by each service with its own
// bits: its web pages (`siteRoutes`: GET <page paths> + GET /site/{file}) and the `$default` route (`notFoundRoute`),
// one handler file on pagesHandler (./pages.ts); its API reference (`apiRoutes`: GET /api + GET /api/assets/{file},
// one handler on apiDocsHandler in ./api-docs.ts); its public counters (`statsRoute`: GET /stats). Plain data, like
// every spec (../manifest.ts).
import type { RouteSpec } from '../manifest';
import { API_ASSET_ROUTE_DOC, API_DOCS_ROUTE_DOC, ErrorDetail } from './openapi';
import type { ResponseDoc } from './route-doc';

const NOT_MODIFIED: ResponseDoc = { description: 'Not modified: If-None-Match matched the ETag' };

/** One HTML page of a service's site. */
export interface SitePage {
  /** Logical id (CDK construct id: keep it stable). */
  id: string;
  path: string;
  summary: string;
  /** What the page does; the headers every page gets are added (`PAGE_HEADERS_DOC`). */
  description: string;
}

export interface SiteRoutesOptions {
  /** The handler file serving every page and file (lambdas/<service>/handlers/pages.ts). */
  handler: string;
  /** The pages, `/` first (its id names the spec the others derive from). */
  pages: readonly [SitePage, ...SitePage[]];
  /** What GET /site/{file} serves, for its summary: 'script, style sheet'. */
  files: string;
  /** What the service's page CSP adds to the platform's, as a sentence for the docs (e.g. `frame-src blob:`). */
  csp?: string;
}

/** What every page answers with (static-assets.ts: pageSecurityHeaders + staticSiteHandler). */
export const PAGE_HEADERS_DOC =
  'Strict Content-Security-Policy (own scripts and styles only), HSTS, no framing; weak ETag (304 on ' +
  'If-None-Match); brotli/gzip per Accept-Encoding.';

/** GET <each page> and GET /site/{file}: the service's web pages, one Lambda handler for them all. */
export function siteRoutes(o: SiteRoutesOptions): RouteSpec[] {
  const base = {
    method: 'GET',
    handler: o.handler,
    memoryMb: 256,
    timeoutS: 3,
    access: {},
  } as const satisfies Omit<RouteSpec, 'id' | 'path'>;
  const headers = o.csp ? `${PAGE_HEADERS_DOC} ${o.csp}` : PAGE_HEADERS_DOC;
  const pages = o.pages.map((p): RouteSpec => ({
    ...base,
    id: p.id,
    path: p.path,
    docs: {
      summary: p.summary,
      tags: ['meta'],
      description: `${p.description} ${headers}`,
      responses: { 200: { description: 'The page', contentType: 'text/html' }, 304: NOT_MODIFIED },
    },
  }));
  const file: RouteSpec = {
    ...base,
    id: 'SiteFile',
    path: '/site/{file}',
    docs: {
      summary: `A file of the web pages (${o.files})`,
      tags: ['meta'],
      description: 'The files the pages load, by name; unknown names → 404 `{"detail": ...}`.',
      params: [{ name: 'file', in: 'path', required: true, description: 'e.g. app.js' }],
      responses: {
        200: { description: 'The file' },
        304: NOT_MODIFIED,
        404: { description: 'No such file', schema: ErrorDetail },
      },
    },
  };
  return [...pages, file];
}

/** GET /api and GET /api/assets/{file}: the service's API reference, one handler (lambdas/<service>/handlers/api.ts). */
export function apiRoutes(
  o: Pick<RouteSpec, 'handler' | 'memoryMb' | 'timeoutS' | 'packaging'>,
): [RouteSpec, RouteSpec] {
  const docs: RouteSpec = {
    id: 'ApiDocs',
    method: 'GET',
    path: '/api',
    access: {},
    ...o,
    docs: API_DOCS_ROUTE_DOC,
  };
  return [docs, { ...docs, id: 'ApiAsset', path: '/api/assets/{file}', docs: API_ASSET_ROUTE_DOC }];
}

/** ANY $default: what the manifest does not route (404, 405 with Allow, CORS preflight), served by the pages' file. */
export function notFoundRoute(handler: string): RouteSpec {
  return { id: 'NotFound', method: 'ANY', path: '$default', handler, memoryMb: 128, timeoutS: 3, access: {} };
}

/** GET /stats: the service's public counters (counter items of the growth table, read-only: no scans). */
export function statsRoute(o: {
  /** Logical id (CDK construct id: keep it stable). */
  id: string;
  handler: string;
  tag: string;
  /** What it counts. */
  description: string;
  response: ResponseDoc;
}): RouteSpec {
  return {
    id: o.id,
    method: 'GET',
    path: '/stats',
    handler: o.handler,
    memoryMb: 256,
    timeoutS: 5,
    access: { tables: { growth: 'r' } },
    docs: {
      summary: 'Public statistics',
      tags: [o.tag],
      description: o.description,
      responses: { 200: o.response },
    },
  };
}
