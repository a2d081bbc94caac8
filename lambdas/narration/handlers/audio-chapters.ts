// GET /audio/{audio_id}/chapters.json — the headings of a narration with their real start, as Podcasting 2.0 JSON
// chapters (what a podcast feed's podcast:chapters points at). Same states as GET /audio/{id}/timings: pending 202,
// failed 409, unknown 404, past its retention 410 (files deleted): settledTimings (./audio-lookup.ts).
import { createHash } from 'node:crypto';
import { apiHandler } from '../../shared/http/api-handler';
import { matchesEtag } from '../../shared/http/static-assets';
import { jsonChapters } from '../core/feeds/podcast';
import { awsDeps, type NarrationDeps } from '../deps';
import { settledTimings } from './audio-lookup';

export const makeHandler = (deps: Pick<NarrationDeps, 'audio' | 'store'>) =>
  apiHandler(async (req) => {
    const audioId = req.pathParams['audio_id'] ?? '';
    const found = await settledTimings(deps, audioId, {
      invalidId: 'audio_id should be the id returned by a convert endpoint',
      notFound: 'Audio not found. It may have expired.',
      failed: 'The conversion failed: it has no chapters.',
    });
    if ('pending' in found) return found.pending;
    const { rec, stored } = found;
    const body = JSON.stringify(jsonChapters(stored?.chapters ?? [], rec.title));
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    const headers = {
      'content-type': 'application/json+chapters',
      'cache-control': 'public, max-age=3600',
      etag,
      'access-control-allow-origin': '*',
    };
    if (matchesEtag(req.headers['if-none-match'], etag)) return { statusCode: 304, headers, body: '' };
    return { statusCode: 200, headers, body };
  });

export const handler = makeHandler(awsDeps());
