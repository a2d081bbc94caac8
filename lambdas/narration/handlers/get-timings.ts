// GET /audio/{audio_id}/timings — where the audio says what: sentences (every conversion), words (engines with
// word marks), chapters, with UTF-16 offsets [start, end) into the text the caller sent. `?format=vtt` answers the
// sentences as WebVTT (a <track> for <audio>/<video>, subtitles). Pending: 202 {status, progress} + Retry-After.
// Failed: 409. Unknown (or converted before timings existed): 404. Past its retention: 410 (files deleted).
// `?offsets=letters`: sentence and word offsets counted in letters and digits (what the embed player finds in a
// page whose text differs from the narrated one in spacing and punctuation: a URL narration's page).
import { apiHandler } from '../../shared/http/api-handler';
import { Conflict, NotFound, invalid } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { isSettled } from '../../shared/jobs/leased-job';
import { letterOffsets, toVtt } from '../core/reading';
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
        'audio_id should be the id returned by a convert endpoint (without .mp3, .wav or .ogg)',
        'string_pattern_mismatch',
      );
    const format = req.query['format'] ?? 'json';
    if (format !== 'json' && format !== 'vtt')
      throw invalid(['query', 'format'], "format should be 'json' or 'vtt'", 'literal_error');
    const offsets = req.query['offsets'] ?? 'utf16';
    if (offsets !== 'utf16' && offsets !== 'letters')
      throw invalid(['query', 'offsets'], "offsets should be 'utf16' or 'letters'", 'literal_error');
    const rec = await deps.audio.get(audioId);
    if (!rec)
      throw new NotFound(
        'Audio not found. It may have expired; audio is kept for a limited time after conversion.',
      );
    await expireOnAccess(deps, rec, new Date()); // 410 past its retention (use-cases/data-control.ts)
    if (rec.status === 'failed')
      throw new Conflict(rec.error ?? 'The conversion failed: it has no timings.', {
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
    if (!stored)
      throw new NotFound('This audio has no timings (it was converted before timings were recorded).');
    const cache = { 'cache-control': 'private, max-age=3600' };
    if (format === 'vtt')
      return {
        statusCode: 200,
        headers: { 'content-type': 'text/vtt; charset=utf-8', ...cache },
        body: toVtt(stored.cues, stored.sentences),
      };
    return json(
      200,
      {
        audio_id: audioId,
        status: 'done',
        duration_s: rec.durationS,
        ...(offsets === 'letters'
          ? {
              sentences: letterOffsets(stored.sentences, stored.sentences, stored.cues),
              words: letterOffsets(stored.words, stored.sentences, stored.cues),
            }
          : { sentences: stored.sentences, words: stored.words }),
        chapters: stored.chapters,
      },
      cache,
    );
  });

export const handler = makeHandler(awsDeps());
