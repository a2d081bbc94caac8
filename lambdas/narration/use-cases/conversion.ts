// The conversion use case: answer an identical earlier request with its audio (reuse-earlier.ts), charge the free
// tier (free-charge.ts), narrate short texts inside the request, queue long ones and wait for them up to the wait
// window (200 when ready in time, else 202: job-answers.ts). The job's own life (durable, narrated, ended) is
// narration-job.ts's. Talks only to ports.
import { randomBytes } from 'node:crypto';
import type { Caller } from '../../shared/auth/resolve-caller';
import { QuotaExceeded, Unavailable, WorkStopped } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { countCut } from '../../shared/quota/cut-budget';
import type { QuotaDecision } from '../../shared/quota/windows';
import type { NarrationDeps } from '../deps';
import { countChars } from '../core/preview';
import type { AudioRecord, Plan } from '../ports';
import { audioOwner } from './data-control';
import { charge, chargeJob, freeRules, refuseIfSpent, settleCharge } from './free-charge';
import {
  Abandoned,
  answerBase,
  doneAnswer,
  doneBody,
  queuedAnswer,
  settleJob,
  throwIfAbandoned,
  type ConversionOutcome,
} from './job-answers';
import {
  jobEnded,
  makeDurable,
  narrateToStore,
  queueBackstop,
  retire,
  retireUnlessReferenced,
  roundMs,
} from './narration-job';
import { fingerprintOf, rememberSafely, reuseEarlier } from './reuse-earlier';
import type { ConversionInput } from './conversion-input';

export function newAudioId(): string {
  return randomBytes(12).toString('base64url');
}

function planOf(caller: Caller): Plan {
  return caller.kind === 'key' ? caller.key.plan : 'free';
}

/** A queued job that failed while the request waited for it. */
class JobFailed extends Error {
  constructor(reason: string | undefined) {
    super(reason ?? 'the narration failed');
  }
}

export async function startConversion(
  deps: NarrationDeps,
  input: ConversionInput,
): Promise<ConversionOutcome> {
  const now = deps.now();
  const chars = input.chars ?? countChars(input.text);
  const plan = planOf(input.caller);
  let audioId = input.audioId ?? newAudioId();
  if (input.audioId) {
    // An idempotent retry: the request that held its key may have died after making the conversion durable.
    const earlier = await deps.audio.get(audioId);
    if (earlier && earlier.status !== 'failed') {
      const resumed = await resumeConversion(deps, earlier, input);
      if (resumed !== 'retired') return resumed;
      return startConversion(deps, input); // its job was retired meanwhile: a new conversion
    }
    if (earlier) audioId = newAudioId(); // it failed (and was refunded): this retry is a new conversion
  }
  const retentionDays = input.ttlDays ?? deps.config.AUDIO_TTL_DAYS;
  const fingerprint = fingerprintOf(deps, input, retentionDays);
  if (fingerprint) {
    const reused = await reuseEarlier(deps, fingerprint, input, now);
    if (reused) return reused;
  }
  const remember = (at: AudioRecord) => rememberSafely(deps, fingerprint, at);
  const record: AudioRecord = {
    audioId,
    status: 'queued',
    voice: input.voice.id,
    fmt: input.fmt,
    chars,
    plan,
    owner: audioOwner(input.caller),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + retentionDays * 86400,
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.caller.kind === 'key'
      ? {}
      : { charge: { subject: input.caller.subject, rules: input.quota?.rules ?? freeRules(deps) } }),
  };
  const base = answerBase(record);
  const sync = chars <= deps.config.SYNC_MAX_CHARS;
  // A free job is durable before it is narrated inside the request: a reuse of it must be able to hand it on.
  if (record.charge && sync) record.inRequest = true;

  // Charges follow deliveries: a free conversion is made durable (its record and text: a worker can finish it)
  // BEFORE it is charged, and the charge is made under its id. A process that dies at any point leaves either
  // nothing, or a job that the worker finishes and charges once (jobEnded); never a charge without its audio. The
  // job's backstop message (queueBackstop) brings it to the worker once its request's deadline has passed.
  // A caller already at its limit is refused before anything is written.
  if (record.charge) await refuseIfSpent(deps, record.charge, now, input.quota);
  let queuedRecord = false;
  let decision: QuotaDecision | undefined;
  let headers: Record<string, string> = {};
  if (record.charge) {
    await makeDurable(deps, record, input.text, input.speech);
    queuedRecord = true;
    await queueBackstop(deps, record);
    try {
      ({ decision, headers } = await charge(deps, input.caller, now, input.quota, audioId));
    } catch (err) {
      await retire(deps, audioId, 'Not accepted: the free tier limit was reached.');
      throw err;
    }
    // Only a charged conversion may answer an identical request: one whose request dies before its charge is
    // retired by the worker ("ended before the conversion was charged"), and a reuse of it would be a 202 that fails.
    await remember(record);
  }

  let narrating = false; // for the log of an abandoned request: did its narration start?
  try {
    throwIfAbandoned(input.signal);
    if (sync) {
      narrating = true;
      // A paid conversion narrated here has no record until it is done, and then one marked `ending` until its end
      // (the webhook, the counters) is written. Its backstop, sent while it narrates, brings a request that dies in
      // between to the worker, which ends it (as a free job's does); it finds nothing to do otherwise.
      const backstop = queuedRecord ? undefined : queueBackstop(deps, record);
      const result = await narrateToStore(deps, audioId, input.text, input.voice, input.fmt, {
        headings: input.headings,
        speech: input.speech,
        retentionDays,
        signal: input.signal, // the deadline's 503 stops the narration: no more engine calls for nobody
      });
      // Answered 503 meanwhile: no record, so the stored file is never served (the lifecycle rule removes it).
      throwIfAbandoned(input.signal);
      const durationS = roundMs(result.durationS);
      const done: AudioRecord = {
        ...record,
        status: 'done',
        progress: 1,
        durationS,
        bytes: result.bytes,
        timings: true,
        ending: true,
      };
      await backstop; // sent before the done record exists (it never throws)
      if (queuedRecord) {
        // A worker may have finished it meanwhile (a restart re-queued it): then that outcome stands, and ended
        // there (jobEnded counts once: whoever removes `ending`).
        await deps.audio.complete(audioId, { durationS, bytes: result.bytes, timings: true, ending: true });
        await deps.store
          .deleteJobText(audioId)
          .catch((e) => logger.warn('job text cleanup failed', { error: e as Error }));
      } else {
        await deps.audio.create(done);
        await remember(done);
      }
      await jobEnded(deps, done, { charged: true }); // the charge, the webhook, the /stats counters
      return { statusCode: 200, body: doneBody(base, durationS, result.timings), headers };
    }
    if (!queuedRecord) {
      await makeDurable(deps, record, input.text, input.speech);
      queuedRecord = true;
      await remember(record);
    }
    throwIfAbandoned(input.signal);
    await deps.queue.enqueue({ audioId }, plan !== 'free');
    // Wait for the worker up to the window: most long texts are ready in time, and then the caller gets the
    // contract's 200 with the real duration instead of a 202.
    const settled = await settleJob(deps, record, input);
    if (settled?.status === 'done') return await doneAnswer(deps, base, settled, headers);
    if (settled?.status === 'failed') throw new JobFailed(settled.error);
  } catch (err) {
    // The caller is told to retry, so this job must never run: a record left `queued` would be re-queued by
    // the next local start (lib/local/runtime.ts) and narrated for nobody, or picked up by a late delivery.
    // Unless an identical request was answered with it meanwhile: then the worker finishes it for that answer.
    const outcome = queuedRecord
      ? await retireUnlessReferenced(deps, record, 'Not accepted: the caller was answered 503.')
      : 'retired';
    // Nothing was delivered: give the free-tier allowance back and tell the caller to retry. A job handed over
    // keeps its one charge (the same caller gets its audio through the reuse; a failure gives it back: jobEnded).
    if (decision && outcome === 'retired')
      await deps.quotas
        .refund(decision)
        .catch((e) => logger.error('quota refund failed', { error: e as Error }));
    if (err instanceof Abandoned || input.signal?.aborted) {
      if (record.charge && outcome === 'retired')
        await countCut(deps.quotas, record.charge.subject, deps.config.FREE_CUT_PER_HOUR, now);
      const what = outcome === 'retired' ? 'charge given back' : 'handed to the worker (a reuse holds it)';
      logger.warn(`conversion abandoned after the early-timeout answer; ${what}`, {
        audioId,
        chars,
        // How far the narration got before it stopped (engine calls begun / the text's chunks), or that it never
        // started (cut before it) or had finished (cut while its audio was stored).
        ...(err instanceof WorkStopped
          ? { chunksStarted: err.done, chunks: err.total }
          : { narration: narrating ? 'finished' : 'not started' }),
      });
      throw err instanceof Abandoned ? err : new Abandoned();
    }
    logger.error('conversion failed', { error: err as Error, audioId, chars });
    // Handed over, the job keeps its charge: the retry is a repeat that answers with its audio, not charged again.
    if (outcome === 'handed over')
      throw new Unavailable(
        'The conversion could not be completed in this request. An identical request of yours is receiving its audio, so this attempt stays counted once against your limits; please retry: the retry answers with that audio and is not counted again.',
      );
    if (err instanceof Unavailable) throw err;
    if (err instanceof JobFailed)
      throw new Unavailable(
        `The conversion failed (${err.message}). Please retry; this attempt was not counted against your limits.`,
      );
    throw new Unavailable(
      'The conversion could not be completed because a backing service is unavailable. Please retry; this attempt was not counted against your limits.',
    );
  }
  return queuedAnswer(base, { chars, pauseS: input.pauseS }, headers);
}

/**
 * The conversion an idempotent retry continues (its key's first request made it durable, and it did not fail), or
 * undefined. For routes whose input is costly to make again (POST /convert/url fetches a page): look it up first.
 */
export async function earlierConversion(
  deps: NarrationDeps,
  audioId: string | undefined,
): Promise<AudioRecord | undefined> {
  const earlier = audioId === undefined ? undefined : await deps.audio.get(audioId);
  return earlier && earlier.status !== 'failed' ? earlier : undefined;
}

/**
 * An idempotent retry found the conversion its key's first request made durable: answer it (done), or make sure it
 * is queued and wait for it like the first request would have. Nothing is charged again (the charge is the job's).
 * Needs no text (the job holds it). 'retired': its job was retired meanwhile (its charge given back): the retry is
 * a new conversion, which the caller starts (startConversion).
 */
export async function resumeConversion(
  deps: NarrationDeps,
  record: AudioRecord,
  input: Pick<ConversionInput, 'signal' | 'remainingMs' | 'respondAsync'>,
): Promise<ConversionOutcome | 'retired'> {
  const base = answerBase(record);
  logger.info('idempotent retry continues an earlier conversion', {
    audioId: record.audioId,
    status: record.status,
  });
  let settled: AudioRecord | undefined = record.status === 'done' ? record : undefined;
  let headers: Record<string, string> = {};
  // Its request may have died before charging it: the retry is the request now, so the charge is made here
  // (under the job's id and in its windows: once, however many retries), before the job is queued. Then the job is
  // marked `referenced`: a worker that found it uncharged a moment ago (a restart re-queued it) retires it only if
  // unmarked, so either the worker narrates it or the retry learns it was retired, gives its charge back (by the
  // job's id: once) and starts a new conversion, never a 202 for a job that then fails.
  if (!settled && record.charge) {
    const charged = { ...record, charge: record.charge };
    try {
      headers = await chargeJob(deps, charged, () =>
        retire(deps, record.audioId, 'Not accepted: the free tier limit was reached.'),
      );
    } catch (err) {
      // The job's own windows (those of its first request) are full: it is retired, and the retry is a new
      // conversion now, charged in the caller's current windows or refused with their headers.
      if (err instanceof QuotaExceeded) return 'retired';
      throw err;
    }
    if (!(await deps.audio.reference(record.audioId))) {
      const now = await deps.audio.get(record.audioId);
      if (now?.status === 'done') settled = now;
      else {
        await settleCharge(deps, { ...charged, status: 'failed' }, false);
        logger.info('idempotent retry: its job was retired meanwhile; a new conversion', {
          audioId: record.audioId,
        });
        return 'retired';
      }
    }
  }
  if (!settled) {
    // Its request died: the message may never have been sent. A duplicate is harmless (one claim per job).
    await deps.queue.enqueue({ audioId: record.audioId }, record.plan !== 'free');
    settled = await settleJob(deps, record, input);
  }
  if (settled?.status === 'done') return doneAnswer(deps, base, settled, headers);
  if (settled?.status === 'failed')
    throw new Unavailable(
      `The conversion failed (${settled.error ?? 'the narration failed'}). Please retry with a new Idempotency-Key; this attempt was not counted against your limits.`,
    );
  return queuedAnswer(base, record, headers);
}
