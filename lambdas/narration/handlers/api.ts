// GET /api — the API description: OpenAPI 3.1 JSON for `?format=json` or `Accept: application/json`, else HTML.
// Built once per container from the route manifest, the route docs and the handlers' own zod schemas.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { NARRATION_OVERVIEW } from '../api/overview';
import { buildOpenApi, renderHtml } from '../../shared/http/openapi';
import { ROUTE_DOCS } from '../api/route-docs';
import { narrationManifest } from '../routes';

let built: { doc: Record<string, unknown>; html: string } | undefined;

export function narrationApiDocument(): Record<string, unknown> {
  return buildOpenApi(narrationManifest, ROUTE_DOCS, {
    title: 'Narration API',
    version: '1.0.0',
    description: NARRATION_OVERVIEW,
  });
}

export const makeHandler = () =>
  apiHandler(async (req) => {
    if (!built) {
      const doc = narrationApiDocument();
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
