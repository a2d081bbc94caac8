// GET /audio/{audio_id}/chapters.json — the headings of a narration with their real start, as Podcasting 2.0 JSON
// chapters (what a podcast feed's podcast:chapters points at). Same states as GET /audio/{id}/timings: pending 202,
// failed 409, unknown 404, past its retention 410 (files deleted).
import { createHash } from 'node:crypto';
import { apiHandler } from '../../shared/http/api-handler';
import { Conflict, NotFound, invalid } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { isSettled } from '../../shared/jobs/leased-job';
import { matchesEtag } from '../../shared/http/static-assets';
import { jsonChapters } from '../core/feeds/podcast';
import { expireOnAccess } from '../use-cases/data-control';
import { awsDeps, type NarrationDeps } from '../deps';
import type { StoredTimings } from '../ports';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export const makeHandler = (deps: Pick<NarrationDeps, 'audio' | 'store'>) =>
  apiHandler(async (req) => {
    const audioId = req.pathParams['audio_id'] ?? '';
    if (!ID.test(audioId))
      throw invalid(
        ['path', 'audio_id'],
        'audio_id should be the id returned by a convert endpoint',
        'string_pattern_mismatch',
      );
    const rec = await deps.audio.get(audioId);
    if (!rec) throw new NotFound('Audio not found. It may have expired.');
    await expireOnAccess(deps, rec, new Date());
    if (rec.status === 'failed')
      throw new Conflict(rec.error ?? 'The conversion failed: it has no chapters.', {
        audio_id: audioId,
        status: 'failed',
      });
    if (!isSettled(rec))
      return json(
        202,
        { audio_id: audioId, status: rec.status, progress: rec.progress ?? 0 },
        { 'retry-after': '2', 'cache-control': 'no-store' },
      );
    const stored = rec.timings
      ? ((await deps.store.getTimings(audioId)) as StoredTimings | undefined)
      : undefined;
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
