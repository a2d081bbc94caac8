// The lookups the audio sub-resources share. findPlayableAudio (stream.m3u8, seg/{n}.mp3, timings, chapters.json): a
// valid id, a known record, not expired (410; with `store`, the expired files are deleted too), not failed (409).
// settledTimings (timings, chapters.json): then 202 {status, progress} + Retry-After while the conversion runs, else
// the record and its stored timings. Each route may say its 400/404/409 in its own words.
import { Conflict, NotFound, invalid } from '../../shared/errors';
import { json, type ApiResult } from '../../shared/http/response';
import { isSettled } from '../../shared/jobs/leased-job';
import { assertNotExpired, expireOnAccess } from '../use-cases/data-control';
import type { AudioRecord, AudioRepository, AudioStore, StoredTimings } from '../ports';

export const AUDIO_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A route's own words for the lookup's answers (the defaults are the stream's and segments'). */
export interface LookupTexts {
  invalidId?: string;
  notFound?: string;
  failed?: string;
}

export async function findPlayableAudio(
  audio: AudioRepository,
  rawId: string,
  store?: Pick<AudioStore, 'deleteAudio'>,
  texts: LookupTexts = {},
): Promise<AudioRecord> {
  if (!AUDIO_ID.test(rawId))
    throw invalid(
      ['path', 'audio_id'],
      texts.invalidId ??
        'audio_id should be the id returned by a convert endpoint (letters, digits, _ and -)',
      'string_pattern_mismatch',
    );
  const rec = await audio.get(rawId);
  if (!rec)
    throw new NotFound(
      texts.notFound ??
        'Audio not found. It may have expired; audio is kept for a limited time after conversion.',
    );
  // 410 past its retention (use-cases/data-control.ts)
  if (store) await expireOnAccess({ store }, rec, new Date());
  else assertNotExpired(rec, new Date());
  if (rec.status === 'failed')
    throw new Conflict(rec.error ?? texts.failed ?? 'The conversion failed. Please submit the text again.', {
      audio_id: rawId,
      status: 'failed',
    });
  return rec;
}

/** 202 while the conversion runs, else the record and its timings (undefined: converted before they existed). */
export async function settledTimings(
  deps: { audio: AudioRepository; store: Pick<AudioStore, 'deleteAudio' | 'getTimings'> },
  audioId: string,
  texts: LookupTexts,
): Promise<{ pending: ApiResult } | { rec: AudioRecord; stored: StoredTimings | undefined }> {
  const rec = await findPlayableAudio(deps.audio, audioId, deps.store, texts);
  if (!isSettled(rec))
    return {
      pending: json(
        202,
        { audio_id: audioId, status: rec.status, progress: rec.progress ?? 0 },
        { 'retry-after': '2', 'cache-control': 'no-store' },
      ),
    };
  const stored = rec.timings
    ? ((await deps.store.getTimings(audioId)) as StoredTimings | undefined)
    : undefined;
  return { rec, stored };
}
