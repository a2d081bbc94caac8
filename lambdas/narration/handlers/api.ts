// GET /api — the API reference: OpenAPI 3.1 JSON for `?format=json` or `Accept: application/json`, else the
// interactive page (Swagger UI) reading that JSON. Built once per container from the route manifest (each spec
// carries its docs) and the overview prose, by the handler both services share (lambdas/shared/http/api-docs.ts).
import { apiDocsHandler } from '../../shared/http/api-docs';
import { buildOpenApi } from '../../shared/http/openapi';
import { NARRATION_OVERVIEW } from '../api/overview';
import { narrationManifest } from '../routes';

export const narrationApiDocument = () =>
  buildOpenApi(narrationManifest, {
    title: 'Narration API',
    version: '1.0.0',
    description: NARRATION_OVERVIEW,
  });

export const makeHandler = () =>
  apiDocsHandler(narrationApiDocument, {
    title: 'API de Narración',
    intro:
      'Convierte texto, PDF o artículos web en español en audio narrado (MP3, WAV u OGG) con voces de México y España.',
  });

export const handler = makeHandler();
