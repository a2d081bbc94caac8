// Generated from routes.ts by scripts/route-index.ts (do not edit): what the $default route answers 405 for.
import type { RouteIndex } from '../shared/http/not-found';

export const ROUTE_INDEX: RouteIndex = [
  ['GET', '/voices'],
  ['POST', '/convert/text'],
  ['POST', '/convert/pdf'],
  ['POST', '/convert/pdf/upload'],
  ['POST', '/convert/url'],
  ['POST', '/demo/try'],
  ['GET', '/audio/{audio_id}'],
  ['GET', '/audio/{audio_id}/stream.m3u8'],
  ['GET', '/audio/{audio_id}/seg/{segment}'],
  ['POST', '/waitlist'],
  ['GET', '/waitlist/count'],
  ['GET', '/ab/assign/{experiment}'],
  ['POST', '/ab/event'],
  ['GET', '/ab/results/{experiment}'],
  ['GET', '/stats'],
  ['GET', '/pay/checkout/{plan}'],
  ['GET', '/pay/success'],
  ['GET', '/pay/status'],
  ['POST', '/pay/portal'],
  ['POST', '/pay/webhook'],
  ['POST', '/pay/keys/rotate'],
  ['GET', '/embed.js'],
  ['GET', '/api'],
];
