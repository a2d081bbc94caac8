// GET /audio/{audio_id}/seg/{segment}: the route's spec, next to its handler (audio-segment.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_PREFIXES } from '../bucket';
import { ErrorDetail, ValidationError } from '../api/schemas';

export const audioSegmentRoute = {
  id: 'AudioSegment',
  method: 'GET',
  path: '/audio/{audio_id}/seg/{segment}',
  handler: 'lambdas/narration/handlers/audio-segment.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { audio: 'r' }, bucket: 'r+delete', bucketPrefixes: CONVERSION_PREFIXES },
  docs: {
    summary: 'One segment of the playlist',
    tags: ['narration'],
    description:
      '302 to a presigned URL (valid 5 minutes) of MP3 segment n (from 0) of a long conversion, as listed in ' +
      "`stream.m3u8`. Segments are CBR MP3 at the audio's sample rate; played in order they make the whole audio.",
    params: [
      { name: 'audio_id', in: 'path', required: true, description: 'audio_id (no extension)' },
      { name: 'segment', in: 'path', required: true, description: '`<n>.mp3`, n from 0' },
    ],
    responses: {
      302: { description: 'Redirect to the segment file', headers: { Location: 'Presigned URL' } },
      404: {
        description: 'Unknown audio, or no such segment (yet: the detail says so; reload the playlist)',
        schema: ErrorDetail,
      },
      409: { description: 'The conversion failed', schema: ErrorDetail },
      422: { description: 'Malformed audio_id or segment name', schema: ValidationError },
    },
  },
} satisfies RouteSpec;
