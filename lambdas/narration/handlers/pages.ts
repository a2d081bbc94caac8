// GET / (and the other page paths below), GET /site/{file} and the $default route: the Spanish web front, built into
// a string module (lambdas/narration/site/files.generated.ts, `npm run build:site`) and served with a strict CSP, and
// 404 / 405 / CORS preflight for what the manifest does not route (from ../route-index.generated.ts), by the
// platform's pages handler (lambdas/shared/http/pages.ts). CSP additions, for the embed player (GET /embed.js) the
// pages show:
// media-src and connect-src allow the bucket's origin (the emulator's locally, S3's in the cloud): audio plays from
// presigned bucket URLs, and the player fetches HLS segments. Its styles need nothing: they are constructed style
// sheets (adoptedStyleSheets), which style-src does not govern (docs/embed.md, "Pages with a Content-Security-Policy").
import { pagesHandler } from '../../shared/http/pages';
import { bucketOrigin, pageSecurityHeaders } from '../../shared/http/static-assets';
import { ROUTE_INDEX } from '../route-index.generated';
import { SITE_FILES } from '../site/files.generated';

/** Request path → page file. */
export const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/gracias': 'gracias.html',
  '/panel': 'panel.html',
};

/** Where presigned audio URLs point (the platform's, shared with the documents playground). */
export { bucketOrigin };

export const makeHandler = (env: NodeJS.ProcessEnv = process.env) => {
  const bucket = bucketOrigin(env);
  return pagesHandler({
    files: SITE_FILES,
    pages: PAGES,
    headers: pageSecurityHeaders({ 'media-src': [bucket], 'connect-src': [bucket] }),
    routes: ROUTE_INDEX,
  });
};

export const handler = makeHandler();
