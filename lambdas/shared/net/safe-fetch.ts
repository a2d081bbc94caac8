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
// Address classification uses ipaddr.js (the range tables proxy-addr/Express rely on; ~300 M downloads a month)
// rather than hand-written regular expressions.
import { lookup as dnsLookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';

// ───────────────────────────── errors ─────────────────────────────

export type FetchRefusal =
  | 'invalid_url' // not a parseable absolute URL
  | 'scheme' // not http/https
  | 'credentials' // user:password@ in the URL
  | 'port' // a port other than 80/443 to a destination not on the allowlist
  | 'address' // resolves to (or is) a non-public address
  | 'dns' // the name does not resolve
  | 'dns_unavailable' // the resolver failed (our side, retryable)
  | 'network' // connection refused/reset, TLS failure
  | 'timeout'
  | 'too_many_redirects'
  | 'bad_redirect' // 3xx without a usable Location
  | 'http_status' // the final answer is not 2xx
  | 'content_type'
  | 'too_large';

/** A fetch that was refused or failed. `message` is safe to show the caller and names what to do instead. */
export class SafeFetchError extends Error {
  constructor(
    readonly code: FetchRefusal,
    message: string,
    /** The final answer's status for 'http_status'. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

// ───────────────────────────── address policy (pure) ─────────────────────────────

export interface AddressClass {
  /** ipaddr.js range name ('unicast', 'loopback', 'private', ...), or 'invalid'; for addresses that embed an
   * IPv4 address, `<outer>:<inner range>` e.g. 'ipv4Mapped:loopback'. */
  range: string;
  /** True only for globally routable unicast addresses. */
  public: boolean;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * IPv6 text in pure hex form, as the WHATWG URL serializer writes it. ipaddr.js reads any dotted-quad tail as
 * IPv4-mapped (`::127.0.0.1` → ::ffff:7f00:1) while the kernel connects to ::7f00:1, so the tail is converted first.
 */
function canonical(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const [addr, zone] = ip.split('%') as [string, string | undefined];
  const hex = new URL(`http://[${addr}]/`).hostname.slice(1, -1);
  return zone === undefined ? hex : `${hex}%${zone}`;
}

function classifyV4(a: ipaddr.IPv4): AddressClass {
  const range = a.range();
  return { range, public: range === 'unicast' };
}

/** Classifies an IP address (v4 or v6, optionally in [brackets] or with a %zone). No DNS, no sockets. */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // Only canonical literals: ipaddr.js alone also accepts 4-part decimal/hex/octal forms, but what reaches us is
  // a WHATWG-normalised hostname or a resolver's answer, both dotted-quad or RFC 5952.
  if (!isIP(bare.split('%')[0]!)) return { range: 'invalid', public: false };
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(canonical(bare));
  } catch {
    return { range: 'invalid', public: false };
  }
  if (addr.kind() === 'ipv4') return classifyV4(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  const bytes = v6.toByteArray();
  const v4At = (offset: number) => new ipaddr.IPv4(bytes.slice(offset, offset + 4));
  switch (range) {
    case 'rfc6052':
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': {
      // The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) belongs to private networks and places the IPv4
      // address elsewhere: refused. ::ffff:a.b.c.d, ::ffff:0:a.b.c.d (SIIT) and the well-known NAT64 prefix
      // 64:ff9b::/96 hold it in the last 32 bits, where a translator would carry the packet: that address decides.
      if (range === 'rfc6052' && !v6.match(WELL_KNOWN_NAT64))
        return { range: 'rfc6052:localUse', public: false };
      const inner = classifyV4(v4At(12));
      return { range: `${range}:${inner.range}`, public: inner.public };
    }
    case '6to4': // 2002:AABB:CCDD::/16 → relays to a.b.c.d
    case 'teredo': {
      // Tunnel prefixes carry an IPv4 destination to whatever relay is reachable; no web page needs them.
      const inner = classifyV4(range === '6to4' ? v4At(2) : v4At(4));
      return { range: `${range}:${inner.range}`, public: false };
    }
    case 'unicast':
      // Outside 2000::/3 nothing is globally routed: that includes the deprecated IPv4-compatible ::a.b.c.d.
      return {
        range: v6.match(GLOBAL_UNICAST_V6) ? 'unicast' : 'notGlobal',
        public: v6.match(GLOBAL_UNICAST_V6),
      };
    default:
      return { range, public: false };
  }
}

// ───────────────────────────── allowlist ─────────────────────────────

/** One URL_FETCH_ALLOWLIST entry: a host name, an IP or a CIDR, optionally limited to one port. */
export interface AllowEntry {
  host?: string;
  cidr?: [ipaddr.IPv4 | ipaddr.IPv6, number];
  port?: number;
  /** As written, for messages. */
  source: string;
}

export type Allowlist = readonly AllowEntry[];

export class AllowlistError extends Error {}

function parsePort(s: string, entry: string): number {
  const n = Number(s);
  if (!/^\d{1,5}$/.test(s) || n < 1 || n > 65535)
    throw new AllowlistError(`URL_FETCH_ALLOWLIST entry '${entry}' has an invalid port '${s}'.`);
  return n;
}

/** Normalised form of an IP for comparisons (IPv4-mapped IPv6 compares as its IPv4). */
function normalIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return ipaddr.process(canonical(ip.startsWith('[') ? ip.slice(1, -1) : ip));
}

/**
 * Parses URL_FETCH_ALLOWLIST: comma-separated `host`, `host:port`, `1.2.3.4`, `1.2.3.4:port`, `[::1]`,
 * `[::1]:port`, `::1`, `10.0.0.0/8`, `fd00::/8`. Entries exempt a destination from the address and port rules
 * (never from the scheme, credentials, size, type or timeout rules). Meant for local tests and self-hosted
 * setups; in the cloud it stays empty.
 */
export function parseAllowlist(spec: string | undefined): Allowlist {
  const out: AllowEntry[] = [];
  for (const raw of (spec ?? '').split(',')) {
    const source = raw.trim();
    if (!source) continue;
    const entry: AllowEntry = { source };
    let rest = source;
    const bracket = /^\[([^\]]+)\](?::(.+))?$/.exec(rest);
    if (bracket) {
      rest = bracket[1]!;
      if (bracket[2] !== undefined) entry.port = parsePort(bracket[2], source);
    } else if (rest.split(':').length === 2) {
      // host:port or v4:port (a bare IPv6 has several colons)
      const [h, p] = rest.split(':') as [string, string];
      rest = h;
      entry.port = parsePort(p, source);
    }
    if (rest.includes('/')) {
      try {
        const [addr, bits] = ipaddr.parseCIDR(rest);
        entry.cidr = [addr, bits];
      } catch {
        throw new AllowlistError(`URL_FETCH_ALLOWLIST entry '${source}' is not a valid CIDR range.`);
      }
    } else if (isIP(rest)) {
      const addr = normalIp(rest);
      entry.cidr = [addr, addr.kind() === 'ipv4' ? 32 : 128];
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(rest)) {
      entry.host = rest.toLowerCase().replace(/\.$/, '');
    } else {
      throw new AllowlistError(
        `URL_FETCH_ALLOWLIST entry '${source}' is not a host name, IP address or CIDR range (separate entries with commas).`,
      );
    }
    out.push(entry);
  }
  return Object.freeze(out);
}

const parsedAllowlists = new Map<string, Allowlist>();
/** Parsed once per distinct value (config is read once per process; tests may change it). */
export function allowlistFrom(spec: string | undefined): Allowlist {
  const key = spec ?? '';
  let list = parsedAllowlists.get(key);
  if (!list) parsedAllowlists.set(key, (list = parseAllowlist(key)));
  return list;
}

function portMatches(entry: AllowEntry, port: number | undefined): boolean {
  return entry.port === undefined || entry.port === port;
}

function ipInEntry(ip: string, entry: AllowEntry): boolean {
  if (!entry.cidr) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = normalIp(ip.split('%')[0]!);
  } catch {
    return false;
  }
  const [net, bits] = entry.cidr;
  return addr.kind() === net.kind() && addr.match(net, bits);
}

/** True when the allowlist names this host (by name) for this port. */
export function isAllowedHost(host: string, port: number | undefined, allowlist: Allowlist): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowlist.some((e) => e.host === h && portMatches(e, port));
}

/** The rule the fetcher applies to every address it is about to connect to. Pure: no DNS, no sockets. */
export function isAllowedAddress(ip: string, allowlist: Allowlist = [], port?: number): boolean {
  if (allowlist.some((e) => ipInEntry(ip, e) && portMatches(e, port))) return true;
  return classifyAddress(ip).public && (port === undefined || STANDARD_PORTS.has(port));
}

// ───────────────────────────── URL checks ─────────────────────────────

/** Where web pages live. Anything else (SMTP 25, Redis 6379, admin consoles...) only via the allowlist. */
export const STANDARD_PORTS: ReadonlySet<number> = new Set([80, 443]);

export interface Target {
  url: URL;
  /** Hostname without IPv6 brackets. */
  host: string;
  port: number;
  /** Set when the host is an IP literal. */
  ip?: string;
}

/** Scheme, credentials, port and IP-literal checks that need no DNS. Throws SafeFetchError. */
export function checkUrl(input: string | URL, allowlist: Allowlist = []): Target {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new SafeFetchError(
      'invalid_url',
      'The URL is not a valid absolute address. Give the full address, starting with https://.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SafeFetchError(
      'scheme',
      `Only http:// and https:// addresses can be fetched, not ${url.protocol}//. Give the web address of the page.`,
    );
  if (url.username || url.password)
    throw new SafeFetchError(
      'credentials',
      'Addresses with a user name or password (user:pass@host) are not fetched. Give the public address of the page.',
    );
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const target: Target = { url, host, port };
  if (isIP(host)) {
    target.ip = host;
    assertDestination(host, host, port, allowlist);
  } else if (!host) {
    throw new SafeFetchError('invalid_url', 'The URL has no host name. Give the full address of the page.');
  }
  return target;
}

function assertDestination(host: string, ip: string, port: number, allowlist: Allowlist): void {
  if (isAllowedHost(host, port, allowlist) || isAllowedAddress(ip, allowlist, port)) return;
  const cls = classifyAddress(ip);
  if (!cls.public)
    throw new SafeFetchError(
      'address',
      `${isIP(host) ? `The address ${host} is` : `The host '${host}' resolves to an address that is`} not on the public internet (${cls.range}); this service only fetches public web pages.`,
    );
  throw new SafeFetchError(
    'port',
    `Port ${port} is not fetched: only the standard web ports 80 (http) and 443 (https). Give the page's usual address.`,
  );
}

// ───────────────────────────── the fetcher ─────────────────────────────

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Name → addresses. The default asks the system resolver; tests pass a stub (no packet leaves the machine). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Test helper: a resolver answering from a table, failing like DNS for any other name. */
export function stubResolver(table: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const addrs = table[hostname.toLowerCase()];
    if (!addrs?.length)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addrs.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  };
}

/**
 * The destination checks safeFetch makes (URL rules, then every address the name resolves to), without connecting:
 * for validating a URL when it is saved, e.g. a webhook endpoint at registration. safeFetch checks again when it
 * connects (the name may resolve differently by then). Throws SafeFetchError ('dns' / 'dns_unavailable' when the
 * name does not resolve).
 */
export async function checkDestination(
  input: string | URL,
  options: { allowlist?: Allowlist; resolver?: Resolver } = {},
): Promise<Target & { addresses: string[] }> {
  const allowlist = options.allowlist ?? [];
  const target = checkUrl(input, allowlist);
  if (target.ip) return { ...target, addresses: [target.ip] };
  let found: ResolvedAddress[];
  try {
    found = await (options.resolver ?? systemResolver)(target.host);
  } catch (err) {
    throw networkError(err, target.host);
  }
  if (!found.length)
    throw networkError(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), target.host);
  for (const a of found) assertDestination(target.host, a.address, target.port, allowlist);
  return { ...target, addresses: found.map((a) => a.address) };
}

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

/** Maps socket-level failures to refusals the caller can act on. */
function networkError(err: unknown, host: string): SafeFetchError {
  if (err instanceof SafeFetchError) return err;
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'ENODATA')
    return new SafeFetchError('dns', `The host name '${host}' does not exist. Check the address for typos.`);
  if (code === 'EAI_AGAIN')
    return new SafeFetchError(
      'dns_unavailable',
      `The host name '${host}' could not be resolved just now. Please retry in a moment.`,
    );
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'EPROTO')
    return new SafeFetchError(
      'network',
      `The secure connection to '${host}' failed (${code}). Check the address, or try its http:// form if the site has no valid certificate.`,
    );
  return new SafeFetchError(
    'network',
    `The site '${host}' could not be reached (${code || 'connection failed'}). Check that the address opens in a browser.`,
  );
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
      if (options.skipBody) {
        res.destroy();
        return {
          url: target.url.href,
          status,
          headers: res.headers,
          mediaType: String(res.headers['content-type'] ?? '')
            .split(';')[0]!
            .trim()
            .toLowerCase(),
          body: Buffer.alloc(0),
          redirects,
        };
      }
      const contentType = String(res.headers['content-type'] ?? '');
      const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
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
