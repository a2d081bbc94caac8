// GET /api's interactive reference without a browser: the generated asset module is the current build of
// swagger-ui-dist + our init files (else run `npm run build:api-reference`), GET /api/assets/{file} serves each file
// exactly (brotli as stored, gzip and identity decoded from it) with ETag/304 and the page's strict CSP, and the
// page itself carries no inline script. JSON stays JSON. In a real browser: test/e2e/site-api-reference.test.ts.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { apiReferenceSources, GENERATED, generatedModule } from '../../scripts/build-api-reference';
import { makeHandler } from '../../lambdas/narration/handlers/api';
import { apiEvent, callHandler } from '../helpers/api-event';

jest.setTimeout(60_000);

const handler = makeHandler();
const get = (path: string, headers: Record<string, string> = {}, file?: string) =>
  callHandler(handler, apiEvent('GET', path, { headers, params: file ? { file } : undefined }));
const sources = apiReferenceSources();

test('api-reference.generated.ts is the current build (else run: npm run build:api-reference)', () => {
  expect(readFileSync(GENERATED, 'utf8')).toBe(generatedModule());
});

test.each(Object.keys(sources))(
  'GET /api/assets/%s: the file in every encoding, ETag and 304',
  async (name) => {
    const want = Buffer.from(sources[name]!.text);
    const br = await get(`/api/assets/${name}`, { 'accept-encoding': 'gzip, br' }, name);
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe(sources[name]!.type);
    expect(br.headers['content-security-policy']).toContain("default-src 'self'");
    expect(brotliDecompressSync(Buffer.from(br.body, 'base64')).equals(want)).toBe(true);
    const gz = await get(`/api/assets/${name}`, { 'accept-encoding': 'gzip' }, name);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(gz.body, 'base64')).equals(want)).toBe(true);
    const plain = await get(`/api/assets/${name}`, {}, name);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.from(plain.body, 'base64').equals(want)).toBe(true);
    const again = await get(`/api/assets/${name}`, { 'if-none-match': br.headers['etag']! }, name);
    expect(again.statusCode).toBe(304);
  },
);

test('Swagger UI is served as shipped by swagger-ui-dist, without its source-map comment', () => {
  const shipped = readFileSync(require.resolve('swagger-ui-dist/swagger-ui-bundle.js'), 'utf8');
  const ours = sources['swagger-ui-bundle.js']!.text;
  expect(ours).toContain(shipped.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, ''));
  expect(ours).not.toContain('sourceMappingURL');
});

test('unknown asset → 404 in the contract shape; the page: Spanish, strict CSP, no inline script; JSON unchanged', async () => {
  const missing = await get('/api/assets/nope.js', {}, 'nope.js');
  expect(missing.statusCode).toBe(404);
  expect(missing.json).toEqual({ detail: 'Not found: /api/assets/nope.js' });

  const page = await get('/api', { accept: 'text/html' });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-security-policy']).toMatch(/script-src 'self';.*style-src 'self';/);
  expect(page.headers['x-frame-options']).toBe('DENY');
  expect(page.body).toContain('<html lang="es">');
  expect(page.body).toContain('Referencia de la API de Narración');
  expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
  expect(page.body).not.toMatch(/\son[a-z]+=|style=/i);
  for (const src of page.body.matchAll(/(?:src|href)="([^"]+)"/g))
    if (src[1]!.startsWith('/api/assets/')) expect(Object.keys(sources)).toContain(src[1]!.slice(12));

  for (const req of [{ path: '/api?format=json' }, { accept: 'application/json' }]) {
    const res = req.path
      ? await callHandler(handler, apiEvent('GET', '/api', { query: { format: 'json' } }))
      : await get('/api', { accept: req.accept! });
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json).toMatchObject({ openapi: '3.1.0', info: { title: 'Narration API' } });
  }
});
