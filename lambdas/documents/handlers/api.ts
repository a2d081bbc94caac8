// GET /api — the documents API description: OpenAPI 3.1 JSON for `?format=json` or `Accept: application/json`, else
// HTML. Built once per container from the route manifest, the route docs (./api/route-docs.ts, which merges the
// webhooks section's), the handlers' own zod schemas and the overview prose (every decision the contract leaves
// "not shown"), by the handler both services share (lambdas/shared/http/api-docs.ts).
import { apiDocsHandler } from '../../shared/http/api-docs';
import { buildOpenApi } from '../../shared/http/openapi';
import { documentsOverview } from '../api/overview';
import { DOCUMENTS_ROUTE_DOCS } from '../api/route-docs';
import { documentsManifest } from '../routes';

export function documentsApiDocument(): Record<string, unknown> {
  return buildOpenApi(documentsManifest, DOCUMENTS_ROUTE_DOCS, {
    title: 'Documents API',
    version: '1.0.0',
    description: documentsOverview(),
  });
}

export const makeHandler = () => apiDocsHandler(documentsApiDocument);

export const handler = makeHandler();
