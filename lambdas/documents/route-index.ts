// Generated from routes.ts by scripts/route-index.ts (do not edit): what the $default route answers 405 for.
import type { RouteIndex } from '../shared/http/not-found';

export const ROUTE_INDEX: RouteIndex = [
  ['POST', '/v1/render'],
  ['GET', '/templates/{slug}/sample.pdf'],
  ['GET', '/templates'],
  ['GET', '/templates/{slug}/source'],
  ['GET', '/pricing'],
  ['GET', '/stats'],
  ['GET', '/pay/checkout/{plan}'],
  ['GET', '/pay/success'],
  ['GET', '/pay/status'],
  ['POST', '/pay/portal'],
  ['POST', '/pay/webhook'],
  ['POST', '/pay/keys/rotate'],
  ['GET', '/api'],
  ['GET', '/api/assets/{file}'],
  ['GET', '/'],
  ['GET', '/site/{file}'],
  ['GET', '/v1/jobs/{id}'],
  ['PUT', '/v1/webhook'],
  ['GET', '/v1/webhook'],
  ['DELETE', '/v1/webhook'],
  ['POST', '/v1/webhook/rotate-secret'],
  ['POST', '/v1/batches/upload'],
  ['POST', '/v1/batches'],
  ['GET', '/v1/batches/{id}'],
];
