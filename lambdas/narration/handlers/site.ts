// GET / (and the other page paths below) and GET /site/{file}: the Spanish web front, built into a string module
// (lambdas/narration/site/files.generated.ts, `npm run build:site`) and served with a strict CSP by the platform's
// static-site handler. CSP additions, for the embed player (GET /embed.js) the pages show: media-src and
// connect-src allow the bucket's origin (the emulator's locally, S3's in the cloud): audio plays from presigned
// bucket URLs, and the player fetches HLS segments. Its styles need nothing: they are constructed style sheets
// (adoptedStyleSheets), which style-src does not govern (docs/embed.md, "Pages with a Content-Security-Policy").
import { bucketOrigin, pageSecurityHeaders, staticSiteHandler } from '../../shared/http/static-assets';
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
  return staticSiteHandler(
    SITE_FILES,
    PAGES,
    pageSecurityHeaders({ 'media-src': [bucket], 'connect-src': [bucket] }),
  );
};

export const handler = makeHandler();
