// GET / (and the other page paths below) and GET /site/{file}: the Spanish web front, built into a string module
// (lambdas/narration/site/files.generated.ts, `npm run build:site`) and served with a strict CSP by the platform's
// static-site handler. CSP additions, each for the embed player (GET /embed.js) the pages show:
// - media-src and connect-src allow the bucket's origin (the emulator's locally, S3's in the cloud): audio plays
//   from presigned bucket URLs, and the player fetches HLS segments;
// - style-src allows, by hash, exactly the player's two <style> elements (its shadow root's and the highlight
//   colours it puts in <head>): no 'unsafe-inline'. The hashes are taken from the served player itself, so they
//   follow it when it changes (test/e2e/site-narration.test.ts fails on any CSP report in the page).
import { createHash } from 'node:crypto';
import { pageSecurityHeaders, staticSiteHandler } from '../../shared/http/static-assets';
import { SITE_FILES } from '../site/files.generated';
import { EMBED_JS } from '../widget/embed.generated';

/** Request path → page file. */
export const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/gracias': 'gracias.html',
  '/panel': 'panel.html',
};

/** Where presigned audio URLs point: the S3 endpoint the SDK is given (emulator), else S3 itself. */
export function bucketOrigin(env: NodeJS.ProcessEnv = process.env): string {
  const endpoint = env['AWS_ENDPOINT_URL_S3'] ?? env['AWS_ENDPOINT_URL'];
  return endpoint ? new URL(endpoint).origin : 'https://*.amazonaws.com';
}

/**
 * CSP hash sources of the style sheets the minified player writes into <style> elements: its string literals
 * that start as its shadow-root CSS (`:host{`) or its highlight colours (`::highlight(`).
 */
export function playerStyleHashes(js: string = EMBED_JS): string[] {
  const sheets = [...js.matchAll(/(["'`])((?::host\{|::highlight\()(?:(?!\1)[^\\])*)\1/g)].map((m) => m[2]!);
  return [...new Set(sheets)].map((css) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`);
}

export const makeHandler = (env: NodeJS.ProcessEnv = process.env) => {
  const bucket = bucketOrigin(env);
  return staticSiteHandler(
    SITE_FILES,
    PAGES,
    pageSecurityHeaders({ 'media-src': [bucket], 'connect-src': [bucket], 'style-src': playerStyleHashes() }),
  );
};

export const handler = makeHandler();
