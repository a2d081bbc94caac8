// A conversion's job, from the moment it is durable to its end: its text and record written together (makeDurable),
// retired when its request fails before it was accepted, narrated to the store (inline by the request, or by the
// worker: runJob) and ended once (jobEnded: the charge settled, the webhook, the counters). Talks only to ports.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkStopped } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { recordConversionStatsSafely, recordJobFailureSafely } from '../../shared/growth/stats';
import { JobBusyError, runLeasedJob } from '../../shared/jobs/leased-job';
import type { NarrationDeps } from '../deps';
import type { AudioFormat } from '../core/formats';
import type { SpeechOptions } from '../core/speech';
import type { Voice } from '../core/voices';
import type { AudioRecord, Segment, StoredTimings } from '../ports';
import { narrate } from './narrate';
import { queueAudioEvent } from './webhooks';
import { settleCharge } from './free-charge';

/** Durations are reported to the millisecond. */
export function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * Writes a job's text, then its record (`queued`): from then on a worker can finish it. With SSML or a lexicon the
 * text is a JSON envelope `{text, speech}` and the record says so (the worker reads it the same way).
 */
export async function makeDurable(
  deps: NarrationDeps,
  record: AudioRecord,
  text: string,
  speech: SpeechOptions | undefined,
): Promise<void> {
  await deps.store.putJobText(record.audioId, speech ? JSON.stringify({ text, speech }) : text);
  await deps.audio.create({ ...record, progress: 0, ...(speech ? { speechOptions: true as const } : {}) });
}

/**
 * No request outlives API Gateway's integration timeout (30 s) by much: by then a job narrated inside its request is
 * done, handed over or its request is dead.
 */
export const REQUEST_MAX_S = 35;

/**
 * A free job's backstop, queued as soon as it is durable: a message that shows up once its request's deadline has
 * passed. A request can die anywhere (a Lambda killed or timed out answers nothing and hands nothing over); the worker
 * then finishes the job if it was charged, retires it if not ("ended before the conversion was charged"), and skips it
 * if settled or held by another worker. Without it a charged job whose request died before queueing it (or while
 * narrating it inside the request) would wait forever in the cloud. Never throws: a lost backstop leaves the job to
 * its request, its idempotent retry, or a local restart's re-queue.
 */
export async function queueBackstop(deps: NarrationDeps, record: AudioRecord): Promise<void> {
  await deps.queue
    .enqueue({ audioId: record.audioId, backstop: true }, record.plan !== 'free', REQUEST_MAX_S)
    .catch((e) => logger.warn('backstop message not sent', { error: e as Error, audioId: record.audioId }));
}

/** Marks a job that must never run (its request failed before it was accepted) failed; never throws. */
export async function retire(deps: NarrationDeps, audioId: string, reason: string): Promise<void> {
  await deps.audio
    .fail(audioId, reason)
    .catch((e) => logger.error('could not retire an unaccepted job', { error: e as Error, audioId }));
  await deps.store.deleteJobText(audioId).catch(() => undefined);
}

/**
 * Retires the job of a request that failed or was answered 503 — unless an identical request was answered with it
 * meanwhile (`referenced`, docs/reuse.md): then its caller gets the audio through that answer, so the job is handed
 * to the worker (queued; a duplicate message is harmless: one claim per job) and its charge stays. 'retired' also
 * when the job had already failed or is gone (nothing will be delivered). Never throws.
 */
export async function retireUnlessReferenced(
  deps: NarrationDeps,
  record: AudioRecord,
  reason: string,
): Promise<'retired' | 'handed over'> {
  const { audioId } = record;
  try {
    if (await deps.audio.retireUnreferenced(audioId, reason)) {
      await deps.store.deleteJobText(audioId).catch(() => undefined);
      return 'retired';
    }
    const current = await deps.audio.get(audioId);
    if (!current || current.status === 'failed') return 'retired';
    if (current.status !== 'done') await deps.queue.enqueue({ audioId }, record.plan !== 'free');
    logger.info('job referenced by a reuse: handed to the worker, not retired', { audioId });
    return 'handed over';
  } catch (e) {
    logger.error('could not retire an unaccepted job', { error: e as Error, audioId });
    return 'retired';
  }
}

/**
 * The one place a conversion ends (done or failed, inline or in the worker): what must happen for every finished
 * job goes here (the charge settled, webhooks: audio.completed / audio.failed, the counters). The write that settled
 * the job marked it `ending`; this removes the mark last, so a worker or request that dies in between leaves a
 * settled job still `ending`, and the next delivery of it (SQS's redelivery, the free job's backstop) runs this
 * again (runJob's onSettled). Each step is safe twice: the charge is settled by the job's id (consume and refund
 * count once per id), the event id is deterministic (receivers dedupe on it), and the counters are added only by
 * the call whose conditional write removed the mark (a re-run adds nothing; a death between that write and the
 * counters leaves one job uncounted: the public counters are at most once, the charge and the webhook at least
 * once). Never throws.
 */
export async function jobEnded(
  deps: NarrationDeps,
  record: AudioRecord,
  opts: { charged?: boolean } = {},
): Promise<void> {
  await settleCharge(deps, record, opts.charged ?? false);
  await queueAudioEvent(deps, record); // the completion webhook (use-cases/webhooks.ts; never throws)
  const ended = await deps.audio.markEnded(record.audioId).catch((e) => {
    logger.warn('job end not recorded: a later delivery ends it again', {
      error: e as Error,
      audioId: record.audioId,
    });
    return false;
  });
  if (!ended) return;
  // The dashboard's failed-jobs count and the public /stats counters (never throw).
  if (record.status === 'failed') await recordJobFailureSafely(() => deps.growth, deps.now());
  if (record.status === 'done')
    await recordConversionStatsSafely(() => deps.growth, {
      chars: record.chars,
      durationS: record.durationS ?? 0,
      fmt: record.fmt,
      voice: record.voice,
    });
  logger.info('conversion ended', {
    audioId: record.audioId,
    status: record.status,
    chars: record.chars,
    ...(record.durationS !== undefined ? { durationS: record.durationS } : {}),
  });
}

/** Fails a job that cannot succeed and ends it, when this call made the transition. */
async function failJob(deps: NarrationDeps, job: AudioRecord, reason: string): Promise<void> {
  if (await deps.audio.fail(job.audioId, reason, { ending: true }))
    await jobEnded(deps, { ...job, status: 'failed', error: reason });
}

export async function narrateToStore(
  deps: NarrationDeps,
  audioId: string,
  text: string,
  voice: Voice,
  fmt: AudioFormat,
  extra: {
    onProgress?: (f: number) => Promise<void>;
    onSegment?: (segment: Segment, mp3: Uint8Array) => Promise<void>;
    headings?: { text: string; offset: number }[] | undefined;
    speech?: SpeechOptions | undefined;
    /** The objects' retention class (their record's retention). */
    retentionDays?: number | undefined;
    /** Stops the narration (WorkStopped): the request was answered already, or the worker lost its job. */
    signal?: AbortSignal | undefined;
  } = {},
) {
  const synthesizer = await deps.synthesizer();
  const outPath = join(deps.tmpDir, `narration-${audioId}.${fmt}`);
  try {
    const result = await narrate({
      text,
      voice,
      fmt,
      synthesizer,
      outPath,
      ...(extra.onProgress ? { onProgress: extra.onProgress } : {}),
      ...(extra.onSegment ? { onSegment: extra.onSegment } : {}),
      ...(extra.headings ? { headings: extra.headings } : {}),
      ...(extra.speech ? { speech: extra.speech } : {}),
      ...(extra.signal ? { signal: extra.signal } : {}),
    });
    await deps.store.putAudioFile(audioId, fmt, outPath, extra.retentionDays);
    // The cues' text rides along for WebVTT (GET /audio/{id}/timings?format=vtt): the caller's text is not kept.
    const cues = result.timings.sentences.map((t) => text.slice(t.start, t.end));
    await deps.store.putTimings(
      audioId,
      { ...result.timings, cues } satisfies StoredTimings,
      extra.retentionDays,
    );
    return result;
  } finally {
    await rm(outPath, { force: true });
  }
}

/**
 * Runs one queued job (the shared leased-job engine claims, releases and gives up). Idempotent: SQS delivers at
 * least once, so a finished or failed job is acknowledged without work, and a retry overwrites the same object key
 * (no duplicate audio). After the last attempt the job is failed and the error rethrown (the message goes to the DLQ).
 */
export async function runJob(
  deps: NarrationDeps,
  audioId: string,
  attempt: number,
  findVoice: (id: string) => Voice | undefined,
  /** A backstop delivery (queueBackstop): a job another worker holds is acknowledged, not retried. */
  backstop = false,
): Promise<'done' | 'skipped'> {
  // The holder was started by a message of its own, which SQS delivers again if the holder dies: a backstop that
  // waited for the lease would only be received again and again while a long job runs, then land in the DLQ.
  if (backstop)
    return runJob(deps, audioId, attempt, findVoice).catch((err: unknown) => {
      if (!(err instanceof JobBusyError)) throw err;
      logger.info('backstop: the job is held by a worker, acknowledging', { audioId });
      return 'skipped' as const;
    });
  return runLeasedJob(
    deps.audio,
    audioId,
    attempt,
    (claimed, lost) => narrateJob(deps, claimed, findVoice, lost),
    {
      maxAttempts: deps.config.MAX_RECEIVE_COUNT,
      metric: { service: 'narration', kind: 'narration' },
      // Settled but not ended: its worker (or request) died between the two; the end runs again (safe twice).
      end: (current) => jobEnded(deps, current),
      async giveUp(job, err, tried) {
        const why = err instanceof Error ? err.message.slice(0, 200) : 'unknown error';
        await failJob(
          deps,
          job,
          `Narration failed after ${tried} attempts (${why}). Please submit the text again.`,
        );
        throw err;
      },
    },
  );
}

/** A queued job's retention in whole days, from its record (expiresAt was set from createdAt + days). */
export function retentionDaysOf(record: Pick<AudioRecord, 'createdAt' | 'expiresAt'>): number {
  return Math.max(1, Math.round((record.expiresAt - Date.parse(record.createdAt) / 1000) / 86400));
}

/**
 * The job's record is gone or settled while its worker narrates (DELETE /audio/{id}), or another worker holds it
 * now (this one lost its lease): stop, nothing to keep.
 */
class JobGone extends Error {
  constructor() {
    super('The job is no longer active.');
    this.name = 'JobGone';
  }
}

async function narrateJob(
  deps: NarrationDeps,
  claimed: AudioRecord,
  findVoice: (id: string) => Voice | undefined,
  lost?: AbortSignal,
): Promise<'done' | 'skipped'> {
  const { audioId } = claimed;
  // A free job whose request ended before charging it (it died, or answered 503 and could not retire the record):
  // nobody was told about it, so nobody gets it — not narrated, not charged. Unless an idempotent retry of that
  // request took it over meanwhile: it charges the job, then marks it `referenced` (resumeConversion), so this
  // conditional retirement and that mark cannot both succeed; when the mark won, the job is charged and narrated.
  const c = claimed.charge;
  if (
    c &&
    deps.quotas.hasCharge &&
    !(await deps.quotas.hasCharge(c.subject, c.rules, new Date(claimed.createdAt), audioId))
  ) {
    const reason =
      'Not accepted: its request ended before the conversion was charged. Please submit it again.';
    if (await deps.audio.retireUnreferenced(audioId, reason, { ending: true })) {
      await jobEnded(deps, { ...claimed, status: 'failed', error: reason });
      return 'skipped';
    }
    const current = await deps.audio.get(audioId);
    if (current?.status !== 'processing' || !current.referenced) return 'skipped';
    logger.info('uncharged job taken over by its idempotent retry: narrated', { audioId });
  }
  const voice = findVoice(claimed.voice);
  const stored = await deps.store.getJobText(audioId);
  const { text, speech } =
    stored !== undefined && claimed.speechOptions
      ? (JSON.parse(stored) as { text: string; speech: SpeechOptions })
      : { text: stored, speech: undefined };
  if (!voice || text === undefined) {
    await failJob(
      deps,
      claimed,
      'The job could not be read back (its text expired or its voice was withdrawn). Please submit it again.',
    );
    return 'skipped';
  }
  const retentionDays = retentionDaysOf(claimed);
  let last = 0;
  let lastAt = 0;
  const segments: Segment[] = [];
  let fraction = 0;
  const result = await narrateToStore(deps, audioId, text, voice, claimed.fmt, {
    async onProgress(f) {
      if (lost?.aborted) throw new JobGone();
      fraction = f;
      const t = Date.now();
      if (f - last >= 0.05 || t - lastAt >= 2000) {
        last = f;
        lastAt = t;
        await deps.audio.setProgress(audioId, Math.min(0.99, Math.round(f * 100) / 100));
      }
    },
    // Each segment is stored before the record lists it: a player reading the list finds every file it names.
    // A job no longer active (deleted by its owner meanwhile) stops here instead of narrating to the end.
    async onSegment(segment, mp3) {
      if (lost?.aborted) throw new JobGone();
      await deps.store.putSegment(audioId, segment.n, mp3, retentionDays);
      segments.push(segment);
      const p = Math.min(0.99, Math.round(fraction * 100) / 100);
      if (!(await deps.audio.setSegments(audioId, segments, p))) throw new JobGone();
    },
    speech,
    retentionDays,
    signal: lost,
  }).catch((err: unknown) => {
    if (err instanceof JobGone || (err instanceof WorkStopped && lost?.aborted)) return undefined;
    throw err;
  });
  if (!result) {
    logger.info('job no longer active: stopped', { audioId });
    return 'skipped';
  }
  const durationS = roundMs(result.durationS);
  const completed = await deps.audio.complete(audioId, {
    durationS,
    bytes: result.bytes,
    segments,
    timings: true,
    ending: true,
  });
  if (completed) await jobEnded(deps, { ...claimed, status: 'done', durationS, bytes: result.bytes });
  await deps.store
    .deleteJobText(audioId)
    .catch((e) => logger.warn('job text cleanup failed', { error: e as Error }));
  return 'done';
}
