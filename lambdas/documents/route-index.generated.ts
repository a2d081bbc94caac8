// Generated from routes.ts by scripts/route-index.ts (do not edit): what the $default route answers 405 for, with the shared ones (shared/http's index).
import type { RouteIndex } from '../shared/http/not-found';

export const ROUTE_INDEX: RouteIndex = [
  ['POST', '/v1/render'],
  ['GET', '/templates/{slug}/sample.pdf'],
  ['GET', '/templates'],
  ['GET', '/templates/{slug}/source'],
  ['GET', '/pricing'],
  ['GET', '/v1/jobs/{id}'],
  ['PUT', '/v1/brand'],
  ['GET', '/v1/brand'],
  ['DELETE', '/v1/brand'],
  ['POST', '/v1/batches/upload'],
  ['POST', '/v1/batches'],
  ['GET', '/v1/batches/{id}'],
];
