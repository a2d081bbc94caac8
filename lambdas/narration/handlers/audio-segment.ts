// GET /audio/{audio_id}/seg/{n}.mp3 — one MP3 segment of a long job's audio (listed by stream.m3u8): 302 to a
// short-lived presigned URL of `audio/<id>/seg/<n>.mp3` in the bucket, as GET /audio/{id} does for the whole
// file (bytes never pass through API Gateway/Lambda, whose 6 MB response limit a long segment could exceed).
// A segment that has not landed yet is 404 with a detail that says so.
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound } from '../../shared/errors';
import { redirect } from '../../shared/http/response';
import { awsDeps, type NarrationDeps } from '../deps';
import { findPlayableAudio, matchPathParam } from './audio-lookup';

const SEGMENT = /^(0|[1-9][0-9]{0,5})\.mp3$/;

export const makeHandler = (deps: Pick<NarrationDeps, 'audio' | 'store' | 'config'>) =>
  apiHandler(async (req) => {
    const m = matchPathParam(
      req.pathParams,
      'segment',
      SEGMENT,
      'segment should be <n>.mp3, n a segment number from 0 as listed in stream.m3u8',
    );
    const n = Number(m[1]);
    const rec = await findPlayableAudio(deps.audio, req.pathParams['audio_id'] ?? '', deps.store);
    if (!(rec.segments ?? []).some((s) => s.n === n))
      throw new NotFound(
        rec.status === 'done'
          ? `This audio has no segment ${n}: its playlist (stream.m3u8) lists the segments there are.`
          : `Segment ${n} is not ready yet: reload the playlist (stream.m3u8), it lists the segments ready so far.`,
      );
    const url = await deps.store.presignSegment(rec.audioId, n, deps.config.PRESIGN_TTL_S);
    return redirect(url, { 'cache-control': 'private, no-store' });
  });

export const handler = makeHandler(awsDeps());
