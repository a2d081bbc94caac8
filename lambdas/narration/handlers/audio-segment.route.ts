// GET /audio/{audio_id}/seg/{segment}: the route's spec, next to its handler (audio-segment.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const audioSegmentRoute = {
  id: 'AudioSegment',
  method: 'GET',
  path: '/audio/{audio_id}/seg/{segment}',
  handler: 'lambdas/narration/handlers/audio-segment.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { audio: 'r' }, bucket: 'r+delete' },
} satisfies RouteSpec;
