// GET /embed.js — the embeddable player (lambdas/narration/widget/embed.js, minified into embed.generated.ts).
// Every blog page view that embeds it asks for it, so it is built to be cached (lambdas/shared/http/static-assets.ts):
// a weak ETag over the script (the same for every encoding: they are one representation), 304 on a matching
// If-None-Match, `public, max-age=3600, stale-while-revalidate=86400` (a new version reaches readers within an
// hour), compressed once per cold start (brotli, else gzip). Cross-origin-resource-policy lets pages that isolate
// themselves (COEP) load it too.
import { staticFileHandler } from '../../shared/http/static-assets';
import { EMBED_JS } from '../widget/embed.generated';

export { matchesEtag, pickEncoding } from '../../shared/http/static-assets';

export const CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

export const makeHandler = (script: string = EMBED_JS) =>
  staticFileHandler(
    { type: 'application/javascript; charset=utf-8', body: script, cacheControl: CACHE_CONTROL },
    { 'cross-origin-resource-policy': 'cross-origin' },
  );

export const handler = makeHandler();
