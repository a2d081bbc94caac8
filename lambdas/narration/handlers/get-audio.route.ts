// GET /audio/{audio_id}: the route's spec, next to its handler (get-audio.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_PREFIXES } from '../bucket';
import { AudioReady, AudioPending, ErrorDetail } from '../api/schemas';
import { common } from '../api/doc-parts';

export const getAudioRoute = {
  id: 'GetAudio',
  method: 'GET',
  path: '/audio/{audio_id}',
  handler: 'lambdas/narration/handlers/get-audio.ts',
  memoryMb: 256,
  // A pending job's audio request is held up to WAIT_WINDOW_S (25 s), below API Gateway's 30 s.
  timeoutS: 29,
  access: { tables: { audio: 'r' }, bucket: 'r+delete', bucketPrefixes: CONVERSION_PREFIXES },
  docs: {
    summary: 'Fetch audio',
    tags: ['narration'],
    description:
      'Also reachable as /audio/<id>.mp3 (the audio_url). Ready: 302 to a presigned URL valid 5 minutes. ' +
      'Send `Accept: application/json` to get the result (with duration_s and the URL) instead of the redirect. ' +
      'Pending: an audio request (no JSON Accept: players, downloads, curl) is held until the audio is ready ' +
      '(then 302) for up to 25 s, then answered 307 to the same URL with a `wait` counter and `Retry-After`, so ' +
      'a client that follows redirects keeps waiting and never receives a JSON body at an audio URL. JSON clients ' +
      'get 202 with the progress at once.',
    params: [
      {
        name: 'audio_id',
        in: 'path',
        required: true,
        description: 'audio_id, optionally with .mp3/.wav/.ogg',
      },
    ],
    responses: {
      200: { description: 'With Accept: application/json, when ready', schema: AudioReady },
      202: {
        description: 'Still queued or processing',
        schema: AudioPending,
        headers: { 'Retry-After': 'Seconds before polling again' },
      },
      302: { description: 'Ready: redirect to the audio file', headers: { Location: 'Presigned URL' } },
      307: {
        description: 'Pending after the 25 s hold (audio requests only): ask the same URL again',
        headers: { Location: '/audio/<id>.<fmt>?wait=<n>', 'Retry-After': 'Seconds before asking again' },
      },
      404: {
        description: 'Unknown, deleted, or expired and purged (audio is kept 30 days or its retention_days)',
        schema: ErrorDetail,
      },
      409: { description: 'The conversion failed; the body says why. Submit again.', schema: ErrorDetail },
      410: {
        description:
          'Past its retention (retention_days; demos 1 day): its files are deleted. Answered until the record is purged (about two days), then 404.',
        schema: ErrorDetail,
      },
      422: common[422],
    },
  },
} satisfies RouteSpec;
