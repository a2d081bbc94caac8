// DELETE /audio/{audio_id}: the route's spec, next to its handler (delete-audio.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_PREFIXES } from '../bucket';
import { ErrorDetail, ValidationError } from '../api/schemas';

export const deleteAudioRoute = {
  id: 'DeleteAudio',
  method: 'DELETE',
  path: '/audio/{audio_id}',
  handler: 'lambdas/narration/handlers/delete-audio.ts',
  memoryMb: 256,
  timeoutS: 10,
  access: { tables: { audio: 'rw', keys: 'r' }, bucket: 'rw', bucketPrefixes: CONVERSION_PREFIXES },
  docs: {
    summary: 'Delete an audio',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'Removes the audio file(s), segments, timings and record. Allowed to the account that made it (any of its ' +
      'keys) or, for audio made without a key, to the same client address within a day; everyone else gets 404 ' +
      'like an unknown id. Afterwards GET /audio/{id} is 404 and earlier presigned URLs fail.',
    params: [
      {
        name: 'audio_id',
        in: 'path',
        required: true,
        description: 'audio_id (optionally with .mp3/.wav/.ogg)',
      },
    ],
    responses: {
      204: { description: 'Deleted' },
      401: { description: 'No, unknown or revoked API key', schema: ErrorDetail },
      404: { description: 'Unknown, already deleted, or not yours', schema: ErrorDetail },
      422: { description: 'Malformed audio_id', schema: ValidationError },
    },
  },
} satisfies RouteSpec;
