// Ports: the small interfaces domain code talks to. AWS implementations live in lambdas/shared/aws;
// tests and the local runtime pass the same adapters pointed at emulators.
import type { LeasedJobStore } from '../shared/jobs/leased-job';
import type { AudioFormat } from './core/formats';
import type { Lexicon } from './core/lexicon';
import type { Voice } from './core/voices';

/** Mono 16-bit PCM as a speech engine returns it. */
export interface Pcm {
  samples: Int16Array;
  sampleRate: number;
}

/** A speech engine (Polly in the cloud, espeak-ng locally). */
export interface Synthesizer {
  /** 'polly' | 'espeak-cli' | 'espeak-wasm' */
  readonly engine: string;
  /** Most characters one call accepts (Polly SynthesizeSpeech: 3,000 billed characters). */
  readonly maxChars: number;
  /** How many calls may run at once (Polly neural: 8 TPS per account). */
  readonly concurrency: number;
  /** `ssml`: `text` is SSML in this engine's dialect (core/speech.ts renders it), else plain text. */
  synthesize(text: string, voice: Voice, opts?: { ssml?: boolean }): Promise<Pcm>;
}

export type JobStatus = 'queued' | 'processing' | 'done' | 'failed';
export type Plan = 'free' | 'pro' | 'lifetime' | 'scale';

/** One conversion: a finished audio or a job on its way there. */
export interface AudioRecord {
  audioId: string;
  status: JobStatus;
  voice: string;
  fmt: AudioFormat;
  /** Characters of the caller's text. */
  chars: number;
  plan: Plan;
  createdAt: string;
  updatedAt: string;
  /** Epoch seconds: the record (and its audio) expire then. */
  expiresAt: number;
  durationS?: number;
  bytes?: number;
  /** 0..1 while processing. */
  progress?: number;
  /** Worker attempts so far (SQS receive count seen). */
  attempts?: number;
  /** Epoch seconds until which the current worker owns the job (renewed by progress). */
  leaseUntil?: number;
  /** Why it failed, in words a caller can act on. */
  error?: string;
  /** Optional article title (URL conversions). */
  title?: string;
  /** The job text is a JSON envelope `{text, speech}` (SSML and/or lexicon entries, core/speech.ts). */
  speechOptions?: true;
}

/** Conversions and their jobs: the leased-job store of the shared engine (claimed jobs are `processing`). */
export type AudioRepository = LeasedJobStore<AudioRecord>;

export interface AudioStore {
  /** Uploads a finished audio file (streamed from disk). */
  putAudioFile(audioId: string, fmt: AudioFormat, path: string): Promise<void>;
  /** A short-lived URL the caller is redirected to. */
  presignAudio(audioId: string, fmt: AudioFormat, expiresInS: number): Promise<string>;
  /** Texts of queued jobs: too large for a queue message. */
  putJobText(audioId: string, text: string): Promise<void>;
  getJobText(audioId: string): Promise<string | undefined>;
  deleteJobText(audioId: string): Promise<void>;
}

export interface JobMessage {
  audioId: string;
}

export interface JobQueue {
  enqueue(message: JobMessage, priority: boolean): Promise<void>;
}

/** An account's pronunciation lexicons (core/lexicon.ts), all kept together so limits and the default are exact. */
export interface LexiconStore {
  list(owner: string): Promise<Lexicon[]>;
  /**
   * Read-modify-write of the account's lexicons, retried when another request changed them meanwhile. `change`
   * may throw (nothing is written); it returns the new list and what update() resolves to.
   */
  update<T>(owner: string, change: (current: Lexicon[]) => { next: Lexicon[]; result: T }): Promise<T>;
}
