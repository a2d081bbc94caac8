// What a conversion request asks for (POST /convert/text, /url, /pdf, the demo and the feeds all build one): read by
// the conversion use case (conversion.ts) and by the reuse of an identical earlier request (reuse-earlier.ts).
import type { Caller } from '../../shared/auth/resolve-caller';
import type { AudioFormat } from '../core/formats';
import type { SpeechOptions } from '../core/speech';
import type { Voice } from '../core/voices';
import type { QuotaPolicy } from './free-charge';

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
