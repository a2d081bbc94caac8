// The people-facing pages of a service, read from its manifest: the routes its SitePage handler serves (no path
// parameter: `/`, `/panel`, …) plus `/api`. Used by the web benchmark (bench/web.bench.ts) and the screenshots
// (scripts/screenshots.ts), so a new page is measured and photographed without touching either.
import type { ServiceManifest } from '../lambdas/shared/manifest';

export function pagesOf(manifest: ServiceManifest): string[] {
  const site = manifest.routes.find((r) => r.id === 'SitePage');
  const pages = site
    ? manifest.routes.filter((r) => r.handler === site.handler && r.method === 'GET' && !r.path.includes('{'))
    : [];
  const api = manifest.routes.filter((r) => r.method === 'GET' && r.path === '/api');
  return [...new Set([...pages, ...api].map((r) => r.path))];
}

/** A file-name part for a page path: `/` → home, `/panel` → panel, `/pay/success` → pay-success. */
export const pageSlug = (path: string): string => path.replace(/^\/|\/$/g, '').replace(/\//g, '-') || 'home';
