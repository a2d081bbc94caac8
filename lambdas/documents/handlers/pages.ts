// GET /, GET /site/{file} and the $default route: the documents playground (Spanish), built from
// lambdas/documents/site/src into a string module (site/files.generated.ts, `npm run build:site`) and served with the
// platform's strict CSP, and 404 / 405 / CORS preflight for what the manifest does not route (from
// ../route-index.generated.ts), by the platform's pages handler (lambdas/shared/http/pages.ts). One CSP addition:
// `frame-src blob:`, because the PDF preview is the rendered file shown in an <iframe> from a blob: URL (the
// browser's own PDF viewer); the PNG preview is an <img> (img-src already allows blob:). And connect-src the bucket's
// origin: a batch's zip goes straight to storage with the presigned POST of POST /v1/batches/upload (the bucket's
// CORS allows that POST). Everything else the page fetches is this API's origin ('self'); object-src stays 'none'.
import { pagesHandler } from '../../shared/http/pages';
import { bucketOrigin, pageSecurityHeaders } from '../../shared/http/static-assets';
import { ROUTE_INDEX } from '../route-index.generated';
import { SITE_FILES } from '../site/files.generated';

/** Request path → page file. */
export const PAGES: Record<string, string> = { '/': 'index.html' };

export const makeHandler = (env: NodeJS.ProcessEnv = process.env) =>
  pagesHandler({
    files: SITE_FILES,
    pages: PAGES,
    headers: pageSecurityHeaders({ 'frame-src': ['blob:'], 'connect-src': [bucketOrigin(env)] }),
    routes: ROUTE_INDEX,
  });

export const handler = makeHandler();
