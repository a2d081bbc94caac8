// Ports: the small interfaces domain code talks to. AWS implementations live in lambdas/shared/aws;
// tests and the local runtime pass the same adapters pointed at emulators.
import type { LeasedJobStore } from '../shared/jobs/leased-job';
import type { AudioFormat } from './core/formats';
import type { Voice } from './core/voices';

/** Mono 16-bit PCM as a speech engine returns it. */
export interface Pcm {
  samples: Int16Array;
  sampleRate: number;
  /**
   * Speech marks, when the engine gives them (Polly: `sentence` and `word`): seconds from the start of `samples`
   * and UTF-16 offsets [start, end) into the text passed to synthesize(). Without them, sentence times are found
   * from the pauses in the audio (use-cases/narrate.ts) and there are no word times.
   */
  marks?: SpeechMark[];
}

export interface SpeechMark {
  type: 'sentence' | 'word';
  timeS: number;
  start: number;
  end: number;
}

/** A speech engine (Polly in the cloud, espeak-ng locally). */
export interface Synthesizer {
  /** 'polly' | 'espeak-cli' | 'espeak-wasm' */
  readonly engine: string;
  /** Most characters one call accepts (Polly SynthesizeSpeech: 3,000 billed characters). */
  readonly maxChars: number;
  /** How many calls may run at once (Polly neural: 8 TPS per account). */
  readonly concurrency: number;
  /** Most calls started per second (Polly: its transactions-per-second quota); unset = no limit. */
  readonly maxPerSecond?: number;
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
  /** A running job's playable parts so far, in order (S3: segmentKey), start_s on the final file's timeline. */
  segments?: Segment[];
  /** true once the timings object (S3: timingsKey) is stored. */
  timings?: true;
}

/** One playable part of a job's audio: MP3, audio/<id>/seg/<n>.mp3 (lambdas/narration/bucket.ts). */
export interface Segment {
  n: number;
  start_s: number;
  duration_s: number;
}

/** Where the audio says what (GET /audio/{id}/timings); offsets are UTF-16 [start, end) into the caller's text. */
export interface Timings {
  sentences: TimedSpan[];
  /** Empty when the engine gives no word marks (espeak). */
  words: TimedSpan[];
  chapters: { title: string; offset: number; start_s: number }[];
}

/** What timings.json holds: the timings plus each sentence's text (for WebVTT cues). */
export interface StoredTimings extends Timings {
  cues: string[];
}

export interface TimedSpan {
  start_s: number;
  end_s: number;
  start: number;
  end: number;
}

/** Conversions and their jobs: the leased-job store of the shared engine (claimed jobs are `processing`). */
export interface AudioRepository extends LeasedJobStore<AudioRecord> {
  /** While active only: the segments written so far (the whole list: a retried job starts again from 0). */
  setSegments(id: string, segments: Segment[], progress: number): Promise<void>;
}

export interface AudioStore {
  /** Uploads a finished audio file (streamed from disk). */
  putAudioFile(audioId: string, fmt: AudioFormat, path: string): Promise<void>;
  /** A short-lived URL the caller is redirected to. */
  presignAudio(audioId: string, fmt: AudioFormat, expiresInS: number): Promise<string>;
  /** One playable segment of a job (MP3), written as it is made. */
  putSegment(audioId: string, n: number, mp3: Uint8Array): Promise<void>;
  putTimings(audioId: string, timings: object): Promise<void>;
  getTimings(audioId: string): Promise<object | undefined>;
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
