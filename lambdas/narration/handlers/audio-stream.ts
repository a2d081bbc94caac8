// GET /audio/{audio_id}/stream.m3u8 — an HLS v3 EVENT playlist of the audio's MP3 segments: while a long job runs it
// lists the segments landed so far (players reload it), and ends with #EXT-X-ENDLIST once the job is done. A short
// MP3 conversion made in one go (no segments) is listed as its one file (`../<id>.mp3`, the audio_url). Segment
// URIs (`seg/<n>.mp3`) answer with a redirect to the segment in the bucket (audio-segment.ts).
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound } from '../../shared/errors';
import type { ApiResult } from '../../shared/http/response';
import { awsDeps, type NarrationDeps } from '../deps';
import { hlsPlaylist } from '../core/hls';
import { audioUrl } from '../use-cases/job-answers';
import { findPlayableAudio } from './audio-lookup';

export const HLS_CONTENT_TYPE = 'application/vnd.apple.mpegurl';

export const makeHandler = (deps: Pick<NarrationDeps, 'audio'>) =>
  apiHandler(async (req): Promise<ApiResult> => {
    const rec = await findPlayableAudio(deps.audio, req.pathParams['audio_id'] ?? '');
    const done = rec.status === 'done';
    const segments = rec.segments ?? [];
    if (done && segments.length === 0 && rec.fmt !== 'mp3')
      throw new NotFound(
        `This audio was produced as ${rec.fmt.toUpperCase()} in one file and has no MP3 segments to stream: ` +
          `fetch ${audioUrl(rec.audioId, rec.fmt)}.`,
      );
    const body = hlsPlaylist({
      segments,
      done,
      ...(done && rec.durationS !== undefined
        ? { whole: { uri: `../${rec.audioId}.mp3`, duration_s: rec.durationS } }
        : {}),
    });
    return {
      statusCode: 200,
      headers: {
        'content-type': HLS_CONTENT_TYPE,
        // A pending playlist changes with every segment; a finished one never does.
        'cache-control': done ? 'public, max-age=3600' : 'no-store',
      },
      body,
    };
  });

export const handler = makeHandler(awsDeps());
