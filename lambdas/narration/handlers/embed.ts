// GET /embed.js — the embeddable player (lambdas/narration/widget/embed.js, minified into embed.generated.ts).
// Every blog page view that embeds it asks for it, so it is built to be cached: a weak ETag over the script
// (the same for every encoding: they are one representation), 304 on a matching If-None-Match,
// `public, max-age=3600, stale-while-revalidate=86400` (a new version reaches readers within an hour), and
// compressed here (brotli, else gzip) because API Gateway HTTP APIs do not compress. Compressed bodies are computed
// once per cold start. Cross-origin-resource-policy lets pages that isolate themselves (COEP) load it too.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { apiHandler } from '../../shared/http/api-handler';
import type { ApiResult } from '../../shared/http/response';
import { EMBED_JS } from '../widget/embed.generated';

export const CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding to send: brotli, then gzip, when the client accepts it (q > 0); otherwise none. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  const q: Record<string, number> = {};
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q[name] = Number.isFinite(value) ? value : 0;
  }
  const accepts = (enc: string) => (q[enc] ?? q['*'] ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

/** If-None-Match holds `*` or our tag (weak comparison, as RFC 9110 prescribes for If-None-Match). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const ours = opaque(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t) === ours);
}

export const makeHandler = (script: string = EMBED_JS) => {
  const identity = Buffer.from(script, 'utf8');
  const bodies: Record<Encoding, Buffer> = {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  };
  const etag = `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  const common = {
    etag,
    'cache-control': CACHE_CONTROL,
    vary: 'accept-encoding',
  };

  return apiHandler(async (req): Promise<ApiResult> => {
    if (matchesEtag(req.headers['if-none-match'], etag))
      return { statusCode: 304, headers: common, body: '' };
    const encoding = pickEncoding(req.headers['accept-encoding']);
    const headers: Record<string, string> = {
      ...common,
      'content-type': 'application/javascript; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
    };
    if (encoding === 'identity') return { statusCode: 200, headers, body: script };
    return {
      statusCode: 200,
      headers: { ...headers, 'content-encoding': encoding },
      body: bodies[encoding].toString('base64'),
      isBase64Encoded: true,
    };
  });
};

export const handler = makeHandler();
