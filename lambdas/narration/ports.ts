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

/**
 * Where a word or sentence starts in the speech an engine returned (Polly speech marks `word` / `sentence`).
 * `start`/`end` are UTF-16 offsets into the text passed to `synthesize` (end exclusive); `time_s` is seconds from
 * the start of that call's audio.
 */
export interface SpeechMark {
  type: 'word' | 'sentence';
  time_s: number;
  start: number;
  end: number;
}

/** What one synthesis call returns: the speech, and its marks when the engine gives them. */
export interface Synthesis extends Pcm {
  /** Word and sentence marks in time order; absent when the engine has none (espeak-ng). */
  marks?: SpeechMark[];
}

/** Speech the engine encoded as MP3 itself (Polly): joined frame by frame, never decoded. */
export interface Mp3Synthesis {
  mp3: Uint8Array;
  marks?: SpeechMark[];
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
  /** `ssml`: `text` is SSML in this engine's dialect (core/speech.ts renders it), else plain text. */
  synthesize(text: string, voice: Voice, opts?: { ssml?: boolean }): Promise<Synthesis>;
  /**
   * The same speech as MP3 frames the engine encoded, when it can (Polly: its own 24 kHz MP3). MP3 narrations
   * then skip decoding and re-encoding, the worker's whole CPU cost in the cloud.
   */
  synthesizeMp3?(text: string, voice: Voice, opts?: { ssml?: boolean }): Promise<Mp3Synthesis>;
  /**
   * False when this engine gives no speech marks for `voice` although it gives them for others (Polly's
   * generative voices): narrate() then reads such chunks a sentence per call, so sentence starts stay exact.
   */
  marksFor?(voice: Voice): boolean;
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
  /** Playable parts of the audio, in order, written as each lands (GET /audio/{id}/stream.m3u8 lists them). */
  segments?: Segment[];
  /** True once the timings object (GET /audio/{id}/timings) is stored. */
  timings?: true;
  /** The job text is a JSON envelope `{text, speech}` (SSML and/or lexicon entries, core/speech.ts). */
  speechOptions?: true;
  /**
   * The free-tier charge made with this job (quota subject and windows, charged under the audio id, in the windows
   * of createdAt): a worker that finishes the job makes sure it is there, a failure gives it back — each once.
   */
  charge?: { subject: string; rules: { period: 'hour' | 'day' | 'month'; limit: number }[] };
  /**
   * An identical request was answered with this job while it was unsettled (a reuse, docs/reuse.md): its own
   * request's failure or 503 no longer retires it; the worker finishes it.
   */
  referenced?: true;
  /** Narrated inside its request (no queue message was sent for it unless the request hands it over). */
  inRequest?: true;
  /**
   * Settled, its end (narration-job.ts jobEnded: charge, webhook, counters) not finished yet: written with the
   * settling write, removed last by jobEnded. A delivery that finds a settled job still `ending` (its worker or
   * request died in between) runs the end again.
   */
  ending?: true;
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
  /**
   * While active only: the segments written so far (the whole list: a retried job starts again from 0). False when
   * the job is no longer active (deleted, failed or done meanwhile): its worker should stop.
   */
  setSegments(id: string, segments: Segment[], progress: number): Promise<boolean>;
  /** Deletes the record (DELETE /audio/{id}); false when there was none. */
  remove(id: string): Promise<boolean>;
  /**
   * queued/active → marked `referenced`: an identical request is answered with this job. False when it is settled
   * (done or failed) or gone: one conditional write, so it and retireUnreferenced() cannot both succeed.
   */
  reference(id: string): Promise<boolean>;
  /** → failed with `reason` (and `fields`), unless settled or `referenced`; true when this call made the transition. */
  retireUnreferenced(id: string, reason: string, fields?: Partial<AudioRecord>): Promise<boolean>;
}

/**
 * `retentionDays` on the writes of a conversion's objects: their retention class (the bucket deletes them that many
 * days later: lambdas/narration/bucket.ts RETENTION_TAG); absent, the audio prefix's lifecycle applies.
 */
export interface AudioStore {
  /** Uploads a finished audio file (streamed from disk). */
  putAudioFile(audioId: string, fmt: AudioFormat, path: string, retentionDays?: number): Promise<void>;
  /** A short-lived URL the caller is redirected to. */
  presignAudio(audioId: string, fmt: AudioFormat, expiresInS: number): Promise<string>;
  /** One playable segment of a job (MP3), written as it is made. */
  putSegment(audioId: string, n: number, mp3: Uint8Array, retentionDays?: number): Promise<void>;
  putTimings(audioId: string, timings: object, retentionDays?: number): Promise<void>;
  getTimings(audioId: string): Promise<object | undefined>;
  /** A short-lived URL of segment n (from 0) of a job's MP3 segments. */
  presignSegment(audioId: string, n: number, expiresInS: number): Promise<string>;
  /** Texts of queued jobs: too large for a queue message. */
  putJobText(audioId: string, text: string): Promise<void>;
  getJobText(audioId: string): Promise<string | undefined>;
  deleteJobText(audioId: string): Promise<void>;
  /** Removes every object of a conversion: the audio, its segments (`segments` of them), timings and job text. */
  deleteAudio(audioId: string, fmt: AudioFormat, segments: number): Promise<void>;
}

export interface JobMessage {
  audioId: string;
  /** A free job's backstop (queueBackstop), not its own message: acknowledged when another worker holds the job. */
  backstop?: true;
}

export interface JobQueue {
  /** `delayS`: the message becomes visible that many seconds later (SQS DelaySeconds, at most 900). */
  enqueue(message: JobMessage, priority: boolean, delayS?: number): Promise<void>;
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

/**
 * A PDF upload slot (POST /convert/pdf/upload): the caller sends the file straight to S3 with a presigned POST, then
 * converts it once with POST /convert/pdf {upload_id}. Stored in the audio table under `upload#<id>`.
 */
export interface PdfUpload {
  uploadId: string;
  /** The caller that asked for it (Caller.subject: `key#…` or, free tier, `ip#…`); only it may convert it. */
  owner: string;
  /** pending: waiting for its conversion; used: converted once (single use). */
  status: 'pending' | 'used';
  createdAt: string;
  /** Epoch seconds: the presigned POST stops working then. */
  uploadBy: number;
  /** Epoch seconds: after this the id is expired (410). */
  convertBy: number;
  /** Epoch seconds: DynamoDB's TTL removes the record then (after convertBy, so late callers still learn why). */
  expiresAt: number;
  /** The audio it became (status used). Not `audioId`: that is the audio table's key attribute. */
  convertedTo?: string;
  /**
   * The audio id the claiming request converts it under, when that request sent an Idempotency-Key (idempotentId):
   * a retry with the same key (its first request died holding the claim) may take the claim over and continue
   * that conversion.
   */
  claimedFor?: string;
}

export interface UploadRepository {
  create(upload: PdfUpload): Promise<void>;
  get(uploadId: string): Promise<PdfUpload | undefined>;
  /**
   * pending → used, only for `owner` and before convertBy (one conditional write: of two concurrent conversions of
   * one id exactly one wins). False when the condition did not hold. With `audioId` (the request's idempotent id)
   * the claim records it, and a used id claimed for that same audio id and not yet converted is claimed again (the
   * idempotent retry of a request that died holding it).
   */
  claim(uploadId: string, owner: string, nowS: number, audioId?: string): Promise<boolean>;
  /** used → pending: the conversion failed before anything was charged or delivered, so the caller may retry. */
  release(uploadId: string): Promise<void>;
  /** Notes the audio the upload became. */
  complete(uploadId: string, audioId: string): Promise<void>;
}

/** A presigned POST: the form `fields` to send with the file (last, as `file`) to `url`. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export type UploadedPdf =
  { kind: 'missing' } | { kind: 'too-large'; bytes: number } | { kind: 'ok'; data: Buffer };

export interface UploadStore {
  /** A POST form for exactly the key of `uploadId`: Content-Type application/pdf, 1..maxBytes bytes, expiring. */
  presignPdfUpload(
    uploadId: string,
    limits: { maxBytes: number; expiresInS: number },
  ): Promise<PresignedPost>;
  /** The uploaded file, read only when it is at most maxBytes (S3's own size first, then counted while reading). */
  getPdfUpload(uploadId: string, maxBytes: number): Promise<UploadedPdf>;
  deletePdfUpload(uploadId: string): Promise<void>;
}

/** How many messages wait in a queue (the dashboard reads the DLQs' depth; approximate, as SQS reports it). */
export interface QueueDepth {
  depth(queueUrl: string): Promise<{ visible: number; inFlight: number }>;
}

/**
 * "Nothing narrated twice" (core/reuse.ts): which audio answered a request fingerprint. Items of the audio table
 * (`same#<fingerprint>`), expiring with the audio they name. A pointer never keeps an audio alive: a deleted or
 * expired audio simply stops being found.
 */
export interface ReuseIndex {
  find(fingerprint: string): Promise<string | undefined>;
  /** Points the fingerprint at `audioId` (the latest conversion wins). */
  remember(fingerprint: string, audioId: string, expiresAt: number): Promise<void>;
}

// ── Publisher feeds (use-cases/feeds.ts, feed-poll.ts, feed-article.ts; docs/feeds.md) ──

/** publish: every new or changed article is narrated when a poll finds it; first_play: when a reader first asks. */
export type FeedMode = 'publish' | 'first_play';

/** What the podcast feed (GET /feeds/{id}/podcast.xml) says about the show; set by the publisher. */
export interface PodcastInfo {
  title?: string;
  author?: string;
  /** An Apple Podcasts category, e.g. "News". */
  category?: string;
  /** BCP 47, e.g. "es-MX" (default: the voice's). */
  language?: string;
  /** Square artwork, http(s), 1400–3000 px. */
  image?: string;
  description?: string;
  explicit?: boolean;
}

/** One article the feed lists now, as the last poll read it (newest first, at most core/feeds MAX_ENTRIES). */
export interface FeedEntryState {
  /** sha256(url) prefix: the article's id within the feed. */
  key: string;
  url: string;
  title?: string;
  published?: string;
  /** What the feed said about it (core/feeds/parse.ts): a change makes the next poll look at the article again. */
  signature: string;
}

export interface FeedPoll {
  at: string;
  outcome: 'ok' | 'not_modified' | 'error';
  httpStatus?: number;
  error?: string;
  /** Entries the feed listed (ok). */
  entries?: number;
  /** New or changed entries handed to the article queue (ok). */
  queued?: number;
}

export interface FeedRecord {
  feedId: string;
  /** ownerOf(key): who may list, pause and delete it, and whose audio its narrations are. */
  owner: string;
  /** The registering key: narrations are made as it (its plan; a revoked or lapsed key stops the feed). */
  keyHash: string;
  accountId?: string;
  plan: Plan;
  url: string;
  kind?: 'rss' | 'atom' | 'sitemap';
  voice: string;
  fmt: AudioFormat;
  lexicons?: string[];
  mode: FeedMode;
  podcast: PodcastInfo;
  status: 'active' | 'paused';
  createdAt: string;
  updatedAt: string;
  /** Seconds between polls when all is well. */
  intervalS: number;
  /** Epoch seconds: the scheduler sends the next poll at or after this. */
  nextPollAt: number;
  /** Consecutive failed polls (the backoff doubles the interval per failure, up to a day). */
  failures: number;
  etag?: string;
  lastModified?: string;
  lastPoll?: FeedPoll;
  /** The feed's own title and language (from the last successful poll). */
  title?: string;
  language?: string;
  entries: FeedEntryState[];
}

export type ArticleStatus = 'waiting_play' | 'narrated' | 'failed';

export interface ArticleRecord {
  feedId: string;
  key: string;
  url: string;
  title?: string;
  published?: string;
  /** The feed's signature of the entry when the article was last looked at. */
  signature: string;
  status: ArticleStatus;
  /** SHA-256 of the narrated text and title: an unchanged article is never narrated again. */
  contentHash?: string;
  /** The narration (audio table) of the current content. */
  audioId?: string;
  /** How many times the article was narrated (1 + each change of its content). */
  narrations: number;
  /** Why the last attempt failed (status failed), in words the publisher can act on. */
  error?: string;
  updatedAt: string;
}

/** Feeds and their articles (table `feeds`: `feed#<id>` and `art#<id>#<key>` items). */
export interface FeedStore {
  create(feed: FeedRecord): Promise<void>;
  get(feedId: string): Promise<FeedRecord | undefined>;
  listByOwner(owner: string): Promise<FeedRecord[]>;
  /** Sets `fields` on an existing feed (undefined values are removed); undefined when there is none. */
  update(feedId: string, fields: Partial<FeedRecord>): Promise<FeedRecord | undefined>;
  remove(feedId: string): Promise<void>;
  /** Active feeds whose nextPollAt has come (epoch seconds), at most `limit`. */
  due(nowS: number, limit: number): Promise<FeedRecord[]>;
  getArticle(feedId: string, key: string): Promise<ArticleRecord | undefined>;
  putArticle(article: ArticleRecord): Promise<void>;
  /** The articles of `keys` that exist, in the order of `keys`. */
  articles(feedId: string, keys: string[]): Promise<ArticleRecord[]>;
  /** Every article ever recorded for the feed (also those no longer listed). */
  allArticles(feedId: string): Promise<ArticleRecord[]>;
  removeArticle(feedId: string, key: string): Promise<void>;
  /**
   * Whether the feed recorded article `key` (a poll found it; its items go with the feed): the listen beacon's
   * check, an eventually consistent read of the small article item projected to its key (half a read unit).
   */
  hasArticle(feedId: string, key: string): Promise<boolean>;
  /** Adds 1 to each counter of the feed's day item (`listen#<id>#<day>`), kept until `expiresAt` (epoch s). */
  countListen(feedId: string, day: string, counters: string[], expiresAt: number): Promise<void>;
  /** The counters of each day asked that has any (day → counter → count). */
  listenDays(feedId: string, days: string[]): Promise<Map<string, Record<string, number>>>;
}
