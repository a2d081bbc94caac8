// The lookup the audio sub-resources share (stream.m3u8, seg/{n}.mp3): a valid id, a known record, not expired (410;
// with `store`, the expired files are deleted too), not failed.
import { Conflict, NotFound, invalid } from '../../shared/errors';
import { assertNotExpired, expireOnAccess } from '../use-cases/data-control';
import type { AudioRecord, AudioRepository, AudioStore } from '../ports';

const AUDIO_ID = /^[A-Za-z0-9_-]{1,64}$/;

export async function findPlayableAudio(
  audio: AudioRepository,
  rawId: string,
  store?: Pick<AudioStore, 'deleteAudio'>,
): Promise<AudioRecord> {
  if (!AUDIO_ID.test(rawId))
    throw invalid(
      ['path', 'audio_id'],
      'audio_id should be the id returned by a convert endpoint (letters, digits, _ and -)',
      'string_pattern_mismatch',
    );
  const rec = await audio.get(rawId);
  if (!rec)
    throw new NotFound(
      'Audio not found. It may have expired; audio is kept for a limited time after conversion.',
    );
  // 410 past its retention (use-cases/data-control.ts)
  if (store) await expireOnAccess({ store }, rec, new Date());
  else assertNotExpired(rec, new Date());
  if (rec.status === 'failed')
    throw new Conflict(rec.error ?? 'The conversion failed. Please submit the text again.', {
      audio_id: rawId,
      status: 'failed',
    });
  return rec;
}
