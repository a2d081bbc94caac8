// The lookups the audio sub-resources share. findPlayableAudio (stream.m3u8, seg/{n}.mp3, timings, chapters.json): a
// valid id, a known record, not expired (410; with `store`, the expired files are deleted too), not failed (409).
// settledTimings (timings, chapters.json): then 202 {status, progress} + Retry-After while the conversion runs, else
// the record and its stored timings. Each route may say its 400/404/409 in its own words. matchPathParam: a path
// parameter checked against its pattern (audioFileId: GET and DELETE /audio/{audio_id}'s id with its extension).
import { Conflict, NotFound, invalid } from '../../shared/errors';
import { json, type ApiResult } from '../../shared/http/response';
import { isSettled } from '../../shared/jobs/leased-job';
import { assertNotExpired, expireOnAccess } from '../use-cases/data-control';
import type { AudioFormat } from '../core/formats';
import type { AudioRecord, AudioRepository, AudioStore, StoredTimings } from '../ports';

export const AUDIO_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** GET and DELETE /audio/{audio_id}: the id, optionally followed by its file's extension (the audio_url form). */
const AUDIO_FILE_ID = /^([A-Za-z0-9_-]{1,64})(?:\.(mp3|wav|ogg))?$/;

/** A path parameter that must match `pattern`: its match, else 400/422 string_pattern_mismatch saying `message`. */
export function matchPathParam(
  params: Record<string, string | undefined>,
  name: string,
  pattern: RegExp,
  message: string,
): RegExpExecArray {
  const m = pattern.exec(params[name] ?? '');
  if (!m) throw invalid(['path', name], message, 'string_pattern_mismatch');
  return m;
}

/** The audio_id of GET and DELETE /audio/{audio_id}: the id and the extension it came with, if any. */
export function audioFileId(params: Record<string, string | undefined>): {
  audioId: string;
  ext?: AudioFormat;
} {
  const m = matchPathParam(
    params,
    'audio_id',
    AUDIO_FILE_ID,
    'audio_id should be the id returned by a convert endpoint, optionally followed by .mp3, .wav or .ogg',
  );
  return m[2] === undefined ? { audioId: m[1]! } : { audioId: m[1]!, ext: m[2] as AudioFormat };
}

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
