// GET /api — the documents API reference: OpenAPI 3.1 JSON for `?format=json` or `Accept: application/json`, else
// the interactive page (Swagger UI) reading that JSON. Built once per container from the route manifest (each spec
// carries its docs) and the overview prose (every decision the contract leaves "not shown"), by the handler both
// services share (lambdas/shared/http/api-docs.ts).
import { apiDocsHandler } from '../../shared/http/api-docs';
import { buildOpenApi } from '../../shared/http/openapi';
import { documentsOverview } from '../api/overview';
import { documentsManifest } from '../routes';

export const documentsApiDocument = () =>
  buildOpenApi(documentsManifest, {
    title: 'Documents API',
    version: '1.0.0',
    description: documentsOverview(),
  });

export const makeHandler = () =>
  apiDocsHandler(documentsApiDocument, {
    title: 'API de Documentos',
    intro:
      'Convierte datos JSON o un CFDI 4.0 en XML, con una plantilla (factura, nómina, cotización…) o tu propio HTML, en PDF, PNG, Excel y otros formatos.',
  });

export const handler = makeHandler();
