// Generated from the services' routes.ts by scripts/route-index.ts (do not edit): the routes every service serves alike.
import type { RouteIndex } from './not-found';

export const SHARED_ROUTE_INDEX: RouteIndex = [
  ['GET', '/stats'],
  ['GET', '/pay/checkout/{plan}'],
  ['GET', '/pay/success'],
  ['GET', '/pay/status'],
  ['POST', '/pay/portal'],
  ['POST', '/pay/webhook'],
  ['POST', '/pay/keys/rotate'],
  ['GET', '/'],
  ['GET', '/site/{file}'],
  ['GET', '/api'],
  ['GET', '/api/assets/{file}'],
  ['PUT', '/v1/webhook'],
  ['GET', '/v1/webhook'],
  ['DELETE', '/v1/webhook'],
  ['POST', '/v1/webhook/rotate-secret'],
];
