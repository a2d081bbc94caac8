// Ports: the small interfaces domain code talks to. AWS implementations live in lambdas/shared/aws;
// tests and the local runtime pass the same adapters pointed at emulators.
import type { LeasedJobStore } from '../shared/jobs/leased-job';
import type { AudioFormat } from './core/formats';
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
  synthesize(text: string, voice: Voice): Promise<Pcm>;
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
  /** Who may delete it and whose webhook hears of it: `acct:<customer>`/`key:<hash>` (ownerOf), or `ip#<hash>`. */
  owner?: string;
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
