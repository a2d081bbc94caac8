// GET /api — the documents API reference: OpenAPI 3.1 JSON for `?format=json` or `Accept: application/json`, else
// the interactive page (Swagger UI) reading that JSON. Built once per container from the route manifest (each spec
// carries its docs) and the overview prose (../api/overview.ts: every decision the contract leaves "not shown"), by
// the handler both services share (lambdas/shared/http/api-docs.ts).
import { serviceApiDocs } from '../../shared/http/api-docs';
import { DOCUMENTS_API } from '../api/overview';
import { documentsManifest } from '../routes';

export const { document: documentsApiDocument, makeHandler } = serviceApiDocs(
  documentsManifest,
  DOCUMENTS_API,
);
export const handler = makeHandler();
