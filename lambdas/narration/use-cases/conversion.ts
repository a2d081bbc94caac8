// The conversion use case: charge the free tier, narrate short texts inside the request, queue long ones and wait
// for them up to the wait window (200 when ready in time, else 202), and the worker's side of a queued job: playable
// segments while it runs, timings when it is done. Talks only to ports.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Caller } from '../../shared/auth/resolve-caller';
import { Unavailable, QuotaExceeded, WorkStopped } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { recordConversionStatsSafely, recordJobFailureSafely } from '../../shared/growth/stats';
import { runLeasedJob } from '../../shared/jobs/leased-job';
import { countCut, refuseIfCutTooOften } from '../../shared/quota/cut-budget';
import { rateLimitHeaders, slotsFor, type QuotaDecision, type WindowRule } from '../../shared/quota/windows';
import type { NarrationDeps } from '../deps';
import type { AudioFormat } from '../core/formats';
import { audioOwner } from './data-control';
import { queueAudioEvent } from './webhooks';
import { narrate } from './narrate';
import type { AudioRecord, Plan, Segment, StoredTimings, Timings } from '../ports';
import type { Voice } from '../core/voices';
import { CHARS_PER_SECOND, countChars } from '../core/preview';
import type { SpeechOptions } from '../core/speech';
import { reuseKey, stillReusable } from '../core/reuse';
import { DEFAULT_LOUDNESS } from '../audio/loudness';

export interface ConversionInput {
  text: string;
  voice: Voice;
  fmt: AudioFormat;
  caller: Caller;
  title?: string;
  /** Days the record (and its audio) are kept; default AUDIO_TTL_DAYS. The demo keeps its audio 1 day. */
  ttlDays?: number;
  /** Limits for anonymous callers instead of the free tier's (the demo has its own counters, under its own
   * subject: pass a caller whose subject carries the demo prefix). Paid keys are never charged. */
  quota?: QuotaPolicy;
  /** The request's abort signal (ApiRequest.signal): once aborted the caller has its 503, so nothing is kept. */
  signal?: AbortSignal;
  /** Time left before the route's deadline (the Lambda context's): bounds the wait for a queued job. */
  remainingMs?: () => number;
  /** The caller prefers the 202 at once to the wait window (`Prefer: respond-async`): a queued job is not waited for. */
  respondAsync?: boolean;
  /** Chapter headings found by the input's parser (code-point offsets); plain text: detected. */
  headings?: { text: string; offset: number }[];
  /** SSML and lexicon entries (core/speech.ts); kept with a queued job's text. */
  speech?: SpeechOptions;
  /** Characters billed when not the text's length (SSML: its text content, as Polly bills). */
  chars?: number;
  /**
   * The conversion's id when the request carries an Idempotency-Key (idempotentId): a retry that took the key over
   * from a request that died continues that conversion (same audio, charged once) instead of starting another.
   */
  audioId?: string;
  /** Seconds of <break> silence in the text (core/breaks.ts): part of the estimated duration. */
  pauseS?: number;
  /**
   * Answer an identical earlier request of the same caller with its audio, not charged again (core/reuse.ts,
   * docs/reuse.md). @default true (the demo turns it off: its tries are samples with their own budget)
   */
  reuse?: boolean;
  /** Reuse only among requests of this scope (a feed's narrations: `feed#<id>`); default the caller's requests. */
  reuseScope?: string;
}

/**
 * The wait for a queued job ends this long before the route's deadline (the early-timeout 503 comes at 500 ms):
 * room for the answer's own reads (a timings object) on a slow day.
 */
const DEADLINE_MARGIN_MS = 3000;
/** How often the record is read while waiting. */
const POLL_MS = 250;

/** The caller was already answered 503 (route deadline): stop, give the charge back, deliver nothing. */
class Abandoned extends Unavailable {
  constructor() {
    super('The request took too long and was stopped. Please retry; this attempt was not counted.');
  }
}

function throwIfAbandoned(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Abandoned();
}

/** A per-subject limit and what its 429 says. */
export interface QuotaPolicy {
  rules: WindowRule[];
  /** The 429's detail: names the limit and the way out. */
  refusal(limit: number, period: string, retryAfterS: string): string;
}

export interface ConversionOutcome {
  statusCode: 200 | 202;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export function newAudioId(): string {
  return randomBytes(12).toString('base64url');
}

export function audioUrl(audioId: string, fmt: AudioFormat): string {
  return `/audio/${audioId}.${fmt}`;
}

/** Durations are reported to the millisecond. */
export function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

export function freeRules(deps: Pick<NarrationDeps, 'config'>): WindowRule[] {
  return [
    { period: 'hour', limit: deps.config.FREE_PER_HOUR },
    { period: 'day', limit: deps.config.FREE_PER_DAY },
  ];
}

function planOf(caller: Caller): Plan {
  return caller.kind === 'key' ? caller.key.plan : 'free';
}

/**
 * Charges the free tier (paid keys are unlimited) under the conversion's id, so a charge repeated for the same
 * conversion counts once; throws 429 with Retry-After and RateLimit headers.
 */
async function charge(
  deps: NarrationDeps,
  caller: Caller,
  now: Date,
  policy: QuotaPolicy | undefined,
  id: string,
): Promise<{ decision?: QuotaDecision; headers: Record<string, string> }> {
  if (caller.kind === 'key') return { headers: {} };
  const decision = await deps.quotas.consume(caller.subject, policy?.rules ?? freeRules(deps), now, { id });
  const headers = rateLimitHeaders(decision, now);
  if (!decision.allowed) {
    const per = decision.binding.period;
    const retry = headers['retry-after']!;
    throw new QuotaExceeded(
      policy
        ? policy.refusal(decision.binding.limit, per, retry)
        : `Free tier limit reached: ${decision.binding.limit} conversions per ${per} per IP address. ` +
            `Try again in ${retry} seconds, or use an API key of a paid plan (no limits).`,
      headers,
    );
  }
  return { decision, headers };
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
    if (earlier && earlier.status !== 'failed') return resumeConversion(deps, earlier, input);
    if (earlier) audioId = newAudioId(); // it failed (and was refunded): this retry is a new conversion
  }
  const retentionDays = input.ttlDays ?? deps.config.AUDIO_TTL_DAYS;
  const fingerprint =
    deps.reuse && input.reuse !== false
      ? reuseKey({
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
        })
      : undefined;
  if (fingerprint) {
    const reused = await reuseEarlier(deps, fingerprint, input, now);
    if (reused) return reused;
  }
  const remember = (at: AudioRecord) => rememberSafely(deps, fingerprint, at);
  const base = {
    audio_id: audioId,
    audio_url: audioUrl(audioId, input.fmt),
    voice: input.voice.id,
    chars,
    ...(input.title !== undefined ? { title: input.title } : {}),
  };
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

  // Charges follow deliveries: a free conversion is made durable (its record and text: a worker can finish it)
  // BEFORE it is charged, and the charge is made under its id. A process that dies at any point leaves either
  // nothing, or a job that the worker finishes and charges once (jobEnded); never a charge without its audio.
  // A caller already at its limit is refused before anything is written.
  if (record.charge) await refuseIfSpent(deps, record.charge, now, input.quota);
  const sync = chars <= deps.config.SYNC_MAX_CHARS;
  let queuedRecord = false;
  let decision: QuotaDecision | undefined;
  let headers: Record<string, string> = {};
  if (record.charge) {
    await deps.store.putJobText(
      audioId,
      input.speech ? JSON.stringify({ text: input.text, speech: input.speech }) : input.text,
    );
    await deps.audio.create({
      ...record,
      progress: 0,
      ...(input.speech ? { speechOptions: true as const } : {}),
    });
    queuedRecord = true;
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
      };
      if (queuedRecord) {
        // A worker may have finished it meanwhile (a restart re-queued it): then that outcome stands.
        await deps.audio.complete(audioId, { durationS, bytes: result.bytes, timings: true });
        await deps.store
          .deleteJobText(audioId)
          .catch((e) => logger.warn('job text cleanup failed', { error: e as Error }));
      } else {
        await deps.audio.create(done);
        await remember(done);
      }
      await jobEnded(deps, done, { charged: true });
      // Public /stats counters; never throws (a stats failure must not fail the conversion).
      await recordConversionStatsSafely(() => deps.growth, {
        chars,
        durationS,
        fmt: input.fmt,
        voice: input.voice.id,
      });
      return { statusCode: 200, body: doneBody(base, durationS, result.timings), headers };
    }
    // With SSML or a lexicon, the job text is a JSON envelope (the record says so): the worker reads it the same way.
    if (!queuedRecord) {
      await deps.store.putJobText(
        audioId,
        input.speech ? JSON.stringify({ text: input.text, speech: input.speech }) : input.text,
      );
      await deps.audio.create({
        ...record,
        progress: 0,
        ...(input.speech ? { speechOptions: true as const } : {}),
      });
      queuedRecord = true;
      await remember(record);
    }
    throwIfAbandoned(input.signal);
    await deps.queue.enqueue({ audioId }, plan !== 'free');
    // Wait for the worker up to the window: most long texts are ready in time, and then the caller gets the
    // contract's 200 with the real duration instead of a 202.
    const settled = await waitForJob(deps, audioId, waitBudgetMs(deps, input), input.signal);
    throwIfAbandoned(input.signal);
    if (settled?.status === 'done') {
      const timings = settled.timings
        ? await deps.store.getTimings(audioId).catch(() => undefined)
        : undefined;
      return {
        statusCode: 200,
        body: doneBody(base, settled.durationS ?? 0, timings as Timings | undefined),
        headers,
      };
    }
    if (settled?.status === 'failed') throw new JobFailed(settled.error);
  } catch (err) {
    // The caller is told to retry, so this job must never run: a record left `queued` would be re-queued by
    // the next local start (lib/local/runtime.ts) and narrated for nobody, or picked up by a late delivery.
    if (queuedRecord) await retire(deps, audioId, 'Not accepted: the caller was answered 503.');
    // Nothing was delivered: give the free-tier allowance back and tell the caller to retry.
    if (decision)
      await deps.quotas
        .refund(decision)
        .catch((e) => logger.error('quota refund failed', { error: e as Error }));
    if (err instanceof Abandoned || input.signal?.aborted) {
      if (record.charge)
        await countCut(deps.quotas, record.charge.subject, deps.config.FREE_CUT_PER_HOUR, now);
      logger.warn('conversion abandoned after the early-timeout answer; charge given back', {
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
    if (err instanceof Unavailable) throw err;
    if (err instanceof JobFailed)
      throw new Unavailable(
        `The conversion failed (${err.message}). Please retry; this attempt was not counted against your limits.`,
      );
    throw new Unavailable(
      'The conversion could not be completed because a backing service is unavailable. Please retry; this attempt was not counted against your limits.',
    );
  }
  return {
    statusCode: 202,
    body: {
      ...base,
      duration_s: null,
      estimated_duration_s: Math.round(chars / CHARS_PER_SECOND + (input.pauseS ?? 0)),
      status: 'queued',
      progress: 0,
    },
    headers: { ...headers, location: base.audio_url, 'retry-after': '5' },
  };
}

/**
 * An identical earlier request of this caller (same fingerprint): its audio answers this one, nothing is charged or
 * narrated. Done → 200 now; still queued or narrating → waited for like its own request would (200, else 202);
 * failed, deleted, expired, or past half its retention → undefined (narrate anew). A failed lookup is a miss.
 */
async function reuseEarlier(
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
  const settled =
    record.status === 'done'
      ? record
      : await waitForJob(deps, record.audioId, waitBudgetMs(deps, input), input.signal);
  throwIfAbandoned(input.signal);
  if (settled?.status === 'failed') return undefined;
  logger.info('identical request: earlier audio reused', {
    audioId: record.audioId,
    status: settled?.status ?? record.status,
  });
  const base = {
    audio_id: record.audioId,
    audio_url: audioUrl(record.audioId, record.fmt),
    voice: record.voice,
    chars: record.chars,
    ...(record.title !== undefined ? { title: record.title } : {}),
    reused: true,
  };
  if (settled?.status === 'done') {
    const timings = settled.timings
      ? await deps.store.getTimings(record.audioId).catch(() => undefined)
      : undefined;
    return {
      statusCode: 200,
      body: doneBody(base, settled.durationS ?? 0, timings as Timings | undefined),
      headers: {},
    };
  }
  return {
    statusCode: 202,
    body: {
      ...base,
      duration_s: null,
      estimated_duration_s: Math.round(record.chars / CHARS_PER_SECOND + (input.pauseS ?? 0)),
      status: 'queued',
      progress: record.progress ?? 0,
    },
    headers: { location: base.audio_url, 'retry-after': '5' },
  };
}

/** Points the request's fingerprint at its (durable) conversion; never throws (a miss only narrates again). */
async function rememberSafely(
  deps: NarrationDeps,
  fingerprint: string | undefined,
  record: AudioRecord,
): Promise<void> {
  if (!fingerprint || !deps.reuse) return;
  await deps.reuse
    .remember(fingerprint, record.audioId, record.expiresAt)
    .catch((e) => logger.warn('reuse pointer not written', { error: e as Error, audioId: record.audioId }));
}

/**
 * 429 before anything is written when a window is already spent (the charge itself stays exact), or when the
 * caller's requests were cut at the deadline too often this hour.
 */
async function refuseIfSpent(
  deps: NarrationDeps,
  charge: NonNullable<AudioRecord['charge']>,
  now: Date,
  policy: QuotaPolicy | undefined,
): Promise<void> {
  await refuseIfCutTooOften(
    deps.quotas,
    charge.subject,
    deps.config.FREE_CUT_PER_HOUR,
    now,
    'send shorter texts (long ones are queued and answered 202)',
  );
  const windows = await deps.quotas.peek(charge.subject, charge.rules, now);
  const spent = windows.find((w) => w.used >= w.limit);
  if (!spent) return;
  const binding = { ...spent, remaining: 0 };
  const headers = rateLimitHeaders(
    { allowed: false, charged: [], binding, all: [binding], slots: windows },
    now,
  );
  const retry = headers['retry-after']!;
  throw new QuotaExceeded(
    policy
      ? policy.refusal(spent.limit, spent.period, retry)
      : `Free tier limit reached: ${spent.limit} conversions per ${spent.period} per IP address. ` +
          `Try again in ${retry} seconds, or use an API key of a paid plan (no limits).`,
    headers,
  );
}

/** Marks a job that must never run (its request failed before it was accepted) failed; never throws. */
async function retire(deps: NarrationDeps, audioId: string, reason: string): Promise<void> {
  await deps.audio
    .fail(audioId, reason)
    .catch((e) => logger.error('could not retire an unaccepted job', { error: e as Error, audioId }));
  await deps.store.deleteJobText(audioId).catch(() => undefined);
}

/**
 * An idempotent retry found the conversion its key's first request made durable: answer it (done), or make sure it
 * is queued and wait for it like the first request would have. Nothing is charged again (the charge is the job's).
 */
async function resumeConversion(
  deps: NarrationDeps,
  record: AudioRecord,
  input: ConversionInput,
): Promise<ConversionOutcome> {
  const base = {
    audio_id: record.audioId,
    audio_url: audioUrl(record.audioId, record.fmt),
    voice: record.voice,
    chars: record.chars,
    ...(record.title !== undefined ? { title: record.title } : {}),
  };
  logger.info('idempotent retry continues an earlier conversion', {
    audioId: record.audioId,
    status: record.status,
  });
  let settled: AudioRecord | undefined = record.status === 'done' ? record : undefined;
  let headers: Record<string, string> = {};
  if (!settled && record.charge) {
    // Its request may have died before charging it: the retry is the request now, so the charge is made here
    // (under the job's id and in its windows: once, however many retries), before the job is queued.
    const c = record.charge;
    const decision = await deps.quotas.consume(c.subject, c.rules, new Date(record.createdAt), {
      id: record.audioId,
    });
    headers = rateLimitHeaders(decision, deps.now());
    if (!decision.allowed) {
      await retire(deps, record.audioId, 'Not accepted: the free tier limit was reached.');
      throw new QuotaExceeded(
        `Free tier limit reached: ${decision.binding.limit} conversions per ${decision.binding.period} per IP ` +
          `address. Try again in ${headers['retry-after']} seconds, or use an API key of a paid plan (no limits).`,
        headers,
      );
    }
  }
  if (!settled) {
    // Its request died: the message may never have been sent. A duplicate is harmless (one claim per job).
    await deps.queue.enqueue({ audioId: record.audioId }, record.plan !== 'free');
    settled = await waitForJob(deps, record.audioId, waitBudgetMs(deps, input), input.signal);
    throwIfAbandoned(input.signal);
  }
  if (settled?.status === 'done') {
    const timings = settled.timings
      ? await deps.store.getTimings(record.audioId).catch(() => undefined)
      : undefined;
    return {
      statusCode: 200,
      body: doneBody(base, settled.durationS ?? 0, timings as Timings | undefined),
      headers,
    };
  }
  if (settled?.status === 'failed')
    throw new Unavailable(
      `The conversion failed (${settled.error ?? 'the narration failed'}). Please retry with a new Idempotency-Key; this attempt was not counted against your limits.`,
    );
  return {
    statusCode: 202,
    body: {
      ...base,
      duration_s: null,
      estimated_duration_s: Math.round(record.chars / CHARS_PER_SECOND),
      status: 'queued',
      progress: record.progress ?? 0,
    },
    headers: { ...headers, location: base.audio_url, 'retry-after': '5' },
  };
}

/** A queued job that failed while the request waited for it. */
class JobFailed extends Error {
  constructor(reason: string | undefined) {
    super(reason ?? 'the narration failed');
  }
}

/** The Conversion result of a finished audio: duration, plus chapters with their real start times when any. */
function doneBody(base: Record<string, unknown>, durationS: number, timings: Timings | undefined) {
  return {
    ...base,
    duration_s: durationS,
    ...(timings?.chapters.length ? { chapters: timings.chapters } : {}),
  };
}

/** How long a request may wait for its queued job: the window, inside the route's deadline. */
export function waitBudgetMs(
  deps: Pick<NarrationDeps, 'config'>,
  input: { remainingMs?: () => number; respondAsync?: boolean },
): number {
  if (input.respondAsync) return 0;
  const window = deps.config.WAIT_WINDOW_S * 1000;
  const left = input.remainingMs ? input.remainingMs() - DEADLINE_MARGIN_MS : window;
  return Math.max(0, Math.min(window, left));
}

/**
 * Reads the record every POLL_MS until the job is done or failed, `budgetMs` passes or `signal` aborts. Answers the
 * settled record, or undefined (still pending). A failed read counts as "still pending" until the budget ends.
 */
export async function waitForJob(
  deps: Pick<NarrationDeps, 'audio'>,
  audioId: string,
  budgetMs: number,
  signal?: AbortSignal,
): Promise<AudioRecord | undefined> {
  const until = Date.now() + budgetMs;
  // A read that outlasts the budget is not waited for (the answer must beat the route's deadline).
  const timeUp = sleep(budgetMs, signal).then(() => undefined);
  for (let i = 0; Date.now() < until && !signal?.aborted; i++) {
    await sleep(Math.min(POLL_MS, until - Date.now()), signal);
    if (signal?.aborted) return undefined;
    const rec = await Promise.race([deps.audio.get(audioId).catch(() => undefined), timeUp]);
    if (rec && (rec.status === 'done' || rec.status === 'failed')) return rec;
  }
  return undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The one place a conversion ends (done or failed, inline or in the worker): what must happen for every finished
 * job goes here (webhooks: audio.completed / audio.failed).
 */
export async function jobEnded(
  _deps: NarrationDeps,
  record: AudioRecord,
  opts: { charged?: boolean } = {},
): Promise<void> {
  await settleCharge(_deps, record, opts.charged ?? false);
  await queueAudioEvent(_deps, record); // the completion webhook (use-cases/webhooks.ts; never throws)
  // The dashboard's failed-jobs count (never throws).
  if (record.status === 'failed') await recordJobFailureSafely(() => _deps.growth, _deps.now());
  logger.info('conversion ended', {
    audioId: record.audioId,
    status: record.status,
    chars: record.chars,
    ...(record.durationS !== undefined ? { durationS: record.durationS } : {}),
  });
}

/**
 * The job's free-tier charge follows its outcome, each step idempotent under the audio id: done → the charge is
 * there (made now if the request died before making it; past the limit if need be, since the request was admitted),
 * failed → given back. Never throws (logged: the outcome is recorded either way).
 */
async function settleCharge(deps: NarrationDeps, record: AudioRecord, charged: boolean): Promise<void> {
  const c = record.charge;
  if (!c || (record.status === 'done' && charged)) return;
  const at = new Date(record.createdAt);
  try {
    if (record.status === 'done')
      await deps.quotas.consume(c.subject, c.rules, at, { id: record.audioId, force: true });
    else {
      const slots = slotsFor(c.subject, c.rules, at);
      const binding = { ...slots[0]!, remaining: 0 };
      await deps.quotas.refund({
        allowed: true,
        charged: slots,
        binding,
        all: [binding],
        slots,
        chargeId: record.audioId,
      });
    }
  } catch (err) {
    logger.error('free-tier charge not settled', { error: err as Error, audioId: record.audioId });
  }
}

async function narrateToStore(
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
): Promise<'done' | 'skipped'> {
  return runLeasedJob(
    deps.audio,
    audioId,
    attempt,
    (claimed, lost) => narrateJob(deps, claimed, findVoice, lost),
    {
      maxAttempts: deps.config.MAX_RECEIVE_COUNT,
      async giveUp(job, err, tried) {
        const why = err instanceof Error ? err.message.slice(0, 200) : 'unknown error';
        const reason = `Narration failed after ${tried} attempts (${why}). Please submit the text again.`;
        if (await deps.audio.fail(audioId, reason))
          await jobEnded(deps, { ...job, status: 'failed', error: reason });
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
  // nobody was told about it, so nobody gets it — not narrated, not charged.
  const c = claimed.charge;
  if (
    c &&
    deps.quotas.hasCharge &&
    !(await deps.quotas.hasCharge(c.subject, c.rules, new Date(claimed.createdAt), audioId))
  ) {
    const reason =
      'Not accepted: its request ended before the conversion was charged. Please submit it again.';
    if (await deps.audio.fail(audioId, reason))
      await jobEnded(deps, { ...claimed, status: 'failed', error: reason });
    return 'skipped';
  }
  const voice = findVoice(claimed.voice);
  const stored = await deps.store.getJobText(audioId);
  const { text, speech } =
    stored !== undefined && claimed.speechOptions
      ? (JSON.parse(stored) as { text: string; speech: SpeechOptions })
      : { text: stored, speech: undefined };
  if (!voice || text === undefined) {
    const reason =
      'The job could not be read back (its text expired or its voice was withdrawn). Please submit it again.';
    if (await deps.audio.fail(audioId, reason))
      await jobEnded(deps, { ...claimed, status: 'failed', error: reason });
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
  });
  if (completed) await jobEnded(deps, { ...claimed, status: 'done', durationS, bytes: result.bytes });
  // Public /stats counters; never throws (a stats failure must not fail the job).
  await recordConversionStatsSafely(() => deps.growth, {
    chars: claimed.chars,
    durationS,
    fmt: claimed.fmt,
    voice: claimed.voice,
  });
  await deps.store
    .deleteJobText(audioId)
    .catch((e) => logger.warn('job text cleanup failed', { error: e as Error }));
  return 'done';
}
