// GET /api and GET /api/assets/{file} (the reference page's files): the routes' specs, next to its handler (api.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { API_ASSET_ROUTE_DOC, API_DOCS_ROUTE_DOC } from '../../shared/http/openapi';

export const apiDocsRoute = {
  id: 'ApiDocs',
  method: 'GET',
  path: '/api',
  handler: 'lambdas/narration/handlers/api.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: {},
  docs: API_DOCS_ROUTE_DOC,
} satisfies RouteSpec;

export const apiAssetRoute = {
  ...apiDocsRoute,
  id: 'ApiAsset',
  path: '/api/assets/{file}',
  docs: API_ASSET_ROUTE_DOC,
} satisfies RouteSpec;
