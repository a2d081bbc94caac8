// The destination checks of the SSRF boundary (safe-fetch.ts) that run before a byte is sent: the URL rules, the
// address of an IP literal, every address a name resolves to, and the refusals a caller can act on.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, isAllowedAddress, isAllowedHost, type Allowlist } from './address-policy';

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

// ───────────────────────────── URL checks ─────────────────────────────

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

/** Throws the refusal for a destination the policy does not allow. */
export function assertDestination(host: string, ip: string, port: number, allowlist: Allowlist): void {
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

// ───────────────────────────── resolution ─────────────────────────────

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

/** Maps socket-level failures to refusals the caller can act on. */
export function networkError(err: unknown, host: string): SafeFetchError {
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
