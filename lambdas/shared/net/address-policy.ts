// The address policy of the SSRF boundary (safe-fetch.ts), pure: no DNS, no sockets. Which addresses are public
// unicast (everything else is refused), and URL_FETCH_ALLOWLIST, the destinations exempt from the address and port
// rules in local tests and self-hosted setups.
//
// Address classification uses ipaddr.js (the range tables proxy-addr/Express rely on; ~300 M downloads a month)
// rather than hand-written regular expressions.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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

/** Where web pages live. Anything else (SMTP 25, Redis 6379, admin consoles...) only via the allowlist. */
export const STANDARD_PORTS: ReadonlySet<number> = new Set([80, 443]);
