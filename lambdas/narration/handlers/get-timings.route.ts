// GET /audio/{audio_id}/timings: the route's spec, next to its handler; routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_PREFIXES } from '../bucket';
import { Timings, ErrorDetail } from '../api/schemas';
import { z as zod } from 'zod';
import { common } from '../api/doc-parts';

export const getTimingsRoute = {
  id: 'GetTimings',
  method: 'GET',
  path: '/audio/{audio_id}/timings',
  handler: 'lambdas/narration/handlers/get-timings.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { audio: 'r' }, bucket: 'r+delete', bucketPrefixes: CONVERSION_PREFIXES },
  docs: {
    summary: 'Follow the text: sentence and word timings',
    tags: ['narration'],
    description:
      'Where the audio says what. `sentences` (every conversion): `start_s`/`end_s` in the audio and ' +
      '`start`/`end`, UTF-16 offsets (end exclusive) into the text you sent — not the words it was read as: a ' +
      'date read as "quince de marzo" still points at "15/03". A sentence ends where the next begins. `words`: ' +
      'the same per word where the engine gives word marks (Amazon Polly), else empty. `chapters`: headings with ' +
      'their offset (code points) and real start. Sentence starts are exact at the start of every synthesis ' +
      'chunk and found from the pauses inside it. SSML input has no sentence timings. `?format=vtt` answers the ' +
      'sentences as WebVTT cues (for a `<track>`).',
    params: [
      { name: 'audio_id', in: 'path', required: true, description: 'audio_id (no extension)' },
      { name: 'format', in: 'query', required: false, description: '`json` (default) or `vtt`' },
      {
        name: 'offsets',
        in: 'query',
        required: false,
        description:
          '`utf16` (default) or `letters`: `start`/`end` of sentences and words counted in letters and digits only ' +
          '(the embed player uses it to find the text in a page that spaces or punctuates it differently)',
      },
    ],
    responses: {
      200: { description: 'Timings (JSON), or WebVTT with ?format=vtt (text/vtt)', schema: Timings },
      202: {
        description: 'Still queued or processing',
        schema: zod.object({ audio_id: zod.string(), status: zod.string(), progress: zod.number() }),
        headers: { 'Retry-After': 'Seconds before asking again' },
      },
      404: { description: 'Unknown, expired, or converted before timings existed', schema: ErrorDetail },
      409: { description: 'The conversion failed', schema: ErrorDetail },
      422: common[422],
    },
  },
} satisfies RouteSpec;
