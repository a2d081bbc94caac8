// GET /audio/{audio_id}: the route's spec, next to its handler (get-audio.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const getAudioRoute = {
  id: 'GetAudio',
  method: 'GET',
  path: '/audio/{audio_id}',
  handler: 'lambdas/narration/handlers/get-audio.ts',
  memoryMb: 256,
  // A pending job's audio request is held up to WAIT_WINDOW_S (25 s), below API Gateway's 30 s.
  timeoutS: 29,
  access: { tables: { audio: 'r' }, bucket: 'r+delete' },
} satisfies RouteSpec;
