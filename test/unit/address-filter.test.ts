// The SSRF address policy at filter level: pure functions, no DNS, no sockets.
import {
  SafeFetchError,
  checkUrl,
  classifyAddress,
  isAllowedAddress,
  isAllowedHost,
  parseAllowlist,
} from '../../lambdas/shared/net/safe-fetch';
import { parseConfig } from '../../lambdas/narration/config';

describe('classifyAddress / isAllowedAddress: only public unicast passes', () => {
  const refused: [string, string][] = [
    // IPv4 special ranges
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'], // cloud metadata service
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'], // TEST-NET-1
    ['198.51.100.7', 'reserved'], // TEST-NET-2
    ['203.0.113.9', 'reserved'], // TEST-NET-3
    ['198.18.0.1', 'reserved'], // benchmarking 198.18/15
    ['198.19.255.254', 'reserved'],
    ['192.0.0.8', 'reserved'], // IETF protocol assignments
    // IPv6
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['febf:ffff::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['2001:db8::1', 'reserved'], // documentation
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'discard'],
    // IPv4 inside IPv6
    ['::ffff:127.0.0.1', 'ipv4Mapped:loopback'],
    ['::ffff:7f00:1', 'ipv4Mapped:loopback'],
    ['::ffff:10.0.0.1', 'ipv4Mapped:private'],
    ['::ffff:169.254.169.254', 'ipv4Mapped:linkLocal'],
    ['::ffff:0:127.0.0.1', 'rfc6145:loopback'],
    ['64:ff9b::7f00:1', 'rfc6052:loopback'], // NAT64 → 127.0.0.1
    ['64:ff9b::a00:1', 'rfc6052:private'], // NAT64 → 10.0.0.1
    ['64:ff9b:1::a9fe:a9fe', 'rfc6052:localUse'], // local-use NAT64 prefix: private networks only
    ['64:ff9b:1:808:8:800::', 'rfc6052:localUse'],
    ['2002:7f00:1::1', '6to4:loopback'], // 6to4 of 127.0.0.1
    ['2002:c0a8:101::1', '6to4:private'], // 6to4 of 192.168.1.1
    ['2002:808:808::1', '6to4:unicast'], // 6to4 even of a public address: tunnels are refused
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo:unicast'],
    ['::127.0.0.1', 'notGlobal'], // deprecated IPv4-compatible form
    ['::8.8.8.8', 'notGlobal'],
    ['4000::1', 'notGlobal'], // outside 2000::/3
    // not addresses at all
    ['localhost', 'invalid'],
    ['2130706433', 'invalid'], // decimal form: WHATWG turns it into 127.0.0.1 before it gets here
    ['0x7f000001', 'invalid'],
    ['0177.0.0.1', 'invalid'],
    ['127.1', 'invalid'],
    ['', 'invalid'],
  ];
  test.each(refused)('%s is refused (%s)', (ip, range) => {
    const cls = classifyAddress(ip);
    expect(cls).toEqual({ range, public: false });
    expect(isAllowedAddress(ip)).toBe(false);
    expect(isAllowedAddress(ip, [], 443)).toBe(false);
  });

  const allowed: [string, string][] = [
    ['8.8.8.8', 'unicast'],
    ['93.184.216.34', 'unicast'],
    ['1.1.1.1', 'unicast'],
    ['172.32.0.1', 'unicast'], // just above 172.16/12
    ['100.128.0.1', 'unicast'], // just above CGNAT
    ['169.253.255.255', 'unicast'], // just below link-local
    ['2606:4700:4700::1111', 'unicast'],
    ['2a00:1450:4003:80f::200e', 'unicast'],
    ['[2606:4700:4700::1111]', 'unicast'],
    ['::ffff:8.8.8.8', 'ipv4Mapped:unicast'],
    ['64:ff9b::808:808', 'rfc6052:unicast'], // NAT64 of 8.8.8.8 (a DNS64 network's view of a public site)
  ];
  test.each(allowed)('%s is public (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ range, public: true });
    expect(isAllowedAddress(ip)).toBe(true);
    expect(isAllowedAddress(ip, [], 80)).toBe(true);
    expect(isAllowedAddress(ip, [], 443)).toBe(true);
  });

  test('public addresses on other ports are refused (only 80/443)', () => {
    for (const port of [22, 25, 6379, 8080, 8443, 9200])
      expect(isAllowedAddress('8.8.8.8', [], port)).toBe(false);
  });
});

describe('URL_FETCH_ALLOWLIST', () => {
  test('entries: host, host:port, IP, IP:port, [v6]:port, CIDR', () => {
    const list = parseAllowlist(
      ' 127.0.0.1:8081, localhost:9000 ,10.1.0.0/16,[::1]:8082, fd00::/8, Intranet.Local ',
    );
    expect(list).toHaveLength(6);
    expect(isAllowedAddress('127.0.0.1', list, 8081)).toBe(true);
    expect(isAllowedAddress('127.0.0.1', list, 8080)).toBe(false); // port-limited entry
    expect(isAllowedAddress('127.0.0.2', list, 8081)).toBe(false);
    expect(isAllowedAddress('::ffff:127.0.0.1', list, 8081)).toBe(true); // mapped form of the same address
    expect(isAllowedAddress('10.1.200.3', list, 5432)).toBe(true); // CIDR without port: any port
    expect(isAllowedAddress('10.2.0.1', list, 80)).toBe(false);
    expect(isAllowedAddress('::1', list, 8082)).toBe(true);
    expect(isAllowedAddress('::1', list, 8081)).toBe(false);
    expect(isAllowedAddress('fd00::5', list, 80)).toBe(true);
    expect(isAllowedAddress('fe80::1', list, 80)).toBe(false);
    expect(isAllowedHost('localhost', 9000, list)).toBe(true);
    expect(isAllowedHost('localhost', 9001, list)).toBe(false);
    expect(isAllowedHost('intranet.local.', 443, list)).toBe(true);
    expect(isAllowedHost('other.local', 443, list)).toBe(false);
  });
  test('an empty or absent list allows nothing extra', () => {
    expect(parseAllowlist(undefined)).toEqual([]);
    expect(parseAllowlist(' , ')).toEqual([]);
    expect(isAllowedAddress('127.0.0.1', parseAllowlist(''), 80)).toBe(false);
  });
  test.each(['10.0.0.0/33', 'not a host!', '127.0.0.1:99999', 'host:abc', '[::1]:0'])(
    "bad entry '%s' is refused at config time, naming the variable",
    (entry) => {
      expect(() => parseAllowlist(entry)).toThrow(/URL_FETCH_ALLOWLIST/);
      expect(() => parseConfig({ URL_FETCH_ALLOWLIST: entry })).toThrow(/URL_FETCH_ALLOWLIST/);
    },
  );
  test('config defaults: empty allowlist, demo limits 10/hour and 30/day, demo audio kept 1 day', () => {
    const c = parseConfig({});
    expect(c.URL_FETCH_ALLOWLIST).toBe('');
    expect(c.DEMO_PER_HOUR).toBe(10);
    expect(c.DEMO_PER_DAY).toBe(30);
    expect(c.DEMO_TTL_DAYS).toBe(1);
  });
});

describe('checkUrl: the checks that need no DNS', () => {
  const code = (url: string, list = parseAllowlist('')) => {
    try {
      checkUrl(url, list);
      return 'ok';
    } catch (e) {
      return (e as SafeFetchError).code;
    }
  };
  test.each([
    ['file:///etc/passwd', 'scheme'],
    ['gopher://127.0.0.1:70/_GET', 'scheme'],
    ['ftp://ftp.example.org/pub', 'scheme'],
    ['data:text/html,<p>hola</p>', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['dict://127.0.0.1:11211/stat', 'scheme'],
    ['http://user:pass@example.org/', 'credentials'],
    ['https://user@example.org/', 'credentials'],
    ['not a url', 'invalid_url'],
    ['http://', 'invalid_url'],
    // numeric forms WHATWG normalises to 127.0.0.1
    ['http://2130706433/', 'address'],
    ['http://0x7f000001/', 'address'],
    ['http://0x7f.0.0.1/', 'address'],
    ['http://0177.0.0.1/', 'address'],
    ['http://127.1/', 'address'],
    ['http://127.0.0.1./', 'address'],
    ['http://[::ffff:127.0.0.1]/', 'address'],
    ['http://[::1]/', 'address'],
    ['http://[fe80::1]/', 'address'],
    ['http://169.254.169.254/latest/meta-data/', 'address'],
    ['http://0/', 'address'], // 0.0.0.0
    ['http://8.8.8.8:8080/', 'port'],
    ['https://example.org/', 'ok'], // names are checked when resolved, at connect time
    ['https://example.org:8443/', 'ok'],
    ['http://8.8.8.8/', 'ok'],
  ])('%s → %s', (url, expected) => {
    expect(code(url)).toBe(expected);
  });
  test('WHATWG normalisation is what the filter sees', () => {
    expect(checkUrl('https://example.org/').port).toBe(443);
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0x7f000001/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0177.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });
  test('the allowlist opens exactly the listed destination', () => {
    const list = parseAllowlist('127.0.0.1:8081');
    expect(code('http://127.0.0.1:8081/a', list)).toBe('ok');
    expect(code('http://2130706433:8081/a', list)).toBe('ok'); // same address, other spelling
    expect(code('http://127.0.0.1:8082/a', list)).toBe('address');
    expect(code('file:///etc/passwd', list)).toBe('scheme'); // never opens schemes or credentials
    expect(code('http://u:p@127.0.0.1:8081/', list)).toBe('credentials');
  });
});
