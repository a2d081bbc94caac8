// GET /api — the documents API description: OpenAPI 3.1 JSON for `?format=json` or `Accept: application/json`, else
// HTML. Built once per container from the route manifest, the route docs (./api/route-docs.ts, which merges the
// webhooks section's), the handlers' own zod schemas and the overview prose (every decision the contract leaves
// "not shown"), with the builder narration's GET /api uses (lambdas/shared/http/openapi.ts).
import { apiHandler } from '../../shared/http/api-handler';
import { buildOpenApi, renderHtml } from '../../shared/http/openapi';
import { json } from '../../shared/http/response';
import { documentsOverview } from '../api/overview';
import { DOCUMENTS_ROUTE_DOCS } from '../api/route-docs';
import { documentsManifest } from '../routes';

let built: { doc: Record<string, unknown>; html: string } | undefined;

export function documentsApiDocument(): Record<string, unknown> {
  return buildOpenApi(documentsManifest, DOCUMENTS_ROUTE_DOCS, {
    title: 'Documents API',
    version: '1.0.0',
    description: documentsOverview(),
  });
}

export const makeHandler = () =>
  apiHandler(async (req) => {
    if (!built) {
      const doc = documentsApiDocument();
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

export const handler = makeHandler();
