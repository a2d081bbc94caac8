// Serving files built into a function (the embeddable player, the services' web pages): one representation per
// file, compressed here (brotli, else gzip) because API Gateway HTTP APIs do not compress, a weak ETag with 304 on
// If-None-Match, and the security headers a page needs (strict CSP, HSTS, no framing, no sniffing). Compressed
// bodies are computed once per cold start. The files come from generated string modules (scripts/build-site.ts,
// lambdas/narration/widget/build.ts), so a Lambda bundle carries them with no file to copy.
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import { apiHandler, type RouteFn } from './api-handler';
import type { ApiRequest } from './request';
import { json, type ApiResult } from './response';

export type Encoding = 'br' | 'gzip' | 'identity';

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

/** A file as a generated module holds it: text as is, binary (fonts, images) as base64. */
export interface StaticFile {
  type: string;
  body: string;
  base64?: boolean;
  /** `body` is the file brotli-compressed, as base64 (big files: no brotli at cold start; gzip made on demand). */
  brotli?: boolean;
  /** Cache-Control for this file; pages default to a short cache, fingerprinted assets to a long one. */
  cacheControl?: string;
}

/** A prepared file: its ETag and every encoding's body, computed once. */
interface Prepared {
  file: StaticFile;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>>;
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;

function prepare(file: StaticFile): Prepared {
  if (file.brotli) {
    const br = Buffer.from(file.body, 'base64');
    const identity = brotliDecompressSync(br);
    return { file, etag: etagOf(identity), bodies: { identity, br } };
  }
  const identity = Buffer.from(file.body, file.base64 ? 'base64' : 'utf8');
  const bodies: Prepared['bodies'] = { identity };
  if (COMPRESSIBLE.test(file.type) && identity.length > 512) {
    bodies.gzip = gzipSync(identity, { level: 9 });
    bodies.br = brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  }
  return { file, etag: etagOf(identity), bodies };
}

const etagOf = (identity: Buffer) =>
  `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;

/** Answers one prepared file: 304 on a matching If-None-Match, else the best encoding the client accepts. */
function answer(p: Prepared, req: ApiRequest, headers: Record<string, string>): ApiResult {
  const common = {
    etag: p.etag,
    'cache-control': p.file.cacheControl ?? 'public, max-age=300',
    vary: 'accept-encoding',
    ...headers,
  };
  if (matchesEtag(req.headers['if-none-match'], p.etag))
    return { statusCode: 304, headers: common, body: '' };
  const wanted = pickEncoding(req.headers['accept-encoding']);
  if (wanted === 'gzip' && p.file.brotli) p.bodies.gzip ??= gzipSync(p.bodies.identity!);
  const encoding: Encoding = p.bodies[wanted] ? wanted : 'identity';
  const body = p.bodies[encoding]!;
  const out: Record<string, string> = {
    ...common,
    'content-type': p.file.type,
    'x-content-type-options': 'nosniff',
  };
  if (encoding !== 'identity') out['content-encoding'] = encoding;
  if (encoding === 'identity' && !p.file.base64 && !p.file.brotli)
    return { statusCode: 200, headers: out, body: p.file.body };
  return { statusCode: 200, headers: out, body: body.toString('base64'), isBase64Encoded: true };
}

/** GET of one built-in file (e.g. /embed.js), with extra headers (CORP for a cross-origin script). */
export function staticFileHandler(file: StaticFile, headers: Record<string, string> = {}) {
  const prepared = prepare(file);
  return apiHandler(async (req) => answer(prepared, req, headers));
}

/**
 * The origin presigned bucket URLs point at, for a page's CSP: the S3 endpoint the SDK is given (the local
 * emulator), else S3 itself.
 */
export function bucketOrigin(env: NodeJS.ProcessEnv = process.env): string {
  const endpoint = env['AWS_ENDPOINT_URL_S3'] ?? env['AWS_ENDPOINT_URL'];
  return endpoint ? new URL(endpoint).origin : 'https://*.amazonaws.com';
}

/**
 * Security headers of every page: a strict Content-Security-Policy (only our own scripts and styles, no inline
 * script; `extra` adds sources per directive, e.g. the audio bucket's origin to media-src), HSTS, no framing, no
 * MIME sniffing, no referrer beyond the origin, no powerful features.
 */
export function pageSecurityHeaders(extra: Partial<Record<string, string[]>> = {}): Record<string, string> {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'media-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  for (const [name, sources] of Object.entries(extra))
    directives[name] = [...(directives[name] ?? []), ...sources!];
  const csp = Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
  return {
    'content-security-policy': csp,
    'strict-transport-security': 'max-age=63072000; includeSubDomains',
    'x-frame-options': 'DENY',
    // Also on the site's JSON 404s, not only on the files (answer() sets it there too).
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/**
 * GET of a site's files: `pages` maps request paths (`/`, `/panel`) to a file name, and `/site/{file}` (the
 * route's `file` path parameter) serves any file of `files` by name. Unknown names answer 404 in the contract's
 * `{"detail": ...}` shape. `headers` are added to every answer (pageSecurityHeaders()).
 */
export function staticSiteHandler(
  files: Record<string, StaticFile>,
  pages: Record<string, string>,
  headers: Record<string, string>,
) {
  return apiHandler(staticSite(files, pages, headers));
}

/** staticSiteHandler's route function, for a handler that answers some requests itself (GET /api's JSON). */
export function staticSite(
  files: Record<string, StaticFile>,
  pages: Record<string, string>,
  headers: Record<string, string>,
): RouteFn {
  const prepared = new Map(Object.entries(files).map(([name, file]) => [name, prepare(file)]));
  return async (req) => {
    const name = req.pathParams['file'] ?? pages[req.path.replace(/(.)\/$/, '$1')];
    const p = name === undefined ? undefined : prepared.get(name);
    if (!p) return json(404, { detail: `Not found: ${req.path}` }, headers);
    return answer(p, req, headers);
  };
}
