// GET /api of either service: the API description as OpenAPI 3.1 JSON for `?format=json` or
// `Accept: application/json` (unless `?format=html`), else the HTML page for people. The document is built on the
// first request of a container (from the service's manifest, route docs and overview: ./openapi.ts) and kept.
import { apiHandler } from './api-handler';
import { renderHtml } from './openapi';
import { json } from './response';

/** The GET /api handler of a service whose OpenAPI document `build()` returns. */
export function apiDocsHandler(build: () => Promise<Record<string, unknown>>) {
  let built: { doc: Record<string, unknown>; html: string } | undefined;
  return apiHandler(async (req) => {
    if (!built) {
      const doc = await build();
      built = { doc, html: renderHtml(doc) };
    }
    const wantsJson =
      req.query['format'] === 'json' || /application\/json/i.test(req.headers['accept'] ?? '');
    const cache = { 'cache-control': 'public, max-age=300' };
    if (wantsJson && req.query['format'] !== 'html') return json(200, built.doc, cache);
    return {
      statusCode: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', ...cache },
      body: built.html,
    };
  });
}
