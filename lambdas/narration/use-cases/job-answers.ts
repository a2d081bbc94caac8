// What a conversion request answers about its audio, whichever way it found it (narrated now, its own queued job,
// an identical earlier request's, an idempotent retry's): the contract's Conversion result (200) once the audio is
// done, else 202 with the id to poll; and the wait for a queued job, bounded by the route's deadline. Talks only to
// ports.
import { Unavailable } from '../../shared/errors';
import type { NarrationDeps } from '../deps';
import type { AudioFormat } from '../core/formats';
import { CHARS_PER_SECOND } from '../core/preview';
import type { AudioRecord, Timings } from '../ports';

/**
 * The wait for a queued job ends this long before the route's deadline (the early-timeout 503 comes at 500 ms):
 * room for the answer's own reads (a timings object) on a slow day.
 */
const DEADLINE_MARGIN_MS = 3000;
/** How often the record is read while waiting. */
const POLL_MS = 250;

/** The caller was already answered 503 (route deadline): stop, give the charge back, deliver nothing. */
export class Abandoned extends Unavailable {
  constructor() {
    super('The request took too long and was stopped. Please retry; this attempt was not counted.');
  }
}

export function throwIfAbandoned(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Abandoned();
}

export interface ConversionOutcome {
  statusCode: 200 | 202;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export function audioUrl(audioId: string, fmt: AudioFormat): string {
  return `/audio/${audioId}.${fmt}`;
}

/** The fields every answer about one audio starts with. */
export function answerBase(
  a: Pick<AudioRecord, 'audioId' | 'fmt' | 'voice' | 'chars' | 'title'>,
): Record<string, unknown> & { audio_url: string } {
  return {
    audio_id: a.audioId,
    audio_url: audioUrl(a.audioId, a.fmt),
    voice: a.voice,
    chars: a.chars,
    ...(a.title !== undefined ? { title: a.title } : {}),
  };
}

/** The Conversion result of a finished audio: duration, plus chapters with their real start times when any. */
export function doneBody(base: Record<string, unknown>, durationS: number, timings: Timings | undefined) {
  return {
    ...base,
    duration_s: durationS,
    ...(timings?.chapters.length ? { chapters: timings.chapters } : {}),
  };
}

/** 200 for an audio that is done (its stored timings give the chapters). */
export async function doneAnswer(
  deps: Pick<NarrationDeps, 'store'>,
  base: Record<string, unknown>,
  settled: AudioRecord,
  headers: Record<string, string>,
): Promise<ConversionOutcome> {
  const timings = settled.timings
    ? await deps.store.getTimings(settled.audioId).catch(() => undefined)
    : undefined;
  return {
    statusCode: 200,
    body: doneBody(base, settled.durationS ?? 0, timings as Timings | undefined),
    headers,
  };
}

/** 202: the job is on its way; poll its audio URL. */
export function queuedAnswer(
  base: Record<string, unknown> & { audio_url: string },
  job: { chars: number; progress?: number | undefined; pauseS?: number | undefined },
  headers: Record<string, string>,
): ConversionOutcome {
  return {
    statusCode: 202,
    body: {
      ...base,
      duration_s: null,
      estimated_duration_s: Math.round(job.chars / CHARS_PER_SECOND + (job.pauseS ?? 0)),
      status: 'queued',
      progress: job.progress ?? 0,
    },
    headers: { ...headers, location: base.audio_url, 'retry-after': '5' },
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
