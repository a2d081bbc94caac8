// The DNS half of the tests' network rule. test/helpers/loopback-only.ts stops TCP connections to anything but
// loopback; this stops name lookups from reaching a resolver: while installed, dns.lookup (what net.connect,
// http and the SDKs use) and dns/promises.lookup answer IP literals and `localhost` locally and fail every other
// name with ENOTFOUND, recording it. The fuzzer passes hostile URLs to /convert/url, so a route that fetched with
// the system resolver would otherwise send a query for whatever name it was given.
import dns from 'node:dns';
import dnsPromises from 'node:dns/promises';
import { isIP } from 'node:net';

export interface DnsGuard {
  /** Names something tried to resolve, in order. */
  readonly attempts: string[];
  uninstall(): void;
}

type Callback = (err: NodeJS.ErrnoException | null, address?: unknown, family?: number) => void;

function local(hostname: string): { address: string; family: 4 | 6 } | undefined {
  const h = hostname.replace(/^\[|\]$/g, '');
  const v = isIP(h);
  if (v) return { address: h, family: v as 4 | 6 };
  if (h.toLowerCase() === 'localhost') return { address: '127.0.0.1', family: 4 };
  return undefined;
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (blocked by the tests' DNS guard)`), {
    code: 'ENOTFOUND',
    hostname,
  });
}

export function installDnsGuard(): DnsGuard {
  const attempts: string[] = [];
  const original = { lookup: dns.lookup, promisesLookup: dnsPromises.lookup };

  const lookup = function (hostname: string, options: unknown, callback?: Callback) {
    const cb = (typeof options === 'function' ? options : callback) as Callback;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    const hit = local(hostname);
    process.nextTick(() => {
      if (!hit) {
        attempts.push(hostname);
        return cb(notFound(hostname));
      }
      if (all) cb(null, [hit]);
      else cb(null, hit.address, hit.family);
    });
  };
  const promisesLookup = async (hostname: string, options?: { all?: boolean }) => {
    const hit = local(hostname);
    if (!hit) {
      attempts.push(hostname);
      throw notFound(hostname);
    }
    return options?.all ? [hit] : hit;
  };
  (dns as { lookup: unknown }).lookup = lookup;
  (dnsPromises as { lookup: unknown }).lookup = promisesLookup;
  return {
    attempts,
    uninstall() {
      (dns as { lookup: unknown }).lookup = original.lookup;
      (dnsPromises as { lookup: unknown }).lookup = original.promisesLookup;
    },
  };
}
