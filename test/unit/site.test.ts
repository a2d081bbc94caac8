// The web pages' build and serving, without a browser: each service's generated module is the current build of its
// site/src (else run `npm run build:site`), and the pages handler serves pages and files with the security headers,
// compression, ETags and the contract's 404 shape, and the $default route's answers. The pages' behaviour in a real browser: test/e2e/site-*.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import type { Context } from 'aws-lambda';
import { buildSite, generatedModule, generatedPath, SERVICES, siteDir } from '../../scripts/build-site';
import { bucketOrigin, makeHandler } from '../../lambdas/narration/handlers/pages';
import { SITE_FILES } from '../../lambdas/narration/site/files.generated';
import { apiEvent } from '../helpers/api-event';

const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 3000 } as unknown as Context;

interface Result {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}

const handler = makeHandler({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4569' });
const get = async (
  path: string,
  headers: Record<string, string> = {},
  pathParameters?: Record<string, string>,
) => (await handler(apiEvent('GET', path, { headers, params: pathParameters }), context)) as Result;

describe.each(SERVICES.filter((s) => existsSync(`${siteDir(s)}/src`)))('%s site build', (service) => {
  test('files.generated.ts is the current build of site/src (else run: npm run build:site)', () => {
    expect(readFileSync(generatedPath(service), 'utf8')).toBe(generatedModule(service));
  });

  test('pages load no script or style from another origin and carry no inline script', () => {
    for (const [name, file] of Object.entries(buildSite(service))) {
      if (!name.endsWith('.html')) continue;
      expect(file.body).not.toMatch(/<(script|link)[^>]+(src|href)="(https?:)?\/\//i);
      expect(file.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
      expect(file.body).not.toMatch(/\son[a-z]+=/i);
    }
  });
});

describe('narration site handler', () => {
  test('GET / is the Spanish page with a strict CSP and the security headers', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe(SITE_FILES['index.html']!.body);
    expect(res.body).toMatch(/<html lang="es/);
    const csp = res.headers['content-security-policy']!;
    expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(csp).toMatch(/(^|; )default-src 'self'(;|$)/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/media-src 'self' blob: http:\/\/127\.0\.0\.1:4569/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{8}/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  test('GET /site/{file} serves a built file, brotli when accepted, 304 on its ETag', async () => {
    const name = Object.keys(SITE_FILES).find((n) => n.endsWith('.css'))!;
    const plain = await get(`/site/${name}`, {}, { file: name });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(plain.body).toBe(SITE_FILES[name]!.body);
    const index = await get('/', { 'accept-encoding': 'br' });
    if (index.headers['content-encoding'] === 'br')
      expect(brotliDecompressSync(Buffer.from(index.body, 'base64')).toString()).toBe(
        SITE_FILES['index.html']!.body,
      );
    const again = await get(`/site/${name}`, { 'if-none-match': plain.headers['etag']! }, { file: name });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  test('an unknown file or path answers 404 in the contract shape, still with the security headers', async () => {
    for (const res of [
      await get('/site/nope.js', {}, { file: 'nope.js' }),
      await get('/site/..%2Fhandlers%2Fpages.ts', {}, { file: '../handlers/pages.ts' }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ detail: expect.stringMatching(/^Not found/) });
      expect(res.headers['content-security-policy']).toBeDefined();
    }
  });

  test('the same file serves the $default route: 404, 405 with Allow, 204 preflight (no page, no CSP)', async () => {
    const fallback = async (method: string, path: string) =>
      (await handler(apiEvent(method, path, { routeKey: '$default' }), context)) as Result;
    const unknown = await fallback('GET', '/nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-security-policy']).toBeUndefined();
    // GET / is a page; under $default it is not: the route index answers for its path.
    const wrongMethod = await fallback('DELETE', '/');
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers['allow']).toBe('GET, OPTIONS');
    expect((await fallback('OPTIONS', '/convert/text')).statusCode).toBe(204);
  });

  test('audio origins: the emulator endpoint locally, S3 in the cloud', () => {
    expect(bucketOrigin({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4569/' })).toBe('http://127.0.0.1:4569');
    expect(bucketOrigin({})).toBe('https://*.amazonaws.com');
  });
});
