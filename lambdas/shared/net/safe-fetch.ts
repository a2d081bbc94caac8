// THE SSRF BOUNDARY. Every server-side request to an address a caller chose goes through safeFetch(): the article
// pages of POST /convert/url, and (later) the documents service's webhook callbacks. Nothing else in the code base
// may open such a connection.
//
// What it guarantees, per hop (the first request and every redirect):
// - http: and https: only; no user:password@ in the URL; ports 80 and 443 only, unless URL_FETCH_ALLOWLIST names
//   the destination.
// - The address actually connected to is a public unicast address. The check runs INSIDE the socket's `lookup`
//   (the http/https Agent's resolver hook), so the addresses checked are the addresses connected to: no window
//   between a check and a second DNS answer (DNS rebinding). IP literals, which never reach `lookup`, are checked
//   before the request; the socket's peer address is checked again once connected (belt and braces).
// - Refused: loopback, RFC 1918 private, link-local (169.254.169.254, the cloud metadata service), CGNAT
//   100.64/10, multicast, broadcast, unspecified, reserved and benchmarking ranges, IPv6 unique-local fc00::/7 and
//   link-local fe80::/10, IPv4-mapped/-translated IPv6 and NAT64 (64:ff9b::/96) holding any of those, local-use NAT64,
//   6to4 and Teredo (tunnels to arbitrary IPv4, never needed to reach a web page), IPv4-compatible ::a.b.c.d and
//   anything outside 2000::/3. Decimal, hex and octal host forms (2130706433, 0x7f000001, 0177.0.0.1, 127.1)
//   are normalised by WHATWG URL parsing to dotted IPv4 first, so they are classified like 127.0.0.1.
// - Redirects are followed by hand (at most 5), each target re-validated as above; credentials headers are dropped
//   when a redirect changes origin.
// - Connect timeout and a total deadline; body capped in bytes while streaming, counted after decompression (a
//   gzip/deflate/br bomb stops at the cap); Content-Type must be one the caller accepts (HTML by default).
//
// The pure address policy is in address-policy.ts, the checks made before connecting in destination.ts; this module
// is the fetcher and the one import for callers.
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { isAllowedAddress, isAllowedHost, type Allowlist } from './address-policy';
import {
  SafeFetchError,
  assertDestination,
  checkUrl,
  networkError,
  systemResolver,
  type Resolver,
  type Target,
} from './destination';

export * from './address-policy';
export * from './destination';

export const HTML_TYPES = ['text/html', 'application/xhtml+xml'] as const;

export interface SafeFetchOptions {
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Media types accepted for a 2xx answer (parameters ignored); null accepts any. @default HTML_TYPES */
  accept?: readonly string[] | null;
  /** Throw 'http_status' for a final non-2xx answer. @default true */
  requireOk?: boolean;
  /** @default 5 */
  maxRedirects?: number;
  /** Per connection. @default 5000 */
  connectTimeoutMs?: number;
  /** Whole fetch, redirects and body included. @default 10000 */
  totalTimeoutMs?: number;
  /** Body cap in bytes, counted after decompression. @default 5 MiB */
  maxBytes?: number;
  /** Destinations exempt from the address/port rules. @default none */
  allowlist?: Allowlist;
  /** @default systemResolver */
  resolver?: Resolver;
  userAgent?: string;
  /**
   * Resolve as soon as the final answer's status line and headers arrive; the body is discarded unread (`body` is
   * empty, `accept` and `maxBytes` are not applied). For callers that only need the status: webhook deliveries.
   */
  skipBody?: boolean;
}

export interface FetchedPage {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Lower-cased media type without parameters ('' when absent). */
  mediaType: string;
  /** The charset parameter of Content-Type, if any. */
  charset?: string;
  /** Decompressed body. */
  body: Buffer;
  /** Each URL redirected to, in order. */
  redirects: string[];
}

export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (compatible; NarracionBot/1.0; reads articles aloud for its users)';

const DEFAULTS = {
  maxRedirects: 5,
  connectTimeoutMs: 5000,
  totalTimeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Request headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function mib(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : `${Math.round(n / 1024)} KiB`;
}

/**
 * Fetches `input` under the SSRF policy above. Resolves with the final 2xx page (body decompressed and capped);
 * rejects with SafeFetchError for every refusal or failure.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<FetchedPage> {
  const allowlist = options.allowlist ?? [];
  const resolver = options.resolver ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const totalMs = options.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs;
  const deadline = new AbortController();
  const timer = setTimeout(
    () =>
      deadline.abort(
        new SafeFetchError(
          'timeout',
          `The site took longer than ${Math.round(totalMs / 100) / 10} s to send the page. Try again later.`,
        ),
      ),
    totalMs,
  );
  try {
    let method = options.method ?? 'GET';
    let body = options.body;
    const headers: Record<string, string> = {
      'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
      accept:
        options.accept === null
          ? '*/*'
          : (options.accept ?? HTML_TYPES).map((t, i) => (i ? `${t};q=0.9` : t)).join(', '),
      'accept-language': 'es, en;q=0.5',
      'accept-encoding': 'gzip, deflate, br',
      ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    };
    const redirects: string[] = [];
    let target = checkUrl(input, allowlist);
    for (;;) {
      const res = await request(
        target,
        { method, headers, body },
        options,
        allowlist,
        resolver,
        deadline.signal,
      );
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        res.destroy();
        const location = res.headers.location;
        if (!location)
          throw new SafeFetchError(
            'bad_redirect',
            `The page redirected (${status}) without saying where to.`,
          );
        if (redirects.length >= maxRedirects)
          throw new SafeFetchError(
            'too_many_redirects',
            `The page redirected more than ${maxRedirects} times. Give the address the browser finally shows.`,
          );
        let next: URL;
        try {
          next = new URL(location, target.url);
        } catch {
          throw new SafeFetchError('bad_redirect', `The page redirected to an invalid address.`);
        }
        const nextTarget = checkUrl(next, allowlist);
        if (nextTarget.url.origin !== target.url.origin)
          for (const h of CREDENTIAL_HEADERS) delete headers[h];
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        redirects.push(nextTarget.url.href);
        target = nextTarget;
        continue;
      }
      const contentType = String(res.headers['content-type'] ?? '');
      const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
      if (options.skipBody) {
        res.destroy();
        return {
          url: target.url.href,
          status,
          headers: res.headers,
          mediaType,
          body: Buffer.alloc(0),
          redirects,
        };
      }
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
      const ok = status >= 200 && status < 300;
      if (!ok && options.requireOk !== false) {
        res.destroy();
        throw new SafeFetchError(
          'http_status',
          `The site answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''} instead of the page. Check that the address opens in a browser without logging in.`,
          status,
        );
      }
      const accept = options.accept === undefined ? HTML_TYPES : options.accept;
      if (ok && accept && !accept.includes(mediaType)) {
        res.destroy();
        throw new SafeFetchError(
          'content_type',
          `The address serves ${mediaType || 'content of no declared type'}, not ${accept.join(' or ')}.`,
        );
      }
      const bodyBytes = await readCapped(
        res,
        options.maxBytes ?? DEFAULTS.maxBytes,
        deadline.signal,
        target.host,
      );
      return {
        url: target.url.href,
        status,
        headers: res.headers,
        mediaType,
        ...(charset ? { charset: charset.toLowerCase() } : {}),
        body: bodyBytes,
        redirects,
      };
    }
  } finally {
    clearTimeout(timer);
  }
}

/** One hop: connects under the address policy and resolves with the response head. */
function request(
  target: Target,
  req: { method: string; headers: Record<string, string>; body?: string | Buffer },
  options: SafeFetchOptions,
  allowlist: Allowlist,
  resolver: Resolver,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  // Resolution and the address check happen here, inside the socket's connect: what is checked is what is used.
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolver(hostname)
      .then((found) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const addrs = family ? found.filter((a) => a.family === family) : found;
        if (!addrs.length)
          throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
        // One refused address refuses the name: a name that mixes public and private answers is an attack.
        for (const a of addrs) assertDestination(hostname, a.address, target.port, allowlist);
        if (lookupOptions.all) callback(null, addrs);
        else callback(null, addrs[0]!.address, addrs[0]!.family);
      })
      .catch((err: unknown) => callback(err as NodeJS.ErrnoException, ''));
  };
  const isHttps = target.url.protocol === 'https:';
  // A fresh agent per hop without keep-alive: no pooled socket is ever reused for another destination.
  const agent = isHttps
    ? new https.Agent({ keepAlive: false, lookup, maxSockets: 1 })
    : new http.Agent({ keepAlive: false, lookup, maxSockets: 1 });
  const headers: Record<string, string> = { ...req.headers, host: target.url.host };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));

  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const send = isHttps ? https.request : http.request;
    const clientReq = send({
      protocol: target.url.protocol,
      hostname: target.ip ?? target.host,
      port: target.port,
      path: target.url.pathname + target.url.search,
      method: req.method,
      headers,
      agent,
      ...(isHttps && !target.ip ? { servername: target.host } : {}),
    });
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      cleanup();
      clientReq.destroy();
      agent.destroy();
      reject(networkError(err, target.host));
    };
    const connectTimer = setTimeout(
      () =>
        fail(
          new SafeFetchError(
            'timeout',
            `The site '${target.host}' did not accept a connection within ${(options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs) / 1000} s. Try again later.`,
          ),
        ),
      options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    );
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
    };
    clientReq.on('socket', (socket: Socket) => {
      const verify = () => {
        clearTimeout(connectTimer);
        // The peer actually connected to, whatever path led here.
        const peer = socket.remoteAddress;
        if (
          !peer ||
          !(
            isAllowedHost(target.host, target.port, allowlist) ||
            isAllowedAddress(peer, allowlist, target.port)
          )
        )
          fail(
            new SafeFetchError(
              'address',
              `The connection reached an address that is not on the public internet; this service only fetches public web pages.`,
            ),
          );
      };
      if (socket.connecting) socket.once('connect', verify);
      else verify();
    });
    clientReq.on('error', fail);
    clientReq.on('response', (res) => {
      if (settled) return res.destroy();
      settled = true;
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
      const onAbortBody = () => res.destroy(signal.reason as Error);
      signal.addEventListener('abort', onAbortBody, { once: true });
      res.once('close', () => {
        signal.removeEventListener('abort', onAbortBody);
        agent.destroy();
      });
      resolve(res);
    });
    clientReq.end(req.body);
  });
}

/** Reads the body through the right decompressor, stopping as soon as the decoded size passes `max`. */
function readCapped(
  res: http.IncomingMessage,
  max: number,
  signal: AbortSignal,
  host: string,
): Promise<Buffer> {
  const tooLarge = () =>
    new SafeFetchError('too_large', `The page is larger than ${mib(max)}, the most this service reads.`);
  const declared = Number(res.headers['content-length']);
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (Number.isFinite(declared) && declared > max && (encoding === 'identity' || encoding === '')) {
    res.destroy();
    return Promise.reject(tooLarge());
  }
  let stream: Readable = res;
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = zlib.createGunzip();
  else if (encoding === 'deflate') decoder = zlib.createInflate();
  else if (encoding === 'br') decoder = zlib.createBrotliDecompress();
  else if (encoding !== 'identity' && encoding !== '') {
    res.destroy();
    return Promise.reject(
      new SafeFetchError('content_type', `The site sent the page in an unsupported encoding (${encoding}).`),
    );
  }
  if (decoder) stream = res.pipe(decoder);

  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let rawSize = 0;
    let done = false;
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      if (err) {
        res.destroy();
        decoder?.destroy();
        // Past the deadline, whatever broke the stream was our own abort: report the timeout.
        reject(networkError(signal.aborted ? signal.reason : err, host));
      } else resolve(Buffer.concat(chunks, size));
    };
    const onAbort = () => finish(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    // Count what arrives and what it decompresses to: the cap holds for both.
    if (decoder)
      res.on('data', (c: Buffer) => {
        rawSize += c.length;
        if (rawSize > max) finish(tooLarge());
      });
    stream.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > max) return finish(tooLarge());
      chunks.push(c);
    });
    stream.on('end', () => finish());
    stream.on('error', (e) =>
      finish(
        decoder
          ? new SafeFetchError(
              'network',
              `The site sent a corrupt compressed page (${(e as Error).message}).`,
            )
          : e,
      ),
    );
    res.on('aborted', () =>
      finish(new SafeFetchError('network', 'The site closed the connection mid-page.')),
    );
    res.on('error', (e) => finish(e));
  });
}
