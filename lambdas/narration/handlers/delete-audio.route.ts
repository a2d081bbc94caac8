// DELETE /audio/{audio_id}: the route's spec, next to its handler (delete-audio.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const deleteAudioRoute = {
  id: 'DeleteAudio',
  method: 'DELETE',
  path: '/audio/{audio_id}',
  handler: 'lambdas/narration/handlers/delete-audio.ts',
  memoryMb: 256,
  timeoutS: 10,
  access: { tables: { audio: 'rw', keys: 'r' }, bucket: 'rw' },
} satisfies RouteSpec;
