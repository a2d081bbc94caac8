// GET /api — the API description: OpenAPI 3.1 JSON for `?format=json` or `Accept: application/json`, else HTML.
// Built once per container from the route manifest, the route docs and the handlers' own zod schemas, by the
// handler both services share (lambdas/shared/http/api-docs.ts).
import { apiDocsHandler } from '../../shared/http/api-docs';
import { buildOpenApi } from '../../shared/http/openapi';
import { NARRATION_OVERVIEW } from '../api/overview';
import { ROUTE_DOCS } from '../api/route-docs';
import { narrationManifest } from '../routes';

export function narrationApiDocument(): Record<string, unknown> {
  return buildOpenApi(narrationManifest, ROUTE_DOCS, {
    title: 'Narration API',
    version: '1.0.0',
    description: NARRATION_OVERVIEW,
  });
}

export const makeHandler = () => apiDocsHandler(narrationApiDocument);

export const handler = makeHandler();
