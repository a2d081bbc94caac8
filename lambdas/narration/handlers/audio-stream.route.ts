// GET /audio/{audio_id}/stream.m3u8: the route's spec, next to its handler (audio-stream.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const audioStreamRoute = {
  id: 'AudioStream',
  method: 'GET',
  path: '/audio/{audio_id}/stream.m3u8',
  handler: 'lambdas/narration/handlers/audio-stream.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { audio: 'r' } },
} satisfies RouteSpec;
