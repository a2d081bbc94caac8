// GET /audio/{audio_id}/stream.m3u8: the route's spec, next to its handler (audio-stream.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { z as zod } from 'zod';
import { ErrorDetail } from '../api/schemas';
import { common } from '../api/doc-parts';

export const audioStreamRoute = {
  id: 'AudioStream',
  method: 'GET',
  path: '/audio/{audio_id}/stream.m3u8',
  handler: 'lambdas/narration/handlers/audio-stream.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { audio: 'r' } },
  docs: {
    summary: 'Listen while it is made (HLS playlist)',
    tags: ['narration'],
    description:
      'An HLS (version 3) EVENT playlist of the audio in MP3 segments: while a long conversion runs it lists the ' +
      'segments ready so far, in order, each with its `#EXTINF` duration; players reload it (about every ' +
      '`#EXT-X-TARGETDURATION` seconds) and find `#EXT-X-ENDLIST` once the audio is complete. Segment URIs are ' +
      'relative (`seg/<n>.mp3`). The target duration is the longest segment seen so far (4 before the first ' +
      'lands), so it may grow while the job runs. A short MP3 made in one go is listed as its single file ' +
      '(`../<id>.mp3`). Safari plays it natively; elsewhere use the embeddable player (`/embed.js`), which plays ' +
      'the segments in order.',
    params: [{ name: 'audio_id', in: 'path', required: true, description: 'audio_id (no extension)' }],
    responses: {
      200: {
        description: 'The playlist (`Cache-Control: no-store` while pending)',
        contentType: 'application/vnd.apple.mpegurl',
        schema: zod.string(),
      },
      404: {
        description: 'Unknown or expired, or an OGG/WAV audio made in one go (no MP3 segments)',
        schema: ErrorDetail,
      },
      409: { description: 'The conversion failed; the body says why. Submit again.', schema: ErrorDetail },
      422: common[422],
    },
  },
} satisfies RouteSpec;
