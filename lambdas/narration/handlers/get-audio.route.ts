// GET /audio/{audio_id}: the route's spec, next to its handler (get-audio.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const getAudioRoute = {
  id: 'GetAudio',
  method: 'GET',
  path: '/audio/{audio_id}',
  handler: 'lambdas/narration/handlers/get-audio.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { audio: 'r' }, bucket: 'r' },
} satisfies RouteSpec;
