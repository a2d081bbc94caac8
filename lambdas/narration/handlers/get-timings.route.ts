// GET /audio/{audio_id}/timings: the route's spec, next to its handler; routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const getTimingsRoute = {
  id: 'GetTimings',
  method: 'GET',
  path: '/audio/{audio_id}/timings',
  handler: 'lambdas/narration/handlers/get-timings.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { audio: 'r' }, bucket: 'r+delete' },
} satisfies RouteSpec;
