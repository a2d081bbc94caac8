// GET /audio/{audio_id}/timings — where the audio says what: sentences (every conversion), words (engines with
// word marks), chapters, with UTF-16 offsets [start, end) into the text the caller sent. `?format=vtt` answers the
// sentences as WebVTT (a <track> for <audio>/<video>, subtitles). Pending: 202 {status, progress} + Retry-After.
// Failed: 409. Unknown (or converted before timings existed): 404. Past its retention: 410 (files deleted); the
// states are settledTimings' (./audio-lookup.ts).
// `?offsets=letters`: sentence and word offsets counted in letters and digits (what the embed player finds in a
// page whose text differs from the narrated one in spacing and punctuation: a URL narration's page).
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound, invalid } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { letterOffsets, toVtt } from '../core/reading';
import { awsDeps, type NarrationDeps } from '../deps';
import { AUDIO_ID, settledTimings } from './audio-lookup';

const INVALID_ID = 'audio_id should be the id returned by a convert endpoint (without .mp3, .wav or .ogg)';

export const makeHandler = (deps: Pick<NarrationDeps, 'audio' | 'store'>) =>
  apiHandler(async (req) => {
    const audioId = req.pathParams['audio_id'] ?? '';
    if (!AUDIO_ID.test(audioId)) throw invalid(['path', 'audio_id'], INVALID_ID, 'string_pattern_mismatch');
    const format = req.query['format'] ?? 'json';
    if (format !== 'json' && format !== 'vtt')
      throw invalid(['query', 'format'], "format should be 'json' or 'vtt'", 'literal_error');
    const offsets = req.query['offsets'] ?? 'utf16';
    if (offsets !== 'utf16' && offsets !== 'letters')
      throw invalid(['query', 'offsets'], "offsets should be 'utf16' or 'letters'", 'literal_error');
    const found = await settledTimings(deps, audioId, {
      invalidId: INVALID_ID,
      failed: 'The conversion failed: it has no timings.',
    });
    if ('pending' in found) return found.pending;
    const { rec, stored } = found;
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
