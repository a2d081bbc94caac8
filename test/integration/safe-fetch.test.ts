// The SSRF boundary through the real fetcher and the real POST /convert/url handler. Every attempt must be refused
// with a 4xx naming the reason, and a sentinel HTTP server on loopback proves that none of them reached it.
// Network rule: only loopback traffic. Names resolve through a stub (no DNS query leaves); addresses such as
// 10.0.0.1 or 169.254.169.254 are refused by the filter before any socket exists, and a tripwire under Node's TCP
// connect refuses (and records) any attempt to reach a non-loopback address, so a bug here cannot send a packet.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { apiEvent } from '../helpers/api-event';
import type { NarrationDeps } from '../../lambdas/narration/deps';
import { makeHandler } from '../../lambdas/narration/handlers/convert-url';
import {
  SafeFetchError,
  parseAllowlist,
  safeFetch,
  stubResolver,
  type SafeFetchOptions,
} from '../../lambdas/shared/net/safe-fetch';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { urlRetryCases } from './safe-fetch/url-retry.cases';

// Compressed once, not per request: on a busy machine gzipping 20 MiB inside the handler could outlast the fetch
// deadline and turn the size check under test into a timeout.
const GZIP_BOMB = gzipSync(Buffer.alloc(20 * 1024 * 1024, ' '));

jest.setTimeout(30_000);

const ARTICLE = readFileSync(join(__dirname, '..', 'fixtures', 'articles', 'noticia.html'));

interface Probe {
  server: Server;
  port: number;
  connections: number;
  requests: string[];
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
  port = 0,
): Promise<Probe> {
  const probe: Probe = { server: createServer(), port: 0, connections: 0, requests: [] };
  probe.server.on('connection', () => probe.connections++);
  probe.server.on('request', (req, res) => {
    probe.requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    probe.server.once('error', reject);
    probe.server.listen({ host, port, ipv6Only: host.includes(':') }, () => resolve());
  });
  probe.port = (probe.server.address() as AddressInfo).port;
  return probe;
}

async function close(probe: Probe | undefined) {
  if (!probe) return;
  probe.server.closeAllConnections();
  await new Promise<void>((r) => probe.server.close(() => r()));
}

let tripwire: Tripwire;
let sentinel: Probe;
let sentinel6: Probe | undefined;
let origin: Probe;
let other: Probe;
let resolver: ReturnType<typeof stubResolver>;
let fetchOptions: SafeFetchOptions;

const html = (res: ServerResponse, body: string | Buffer, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  // Anything arriving here is a failure: it answers like a juicy internal service would.
  sentinel = await listen((_req, res) => html(res, '<p>secreto interno</p>'));
  try {
    sentinel6 = await listen((_req, res) => html(res, '<p>secreto interno</p>'), '::1', sentinel.port);
  } catch {
    sentinel6 = undefined; // no IPv6 loopback here, or the port is taken on it: [::1] then reaches nothing at all
  }
  const S = sentinel.port;
  other = await listen((req, res) => {
    html(res, `<p>auth=${req.headers.authorization ?? 'none'} cookie=${req.headers.cookie ?? 'none'}</p>`);
  });
  origin = await listen((req, res) => {
    const url = req.url ?? '/';
    const A = origin.port;
    const redirect = (location: string, status = 302) => {
      res.writeHead(status, { location });
      res.end();
    };
    if (url === '/article') return html(res, ARTICLE);
    // Served once, gone after (the idempotent retry below must not need it again).
    if (url === '/once')
      return origin.requests.filter((r) => r === 'GET /once').length > 1
        ? html(res, '', 404)
        : html(res, ARTICLE);
    if (url === '/article.gz') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      return res.end(gzipSync(ARTICLE));
    }
    if (url === '/to-sentinel') return redirect(`http://127.0.0.1:${S}/`);
    if (url === '/to-sentinel-307') return redirect(`http://127.0.0.1:${S}/`, 307);
    if (url === '/to-sentinel-by-name') return redirect(`http://sentinel.test:${S}/`);
    if (url === '/to-sentinel-decimal') return redirect(`http://2130706433:${S}/`);
    if (url === '/to-metadata') return redirect('http://169.254.169.254/latest/meta-data/iam/');
    if (url === '/to-file') return redirect('file:///etc/passwd');
    if (url === '/to-creds') return redirect(`http://admin:admin@127.0.0.1:${A}/article`);
    if (url === '/no-location') return redirect('');
    const hop = /^\/hops\/(\d+)$/.exec(url);
    if (hop) {
      const n = Number(hop[1]);
      return n > 0 ? redirect(`/hops/${n - 1}`) : html(res, ARTICLE);
    }
    if (url.startsWith('/loop')) return redirect('/loop');
    if (url === '/to-other') return redirect(`http://127.0.0.1:${other.port}/`);
    if (url === '/post-303') return redirect(`http://127.0.0.1:${other.port}/`, 303);
    if (url === '/big') {
      // 1 MiB in chunks, no Content-Length: only counting stops it.
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < 16 && res.write(chunk)) sent++;
        if (sent >= 16) return res.end();
        res.once('drain', () => {
          sent++;
          pump();
        });
      };
      res.on('error', () => undefined);
      return pump();
    }
    if (url === '/big-declared') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(10 * 1024 * 1024) });
      return res.write('<p>'); // never sends the rest: the declared size alone must refuse it
    }
    if (url === '/bomb') {
      // 20 MiB of spaces gzip to ~20 KiB: the cap must count decompressed bytes.
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      return res.end(GZIP_BOMB);
    }
    if (url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"a":1}');
    }
    if (url === '/pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end('%PDF-1.4');
    }
    if (url === '/no-type') {
      res.removeHeader('content-type');
      res.writeHead(200);
      return res.end('<p>sin tipo</p>');
    }
    if (url === '/missing') return html(res, '<p>No encontrada</p>', 404);
    if (url === '/error') return html(res, '<p>Error</p>', 500);
    if (url === '/hang') return; // accepts, never answers
    if (url === '/drip') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const t = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(t));
      return;
    }
    if (url === '/portada')
      return html(res, readFileSync(join(__dirname, '..', 'fixtures', 'articles', 'portada.html')));
    return html(res, '<p>?</p>', 404);
  });
  resolver = stubResolver({
    localhost: ['127.0.0.1', '::1'],
    'sentinel.test': ['127.0.0.1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'metadata.google.internal': ['169.254.169.254'],
    'intranet.test': ['10.0.0.1'],
    'router.test': ['192.168.1.1'],
    'cgnat.test': ['100.64.0.1'],
    'v6local.test': ['fd00::1'],
    'v6link.test': ['fe80::1'],
    'nat64.test': ['64:ff9b::a00:1'],
    // one loopback answer on the allow-listed port and one private one: the name is refused as a whole
    'mixed.test': ['127.0.0.1', '10.0.0.1'],
    'origin.test': ['127.0.0.1'],
  });
  fetchOptions = {
    resolver,
    // Only the origin server's exact address and port; the sentinel shares the address, not the port.
    allowlist: parseAllowlist(`127.0.0.1:${origin.port}`),
    connectTimeoutMs: 500,
    totalTimeoutMs: 500,
    maxBytes: 256 * 1024,
  };
});

afterAll(async () => {
  await Promise.all([close(sentinel), close(sentinel6), close(origin), close(other)]);
  tripwire.uninstall();
});

// ───────────── through the handler ─────────────

/** Deps that fail the test if the handler gets as far as charging or narrating: refusals cost nothing. */
const untouchable = new Proxy({} as NarrationDeps, {
  get(_t, prop) {
    if (prop === 'keys') return { findByHash: async () => undefined };
    throw new Error(`the handler touched deps.${String(prop)} for a refused URL`);
  },
});

function event(body: unknown): APIGatewayProxyEventV2 {
  return apiEvent('POST', '/convert/url', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    requestId: randomUUID(),
    sourceIp: '203.0.113.50',
  });
}

const context = {
  awsRequestId: 'test',
  functionName: 'test',
  getRemainingTimeInMillis: () => 29_000,
} as unknown as Context;

async function convert(url: string) {
  const res = (await makeHandler(untouchable, fetchOptions)(event({ url }), context)) as {
    statusCode: number;
    body: string;
  };
  return {
    status: res.statusCode,
    body: JSON.parse(res.body) as { detail: { loc: string[]; msg: string; type: string }[] },
  };
}

describe('SSRF attempts through POST /convert/url: all refused with 422, nothing reaches the sentinel', () => {
  const S = () => sentinel.port;
  const A = () => origin.port;
  const attempts: [string, () => string, string][] = [
    // direct loopback, in every spelling, at the sentinel's port
    ['loopback IPv4', () => `http://127.0.0.1:${S()}/`, 'url_address'],
    ['localhost', () => `http://localhost:${S()}/`, 'url_address'],
    ['IPv6 loopback', () => `http://[::1]:${S()}/`, 'url_address'],
    ['hex IPv4', () => `http://0x7f000001:${S()}/`, 'url_address'],
    ['decimal IPv4', () => `http://2130706433:${S()}/`, 'url_address'],
    ['octal IPv4', () => `http://0177.0.0.1:${S()}/`, 'url_address'],
    ['short IPv4', () => `http://127.1:${S()}/`, 'url_address'],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${S()}/`, 'url_address'],
    ['name → loopback', () => `http://sentinel.test:${S()}/`, 'url_address'],
    ['name → mapped loopback', () => `http://mapped.test:${S()}/`, 'url_address'],
    ['loopback on the standard port', () => 'http://127.0.0.1/', 'url_address'],
    // redirects from the allow-listed origin
    ['redirect → sentinel', () => `http://127.0.0.1:${A()}/to-sentinel`, 'url_address'],
    ['307 redirect → sentinel', () => `http://127.0.0.1:${A()}/to-sentinel-307`, 'url_address'],
    ['redirect → name → sentinel', () => `http://127.0.0.1:${A()}/to-sentinel-by-name`, 'url_address'],
    ['redirect → decimal sentinel', () => `http://127.0.0.1:${A()}/to-sentinel-decimal`, 'url_address'],
    ['redirect → metadata service', () => `http://127.0.0.1:${A()}/to-metadata`, 'url_address'],
    ['redirect → file://', () => `http://127.0.0.1:${A()}/to-file`, 'url_scheme'],
    ['redirect → credentials', () => `http://127.0.0.1:${A()}/to-creds`, 'url_credentials'],
    ['redirect without Location', () => `http://127.0.0.1:${A()}/no-location`, 'url_bad_redirect'],
    ['redirect loop', () => `http://127.0.0.1:${A()}/loop`, 'url_too_many_redirects'],
    ['6 redirects', () => `http://127.0.0.1:${A()}/hops/6`, 'url_too_many_redirects'],
    // names that resolve (through the stub) to non-public addresses
    ['metadata by IP', () => 'http://169.254.169.254/latest/meta-data/', 'url_address'],
    ['name → 169.254.169.254', () => 'http://metadata.test/latest/meta-data/', 'url_address'],
    ['GCP metadata name', () => 'http://metadata.google.internal/computeMetadata/v1/', 'url_address'],
    ['name → 10.0.0.1', () => 'http://intranet.test/', 'url_address'],
    ['name → 192.168.1.1', () => 'https://router.test/', 'url_address'],
    ['name → CGNAT', () => 'http://cgnat.test/', 'url_address'],
    ['name → fd00::1', () => 'http://v6local.test/', 'url_address'],
    ['name → fe80::1', () => 'http://v6link.test/', 'url_address'],
    ['name → NAT64 of 10.0.0.1', () => 'http://nat64.test/', 'url_address'],
    ['name → allow-listed + private', () => `http://mixed.test:${A()}/mixed-probe`, 'url_address'],
    ['literal 10.0.0.1', () => 'http://10.0.0.1/', 'url_address'],
    // schemes and credentials
    ['file://', () => 'file:///etc/passwd', 'url_scheme'],
    ['gopher://', () => `gopher://127.0.0.1:${S()}/_SET%20x%201`, 'url_scheme'],
    ['ftp://', () => `ftp://127.0.0.1:${S()}/`, 'url_scheme'],
    ['dict://', () => `dict://127.0.0.1:${S()}/info`, 'url_scheme'],
    ['credentials in URL', () => `http://user:pass@127.0.0.1:${A()}/article`, 'url_credentials'],
    // resource limits, on the allow-listed origin
    ['oversize body', () => `http://127.0.0.1:${A()}/big`, 'url_too_large'],
    ['oversize Content-Length', () => `http://127.0.0.1:${A()}/big-declared`, 'url_too_large'],
    ['gzip bomb', () => `http://127.0.0.1:${A()}/bomb`, 'url_too_large'],
    ['JSON instead of HTML', () => `http://127.0.0.1:${A()}/json`, 'url_content_type'],
    ['PDF instead of HTML', () => `http://127.0.0.1:${A()}/pdf`, 'url_content_type'],
    ['no Content-Type', () => `http://127.0.0.1:${A()}/no-type`, 'url_content_type'],
    ['server never answers', () => `http://127.0.0.1:${A()}/hang`, 'url_timeout'],
    ['body never ends', () => `http://127.0.0.1:${A()}/drip`, 'url_timeout'],
    ['404 page', () => `http://127.0.0.1:${A()}/missing`, 'url_http_status'],
    ['500 page', () => `http://127.0.0.1:${A()}/error`, 'url_http_status'],
    ['unknown name', () => 'http://no-such-host.test/', 'url_dns'],
    ['not a URL', () => 'http://', 'url_parsing'],
  ];

  test.each(attempts)('%s', async (_name, url, type) => {
    const res = await convert(url());
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'url'], msg: expect.any(String), type }]);
    expect(res.body.detail[0]!.msg.length).toBeGreaterThan(20);
  });

  test('the sentinel saw no connection at all, the origin never served the mixed name, no non-loopback connect', () => {
    expect(attempts.length).toBeGreaterThanOrEqual(12);
    expect(sentinel.connections).toBe(0);
    expect(sentinel.requests).toEqual([]);
    expect(sentinel6?.connections ?? 0).toBe(0);
    expect(origin.requests).not.toContain('GET /mixed-probe');
    expect(tripwire.attempts).toEqual([]);
  });

  test('messages say what to do, without leaking internals', async () => {
    const { body } = await convert('http://metadata.test/latest/meta-data/');
    expect(body.detail[0]!.msg).toMatch(/not on the public internet.*only fetches public web pages/);
    expect((await convert('file:///etc/passwd')).body.detail[0]!.msg).toMatch(
      /Only http:\/\/ and https:\/\//,
    );
    expect((await convert(`http://127.0.0.1:${origin.port}/json`)).body.detail[0]!.msg).toMatch(
      /serves application\/json, not text\/html or application\/xhtml\+xml\. Give the address of an article page/,
    );
  });

  test('validation before fetching: missing, empty, over-long url; unknown voice', async () => {
    const h = makeHandler(untouchable, fetchOptions);
    const call = async (body: unknown) => {
      const r = (await h(event(body), context)) as { statusCode: number; body: string };
      return {
        status: r.statusCode,
        detail: (JSON.parse(r.body) as { detail: { loc: string[]; type: string }[] }).detail,
      };
    };
    expect(await call({})).toEqual({
      status: 422,
      detail: [expect.objectContaining({ loc: ['body', 'url'], type: 'missing' })],
    });
    expect((await call({ url: '' })).detail[0]!.type).toBe('string_too_short');
    expect((await call({ url: `https://e.org/${'a'.repeat(2048)}` })).detail[0]!.type).toBe(
      'string_too_long',
    );
    expect(
      (await call({ url: `http://127.0.0.1:${origin.port}/article`, voice: 'xx-Nadie' })).detail[0]!.loc,
    ).toEqual(['body', 'voice']);
    expect(origin.requests).not.toContain('GET /article');
  });

  test('a page without an article → 422 article_not_found, nothing charged', async () => {
    const res = await convert(`http://127.0.0.1:${origin.port}/portada`);
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'article_not_found' });
  });
});

urlRetryCases(() => ({ origin, fetchOptions }), event, context);

// ───────────── the fetcher itself ─────────────

describe('safeFetch', () => {
  test('fetches an allow-listed page; gzip is decompressed; the final URL and charset are reported', async () => {
    const page = await safeFetch(`http://127.0.0.1:${origin.port}/article.gz`, fetchOptions);
    expect(page.status).toBe(200);
    expect(page.mediaType).toBe('text/html');
    expect(page.body.equals(ARTICLE)).toBe(true);
    const plain = await safeFetch(`http://127.0.0.1:${origin.port}/article`, fetchOptions);
    expect(plain.charset).toBe('utf-8');
    expect(plain.redirects).toEqual([]);
  });

  test('a name allowed by address works too (checked at connect time, per resolved address)', async () => {
    const page = await safeFetch(`http://origin.test:${origin.port}/article`, fetchOptions);
    expect(page.body.length).toBe(ARTICLE.length);
  });

  test('5 redirects are followed, each re-checked; the 6th is refused', async () => {
    const page = await safeFetch(`http://127.0.0.1:${origin.port}/hops/5`, fetchOptions);
    expect(page.redirects).toHaveLength(5);
    expect(page.url).toBe(`http://127.0.0.1:${origin.port}/hops/0`);
    await expect(safeFetch(`http://127.0.0.1:${origin.port}/hops/6`, fetchOptions)).rejects.toMatchObject({
      code: 'too_many_redirects',
    });
  });

  test('credentials headers do not follow a redirect to another origin', async () => {
    const opts = {
      ...fetchOptions,
      allowlist: parseAllowlist(`127.0.0.1:${origin.port},127.0.0.1:${other.port}`),
    };
    const page = await safeFetch(`http://127.0.0.1:${origin.port}/to-other`, {
      ...opts,
      headers: { authorization: 'Bearer secreto', cookie: 'sesion=1' },
    });
    expect(page.body.toString()).toBe('<p>auth=none cookie=none</p>');
  });

  test('POST (webhook style) answered 303 continues as GET without the body; any type accepted when asked', async () => {
    const opts = {
      ...fetchOptions,
      allowlist: parseAllowlist(`127.0.0.1:${origin.port},127.0.0.1:${other.port}`),
    };
    const before = other.requests.length;
    const page = await safeFetch(`http://127.0.0.1:${origin.port}/post-303`, {
      ...opts,
      method: 'POST',
      body: '{"evento":"listo"}',
      headers: { 'content-type': 'application/json' },
      accept: null,
    });
    expect(page.status).toBe(200);
    expect(other.requests.slice(before)).toEqual(['GET /']);
  });

  test('non-2xx can be returned instead of thrown (requireOk: false)', async () => {
    const page = await safeFetch(`http://127.0.0.1:${origin.port}/missing`, {
      ...fetchOptions,
      requireOk: false,
    });
    expect(page.status).toBe(404);
    expect(page.body.toString()).toContain('No encontrada');
  });

  test('errors are SafeFetchError with a code', async () => {
    const err = await safeFetch('http://intranet.test/', fetchOptions).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SafeFetchError);
    expect(err).toMatchObject({ code: 'address' });
  });

  test('https: certificates are verified (a self-signed one is refused before any request is sent)', async () => {
    const dir = tempDir('tls-');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=origin.test',
        '-addext',
        'subjectAltName=DNS:origin.test,IP:127.0.0.1',
        '-keyout',
        join(dir.path, 'key.pem'),
        '-out',
        join(dir.path, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const requests: string[] = [];
    const tls = createTlsServer(
      { key: readFileSync(join(dir.path, 'key.pem')), cert: readFileSync(join(dir.path, 'cert.pem')) },
      (req, res) => {
        requests.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<p>hola</p>');
      },
    );
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    const port = (tls.address() as AddressInfo).port;
    try {
      // The handshake is what is refused, at once; the file's 500 ms limits could end it first on a loaded machine
      // (ci64 got a timeout here), and a timeout would not show that the certificate was checked.
      const opts = {
        ...fetchOptions,
        connectTimeoutMs: 10_000,
        totalTimeoutMs: 10_000,
        allowlist: parseAllowlist(`127.0.0.1:${port}`),
      };
      for (const url of [`https://127.0.0.1:${port}/`, `https://origin.test:${port}/`]) {
        const err = await safeFetch(url, opts).catch((e: unknown) => e);
        expect(err).toMatchObject({ code: 'network', message: expect.stringMatching(/secure connection/) });
      }
      expect(requests).toEqual([]);
    } finally {
      tls.closeAllConnections();
      await new Promise((r) => tls.close(r));
      dir.cleanup();
    }
  });

  test('nothing above left the machine', () => {
    expect(tripwire.attempts).toEqual([]);
    expect(sentinel.connections).toBe(0);
  });
});
