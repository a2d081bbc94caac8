// "Nothing narrated twice" inside a conversion request (docs/reuse.md): the request's fingerprint (core/reuse.ts),
// the pointer from it to the conversion it became, and the answer an identical later request gets from it. Talks
// only to ports.
import { logger } from '../../shared/logger';
import type { NarrationDeps } from '../deps';
import { reuseKey, stillReusable } from '../core/reuse';
import { DEFAULT_LOUDNESS } from '../audio/loudness';
import type { AudioRecord } from '../ports';
import { audioOwner } from './data-control';
import type { ConversionInput } from './conversion-input';
import { answerBase, doneAnswer, queuedAnswer, settleJob, type ConversionOutcome } from './job-answers';

/** The request's fingerprint, or undefined when it is not to be reused (no index, or the caller said so). */
export function fingerprintOf(
  deps: NarrationDeps,
  input: ConversionInput,
  retentionDays: number,
): string | undefined {
  if (!deps.reuse || input.reuse === false) return undefined;
  return reuseKey({
    owner: audioOwner(input.caller) + (input.reuseScope ? `|${input.reuseScope}` : ''),
    text: input.text,
    voice: input.voice.id,
    fmt: input.fmt,
    engine: deps.config.SPEECH_ENGINE,
    voiceEngine: input.voice.polly.engine,
    // No `loudness` asked is the default target: the same audio as asking for it.
    loudness: input.speech?.loudness ?? DEFAULT_LOUDNESS.lufs,
    speech: input.speech,
    title: input.title,
    headings: input.headings,
    retentionDays,
  });
}

/**
 * An identical earlier request of this caller (same fingerprint): its audio answers this one, nothing is charged or
 * narrated. Done → 200 now; still queued or narrating → waited for like its own request would (200, else 202);
 * failed, deleted, expired, or past half its retention → undefined (narrate anew). A failed lookup is a miss.
 */
export async function reuseEarlier(
  deps: NarrationDeps,
  fingerprint: string,
  input: ConversionInput,
  now: Date,
): Promise<ConversionOutcome | undefined> {
  let record: AudioRecord | undefined;
  try {
    const id = await deps.reuse!.find(fingerprint);
    record = id === undefined ? undefined : await deps.audio.get(id);
  } catch (err) {
    logger.warn('reuse lookup failed: narrating', { error: err as Error });
    return undefined;
  }
  if (
    !record ||
    record.status === 'failed' ||
    record.owner !== audioOwner(input.caller) ||
    record.fmt !== input.fmt ||
    !stillReusable(record, now)
  )
    return undefined;
  if (record.status !== 'done') record = await holdEarlier(deps, record);
  if (!record) return undefined;
  const settled = await settleJob(deps, record, input);
  if (settled?.status === 'failed') return undefined;
  logger.info('identical request: earlier audio reused', {
    audioId: record.audioId,
    status: settled?.status ?? record.status,
  });
  const base = { ...answerBase(record), reused: true };
  if (settled?.status === 'done') return doneAnswer(deps, base, settled, {});
  return queuedAnswer(base, { ...record, pauseS: input.pauseS }, {});
}

/**
 * Makes an unsettled earlier job this request's too, before it is waited for or named in a 202: marks it
 * `referenced` (its own request can then no longer retire it: narration-job.ts retireUnlessReferenced). A job being
 * narrated inside its request has its backstop message on the way (queueBackstop): the worker finishes it if that
 * request died and skips it if done. Answers the record to answer with (done meanwhile: that one), or undefined when
 * it failed or went (a miss).
 */
async function holdEarlier(deps: NarrationDeps, record: AudioRecord): Promise<AudioRecord | undefined> {
  const { audioId } = record;
  try {
    if (!(await deps.audio.reference(audioId))) {
      const current = await deps.audio.get(audioId);
      return current?.status === 'done' ? current : undefined;
    }
  } catch (err) {
    logger.warn('reuse hold failed: narrating', { error: err as Error, audioId });
    return undefined;
  }
  return { ...record, referenced: true };
}

export async function rememberSafely(
  deps: NarrationDeps,
  fingerprint: string | undefined,
  record: AudioRecord,
): Promise<void> {
  if (!fingerprint || !deps.reuse) return;
  await deps.reuse
    .remember(fingerprint, record.audioId, record.expiresAt)
    .catch((e) => logger.warn('reuse pointer not written', { error: e as Error, audioId: record.audioId }));
}
