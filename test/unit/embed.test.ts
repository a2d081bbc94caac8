// GET /embed.js without a browser: the generated script is current, type-checks as ES2019 + DOM, stays within
// its size budget; the handler negotiates compression, caches with a weak ETag and answers 304.
// The player's behaviour in a real browser is test/e2e/embed.test.ts.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import {
  CACHE_CONTROL,
  makeHandler,
  matchesEtag,
  pickEncoding,
} from '../../lambdas/narration/handlers/embed';
import { buildWidget } from '../../lambdas/narration/widget/build';
import { EMBED_JS } from '../../lambdas/narration/widget/embed.generated';

const ROOT = join(__dirname, '..', '..');

function event(headers: Record<string, string> = {}, rawQueryString = ''): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'GET /embed.js',
    rawPath: '/embed.js',
    rawQueryString,
    headers,
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: 'GET',
        path: '/embed.js',
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.9',
        userAgent: 'jest',
      },
      requestId: randomUUID(),
      routeKey: 'GET /embed.js',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    isBase64Encoded: false,
  };
}

const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 5000 } as unknown as Context;

interface Result {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

const handler = makeHandler();
const get = async (headers: Record<string, string> = {}, query = '') =>
  (await handler(event(headers, query), context)) as Result;

describe('the widget script', () => {
  test('embed.generated.ts is the current build of embed.js (else run: npx tsx lambdas/narration/widget/build.ts)', () => {
    expect(EMBED_JS).toBe(buildWidget());
  });

  // A full `tsc -p` takes seconds on a loaded machine: its own timeout, not jest's 5 s default.
  test('embed.js type-checks as ES2019 with DOM types (tsconfig.widget.json, strict)', async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const errors = await new Promise<string>((resolve) =>
      execFile(
        process.execPath,
        [tsc, '-p', 'lambdas/narration/widget/tsconfig.widget.json'],
        { cwd: ROOT, encoding: 'utf8' },
        (err, stdout) => resolve(err ? stdout || String(err) : ''),
      ),
    );
    expect(errors).toBe('');
  }, 120_000);

  test('stays under its size budget: 7 KB gzip (it follows the text and plays jobs still being made)', () => {
    const gz = gzipSync(EMBED_JS, { level: 9 }).length;
    expect(gz).toBeLessThan(7 * 1024);
  });

  test('is one self-contained IIFE: no module syntax, no globals declared at top level', () => {
    const code = EMBED_JS.replace(/^\/\*![^]*?\*\/\s*/, '');
    expect(code.startsWith('(function(){')).toBe(true);
    expect(code.trimEnd().endsWith('})();')).toBe(true);
    expect(code).not.toMatch(/\b(import|export)\s*[{*]/);
    // no `</script` inside: the script can also be pasted inline
    expect(EMBED_JS).not.toMatch(/<\/script/i);
  });
});

describe('Accept-Encoding negotiation', () => {
  test.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['identity', 'identity'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['deflate', 'identity'],
    ['gzip;q=abc', 'identity'],
  ])('%p → %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

describe('If-None-Match', () => {
  const tag = 'W/"abc"';
  test.each([
    [undefined, false],
    ['', false],
    ['W/"abc"', true],
    ['"abc"', true],
    ['"x", W/"abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['W/"ab"', false],
  ])('%p → %p', (header, expected) => {
    expect(matchesEtag(header, tag)).toBe(expected);
  });
});

describe('GET /embed.js', () => {
  test('200 JavaScript, cacheable, CORS-readable, the whole script when no compression is accepted', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe(CACHE_CONTROL);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+, stale-while-revalidate=\d+$/);
    expect(res.headers['etag']).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(res.headers['vary']).toBe('accept-encoding');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.isBase64Encoded).toBeFalsy();
    expect(res.body).toBe(EMBED_JS);
  });

  test('brotli or gzip bodies decode to the same script, with the same ETag', async () => {
    const plain = await get();
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.isBase64Encoded).toBe(true);
    expect(brotliDecompressSync(Buffer.from(br.body, 'base64')).toString('utf8')).toBe(EMBED_JS);
    const gz = await get({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(gz.body, 'base64')).toString('utf8')).toBe(EMBED_JS);
    expect(Buffer.from(br.body, 'base64').length).toBeLessThan(EMBED_JS.length / 2);
    expect(br.headers['etag']).toBe(plain.headers['etag']);
    expect(gz.headers['etag']).toBe(plain.headers['etag']);
  });

  test('304 with no body for a matching If-None-Match (weak or strong form), 200 for another tag', async () => {
    const { headers } = await get();
    const etag = headers['etag']!;
    for (const inm of [etag, etag.replace(/^W\//, ''), `"old", ${etag}`, '*']) {
      const res = await get({ 'if-none-match': inm, 'accept-encoding': 'br' });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers['etag']).toBe(etag);
      expect(res.headers['cache-control']).toBe(CACHE_CONTROL);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
    const stale = await get({ 'if-none-match': 'W/"a-previous-version"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(EMBED_JS);
  });

  test('a query string (cache busting) changes nothing', async () => {
    const res = await get({}, 'v=2');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(EMBED_JS);
  });

  test('the ETag follows the script: another script, another tag', async () => {
    const a = (await makeHandler('console.log(1)')(event(), context)) as Result;
    const b = (await makeHandler('console.log(2)')(event(), context)) as Result;
    expect(a.headers['etag']).not.toBe(b.headers['etag']);
    expect(a.body).toBe('console.log(1)');
  });
});
