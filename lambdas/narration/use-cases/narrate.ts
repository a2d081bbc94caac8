// The narration pipeline: text → sentences read for the voice's locale → chunks the engine accepts → speech (several
// chunks at once) → one continuous file, plus playable segments and timings.
//
// - Reading: core/reading.ts splits the caller's text into sentences, rewrites each for speech (normalize/: dates,
//   money, numbers, abbreviations... become words) and groups them into chunks; the first chunk is small so the
//   first segment of a long job is playable within about a second. Only the engine sees the rewritten text:
//   callers are billed and limited on the characters they sent, and timings point into their text.
// - Speed: chunks are synthesized with bounded concurrency (the engine's: espeak processes up to the cores, Polly
//   calls within its transactions per second) and, for MP3, each chunk is encoded on its own in worker threads
//   (audio/mp3-pool.ts); results are consumed strictly in order, at most a small window ahead, so memory stays flat.
// - Output: MP3 is the chunks' frames concatenated (one CBR stream; each chunk's frames are also segment n): our
//   LAME encoding of the chunk, or the engine's own MP3 frames when it makes them (Polly), never decoded;
//   WAV and OGG are one encoder fed the chunks' PCM in order (their MP3 segments are made only when asked for).
//   Chunks are separated by a 250 ms pause. Durations come from the bytes written (exact).
// - Timings: a chunk's start in the file is exact (sum of the durations before it); sentences inside a chunk start
//   where speech resumes after the matching pause (core/reading.ts partStarts) or at the engine's own marks.
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { availableParallelism } from 'node:os';
import { encodeToFile, MP3_DELAY_SAMPLES, type EncodedFile, type Mp3Segment } from '../audio/encode';
import { Mp3FrameCounter } from '../audio/duration';
import { id3ChapterTag, type Id3Chapter } from '../audio/id3-chapters';
import {
  DEFAULT_LOUDNESS,
  EDGE_FADE_MS,
  fadeEdges,
  normalizePcm,
  type LoudnessTarget,
} from '../audio/loudness';
import { mp3AudioFrames, silentMp3Frames, xingFrame } from '../audio/mp3-join';
import { voiceLevels, type VoiceLevel } from '../audio/mp3-level';
import { sharedMp3Pool, type Mp3EncoderPool } from '../audio/mp3-pool';
import { CONTENT_TYPE, type AudioFormat } from '../core/formats';
import { countChars, detectHeadings } from '../core/preview';
import {
  findPauses,
  partStarts,
  planReading,
  spokenToSource,
  type ChunkBoundary,
  type Pause,
  type PlannedChunk,
} from '../core/reading';
import type { Mp3Synthesis, Segment, SpeechMark, Synthesis, Synthesizer, TimedSpan, Timings } from '../ports';
import type { SpeechOptions } from '../core/speech';
import { withEngine, type Voice } from '../core/voices';
import { TokenBucket } from './token-bucket';
import { WorkStopped } from '../../shared/errors';

/**
 * Silence between chunks, by what separates them in the text (chunks end at sentences; a heading is a chunk of
 * its own): what a reader leaves between sentences, at a line break, between paragraphs, around a title.
 */
export const PAUSES: Readonly<Record<ChunkBoundary, number>> = {
  sentence: 0.25,
  line: 0.4,
  paragraph: 0.6,
  heading: 0.9,
};
/** The pause between two sentences of a paragraph split into two chunks. */
export const PAUSE_S = PAUSES.sentence;

export interface NarrateOptions {
  text: string;
  voice: Voice;
  fmt: AudioFormat;
  synthesizer: Synthesizer;
  /** Written (created or truncated); removed again if narration fails. */
  outPath: string;
  /**
   * Called with the fraction of chunks encoded so far (0 < f < 1, increasing), then with 1 once the file is
   * complete. Awaited: a slow callback slows the pipeline; a throwing one fails the narration.
   */
  onProgress?: (fraction: number) => void | Promise<void>;
  /**
   * Called in order with each playable MP3 segment as soon as it and every one before it are ready. Awaited like
   * onProgress (which follows it for the same chunk).
   */
  onSegment?: (segment: Segment, mp3: Uint8Array) => void | Promise<void>;
  /** Worker threads encoding MP3 (default: the cores; 0 encodes in this thread). */
  encoderThreads?: number;
  /** SSML (`text_type: "ssml"`) and the lexicon entries to apply (core/speech.ts); default plain text. */
  speech?: SpeechOptions;
  /** Chapter headings with their offsets in code points (default: detected in plain text). */
  headings?: { text: string; offset: number }[];
  /**
   * Loudness every chunk is brought to (default −16 LUFS, ≤ −1 dBTP: EBU R128 / podcast platforms); 'off' keeps
   * the engine's level. Default: the request's (`speech.loudness`), else DEFAULT_LOUDNESS.
   */
  loudness?: LoudnessTarget | 'off';
  /**
   * Fade (ms) at the edges of each chunk's speech that is not silent already, so a join never clicks (default
   * EDGE_FADE_MS; 0 joins the engine's samples as they are: the tests' control).
   */
  edgeFadeMs?: number;
  /**
   * Stops the narration (WorkStopped) when aborted: no engine call starts after it (the caller was answered
   * already, or the worker lost its job), so abandoned work costs what was in flight, not the whole text.
   */
  signal?: AbortSignal;
}

export interface Narration extends EncodedFile {
  segments: Segment[];
  timings: Timings;
}

export class NothingToNarrateError extends Error {
  constructor() {
    super('The text has nothing to narrate (it is empty or only whitespace).');
    this.name = 'NothingToNarrateError';
  }
}

/** What one chunk became, as the consumer needs it. */
interface ChunkAudio {
  rate: number;
  /** The chunk's speech followed by the pause (none after the last): what goes into WAV/OGG. */
  pcm?: Int16Array;
  speechS: number;
  pauses: Pause[];
  marks?: SpeechMark[];
  mp3?: Mp3Segment;
}

export async function narrate(opts: NarrateOptions): Promise<Narration> {
  const { synthesizer, onProgress, onSegment } = opts;
  // The engine the request picked (core/voices.ts withEngine), kept with a queued job's speech options.
  const voice = withEngine(opts.voice, opts.speech?.engine) ?? opts.voice;
  const headings = opts.headings ?? detectHeadings(opts.text);
  const plan = planReading(opts.text, voice, {
    engine: synthesizer.engine,
    maxChars: synthesizer.maxChars,
    headings: headings.map((h) => utf16Offset(opts.text, h.offset)),
    ...(opts.speech ? { speech: opts.speech } : {}),
    // A reading rule that fails is skipped (the text is still narrated); say so in the logs.
    onRuleError: (rule, error) =>
      console.warn(
        JSON.stringify({ level: 'WARN', message: 'reading rule skipped', rule, error: String(error) }),
      ),
  });
  const { chunks } = plan;
  if (chunks.length === 0) throw new NothingToNarrateError();
  const wantMp3 = opts.fmt === 'mp3' || !!onSegment;
  const pool: Mp3EncoderPool | undefined = wantMp3
    ? sharedMp3Pool(opts.encoderThreads ?? availableParallelism())
    : undefined;
  const bucket = synthesizer.maxPerSecond ? new TokenBucket(synthesizer.maxPerSecond) : undefined;
  const last = chunks.length - 1;
  let started = 0;
  const stopIfAborted = () => {
    if (opts.signal?.aborted) throw new WorkStopped(started, chunks.length, 'chunks');
  };
  const target = loudnessTarget(opts);
  const pauseAfter = (i: number) => PAUSES[chunks[i + 1]?.boundary ?? 'sentence'];

  // An engine without speech marks for this voice (Polly's generative voices) reads a chunk of several sentences
  // one sentence per call: each sentence then starts exactly where its audio was put (sentence marks by
  // construction), instead of where a pause is heard.
  const bySentence = (chunk: PlannedChunk) =>
    synthesizer.marksFor?.(voice) === false && !chunk.ssml && chunk.parts.length > 1;
  const partTexts = (chunk: PlannedChunk) => chunk.parts.map((p) => chunk.text.slice(p.at, p.at + p.length));
  const sentenceMark = (chunk: PlannedChunk, k: number, time_s: number): SpeechMark => ({
    type: 'sentence',
    time_s,
    start: chunk.parts[k]!.at,
    end: chunk.parts[k]!.at + chunk.parts[k]!.length,
  });
  const synthMp3 = async (chunk: PlannedChunk, ssml?: { ssml: boolean }): Promise<Mp3Synthesis> => {
    const one = (text: string) => {
      // A sentence's call waiting for the rate limit starts no later than the abort either.
      const call = () => {
        stopIfAborted();
        return synthesizer.synthesizeMp3!(text, voice, ssml);
      };
      return bucket ? bucket.run(call) : call();
    };
    if (!bySentence(chunk)) return one(chunk.text);
    const answers = await Promise.all(partTexts(chunk).map(one));
    const marks: SpeechMark[] = [];
    let at = 0;
    const bytes = answers.map((a, k) => {
      const f = mp3AudioFrames(a.mp3);
      marks.push(sentenceMark(chunk, k, at));
      at += f.durationS;
      return f.bytes;
    });
    return { mp3: new Uint8Array(Buffer.concat(bytes)), marks };
  };
  const synthPcm = async (chunk: PlannedChunk, ssml?: { ssml: boolean }): Promise<Synthesis> => {
    const one = (text: string) => {
      // A sentence's call waiting for the rate limit starts no later than the abort either.
      const call = () => {
        stopIfAborted();
        return synthesizer.synthesize(text, voice, ssml);
      };
      return bucket ? bucket.run(call) : call();
    };
    if (!bySentence(chunk)) return one(chunk.text);
    const answers = await Promise.all(partTexts(chunk).map(one));
    const rate = answers[0]!.sampleRate;
    const samples = new Int16Array(answers.reduce((n, a) => n + a.samples.length, 0));
    const marks: SpeechMark[] = [];
    let at = 0;
    answers.forEach((a, k) => {
      if (a.sampleRate !== rate) throw new Error(`${synthesizer.engine} changed sample rate mid-chunk`);
      marks.push(sentenceMark(chunk, k, at / rate));
      samples.set(a.samples, at);
      at += a.samples.length;
    });
    return { samples, sampleRate: rate, marks };
  };

  const work = async (chunk: PlannedChunk, i: number): Promise<ChunkAudio> => {
    stopIfAborted();
    started++;
    const ssml = chunk.ssml ? { ssml: true } : undefined;
    // The engine's own MP3, joined as it is: for MP3 output, unless the chunk's sentence starts must be found in
    // its samples (SSML several sentences long: the marks index the markup, not the text).
    if (opts.fmt === 'mp3' && synthesizer.synthesizeMp3 && !(chunk.ssml && chunk.parts.length > 1)) {
      const speech = await synthMp3(chunk, ssml);
      const frames = mp3AudioFrames(speech.mp3);
      // Each chunk to the target (so consecutive chunks match), losslessly: global_gain, not a re-encode. The
      // voice's level is measured on its first chunks in this process (decoded in the MP3 threads) and reused.
      if (target) {
        const key = `${synthesizer.engine}/${voice.polly.engine}/${voice.polly.voiceId}/${frames.sampleRate}`;
        const run = (f: Uint8Array, t: LoudnessTarget, known?: VoiceLevel) => pool!.level(f, t, known);
        frames.bytes = (await voiceLevels.level(key, frames.bytes, target, run)).frames;
      }
      const pause = i < last ? silentMp3Frames(frames.header, pauseAfter(i)) : undefined;
      const marks = speech.marks?.length && !chunk.ssml ? speech.marks : undefined;
      return {
        rate: frames.sampleRate,
        speechS: frames.durationS,
        pauses: [],
        ...(marks ? { marks } : {}),
        mp3: pause
          ? {
              bytes: Buffer.concat([frames.bytes, pause.bytes]),
              frames: frames.frames + pause.frames,
              durationS: frames.durationS + pause.durationS,
            }
          : frames,
      };
    }
    const speech = await synthPcm(chunk, ssml);
    const rate = speech.sampleRate;
    // Each chunk to the target loudness (exact: these are samples), its edges faded so no join clicks.
    const shaped = fadeEdges(
      target ? normalizePcm(speech.samples, rate, target, opts.fmt).samples : Int16Array.from(speech.samples),
      rate,
      opts.edgeFadeMs ?? EDGE_FADE_MS,
    );
    let body = shaped;
    if (i < last) {
      body = new Int16Array(shaped.length + Math.round(rate * pauseAfter(i)));
      body.set(shaped);
    }
    // Marks index the text sent: usable for plain chunks (SSML offsets count the markup).
    const marks = speech.marks?.length && !chunk.ssml ? speech.marks : undefined;
    return {
      rate,
      speechS: speech.samples.length / rate,
      pauses: marks || chunk.parts.length < 2 ? [] : findPauses(speech.samples, rate),
      ...(marks ? { marks } : {}),
      ...(opts.fmt !== 'mp3' ? { pcm: body } : {}),
      ...(pool ? { mp3: await pool.encode(body, rate) } : {}),
    };
  };
  const speech = new OrderedSynthesis(chunks, work, synthesizer.concurrency);
  // Waiting for a chunk ends at the abort too (the engine call in flight finishes on its own; its result is dropped).
  const abort = opts.signal
    ? new Promise<never>((_, reject) => {
        const stop = () => reject(new WorkStopped(started, chunks.length, 'chunks'));
        if (opts.signal!.aborted) stop();
        else opts.signal!.addEventListener('abort', stop, { once: true });
      })
    : undefined;
  abort?.catch(() => undefined); // raced below; this only keeps an unraced abort from being reported as unhandled
  const take = (i: number): Promise<ChunkAudio> =>
    abort ? Promise.race([speech.take(i), abort]) : speech.take(i);

  const segments: Segment[] = [];
  /** Start (s, in the final file) of each part of each chunk, by sentence: first part wins. */
  const sentenceStart = new Array<number>(plan.sentences.length).fill(Number.NaN);
  const words: TimedSpan[] = [];
  let rate = 0;
  let fileS = 0; // where the next chunk starts in the final file
  let segS = 0; // where the next segment starts on the segments' timeline (equal to fileS for MP3)

  const consume = async (i: number, part: ChunkAudio): Promise<void> => {
    if (part.rate !== rate)
      throw new Error(`${synthesizer.engine} changed sample rate mid-text (${rate} → ${part.rate} Hz)`);
    const chunk = chunks[i]!;
    // MP3 output: speech is heard LAME's delay after the segment's first frame.
    const lead = opts.fmt === 'mp3' ? MP3_DELAY_SAMPLES / rate : 0;
    const starts = part.marks
      ? startsFromMarks(chunk, part.marks)
      : partStarts(
          chunk.parts.map((p) => p.length),
          part.pauses,
          part.speechS,
        );
    chunk.parts.forEach((p, k) => {
      if (Number.isNaN(sentenceStart[p.sentence]!))
        sentenceStart[p.sentence] = round3(fileS + lead + starts[k]!);
    });
    for (const m of part.marks ?? []) {
      if (m.type !== 'word') continue;
      const p = partAt(chunk, m.start);
      if (!p) continue;
      const s = plan.sentences[p.sentence]!;
      const toSource = sourceMapper(opts.text, s);
      const [a, b] = toSource(m.start - p.at + p.from, m.end - p.at + p.from);
      words.push({ start_s: round3(fileS + lead + m.time_s), end_s: 0, start: a, end: b });
    }
    if (part.mp3) {
      const seg = { n: i, start_s: round3(segS), duration_s: round3(part.mp3.durationS) };
      segments.push(seg);
      segS += part.mp3.durationS;
      if (onSegment) await onSegment(seg, part.mp3.bytes);
    }
    fileS += opts.fmt === 'mp3' ? part.mp3!.durationS : part.pcm!.length / rate;
  };

  try {
    const first = await take(0);
    rate = first.rate;
    // MP3: the chapters (headings) as ID3v2 CHAP/CTOC frames at the start of the file: written now with the
    // titles, rewritten in place (same size) once their start times are known.
    const tagOf = (times: { start_s: number }[] = [], durationS = 0) =>
      id3ChapterTag(headings.map((h, k) => chapterAt(h.text, times, k, durationS)));
    let result: EncodedFile;
    let tagBytes = 0;
    if (opts.fmt === 'mp3') {
      const tag = tagOf();
      tagBytes = tag.length;
      result = await writeMp3(
        opts.outPath,
        chunks.length,
        async (i) => {
          stopIfAborted();
          const part = i === 0 ? first : await take(i);
          await consume(i, part);
          if (onProgress && i < last) await onProgress((i + 1) / chunks.length);
          return part.mp3!.bytes;
        },
        tag,
      );
    } else {
      async function* pcm(): AsyncGenerator<Int16Array> {
        for (let i = 0; i < chunks.length; i++) {
          stopIfAborted();
          const part = i === 0 ? first : await take(i);
          await consume(i, part);
          yield part.pcm!;
          // The encoder asked for more: chunk i is encoded.
          if (onProgress && i < last) await onProgress((i + 1) / chunks.length);
        }
      }
      result = await encodeToFile(opts.fmt, rate, pcm(), opts.outPath);
    }
    const timings = buildTimings(opts, plan.sentences, sentenceStart, words, result.durationS, headings);
    if (tagBytes > 0) await rewriteHead(opts.outPath, tagOf(timings.chapters, result.durationS), tagBytes);
    if (onProgress) await onProgress(1);
    return { ...result, segments, timings };
  } finally {
    speech.stop();
  }
}

/** The loudness target of a narration, or undefined when the caller turned it off. */
function loudnessTarget(opts: NarrateOptions): LoudnessTarget | undefined {
  const asked = opts.loudness ?? opts.speech?.loudness;
  if (asked === 'off') return undefined;
  if (typeof asked === 'number') return { ...DEFAULT_LOUDNESS, lufs: asked };
  return asked ?? DEFAULT_LOUDNESS;
}

function round3(s: number): number {
  return Math.round(s * 1000) / 1000;
}

/**
 * The MP3 segments' frames, in order, into one file; its duration is the frames' (exact). When the frames are not
 * all one bitrate (an engine's VBR answer, or its bitrate next to ours), a Xing frame with the frame count goes
 * first, so players do not estimate the duration from the first frame's bitrate.
 */
async function writeMp3(
  outPath: string,
  count: number,
  next: (i: number) => Promise<Uint8Array>,
  head: Uint8Array,
): Promise<EncodedFile> {
  const fh = await open(outPath, 'w');
  let bytes = 0;
  try {
    if (head.length) await fh.write(head);
    bytes += head.length;
    let durationS = 0;
    let frames = 0;
    let first: Uint8Array | undefined;
    const bitrates = new Set<number>();
    for (let i = 0; i < count; i++) {
      const b = await next(i);
      const counter = new Mp3FrameCounter((frame, h) => {
        first ??= frame.slice(0, 4);
        bitrates.add(h.bitrateKbps);
      });
      counter.push(b);
      const summary = counter.end();
      durationS += summary.durationS;
      frames += summary.frames;
      await fh.write(b);
      bytes += b.byteLength;
    }
    await fh.close();
    if (bitrates.size > 1 && first)
      bytes = await insertIntoFile(outPath, head.length, xingFrame(first, frames, bytes - head.length));
    return { bytes, durationS, contentType: CONTENT_TYPE.mp3 };
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(outPath, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Rewrites `path` with `bytes` inserted at `at` (streamed, not read into memory); returns the new size. */
async function insertIntoFile(path: string, at: number, bytes: Uint8Array): Promise<number> {
  const tmp = `${path}.head`;
  const out = createWriteStream(tmp);
  if (at > 0) await pipeline(createReadStream(path, { start: 0, end: at - 1 }), out, { end: false });
  out.write(bytes);
  await pipeline(createReadStream(path, { start: at }), out);
  await rename(tmp, path);
  return (await stat(path)).size;
}

/** Overwrites the first `length` bytes of `path` with `head`, which must be exactly that long. */
async function rewriteHead(path: string, head: Uint8Array, length: number): Promise<void> {
  if (head.length !== length) throw new Error(`chapter tag changed size (${length} → ${head.length} bytes)`);
  const fh = await open(path, 'r+');
  try {
    await fh.write(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
}

/** Chapter k of the file: from its start to the next one's (the last ends with the audio). */
function chapterAt(title: string, times: { start_s: number }[], k: number, durationS: number): Id3Chapter {
  const start = times[k]?.start_s ?? 0;
  const end = times[k + 1]?.start_s ?? durationS;
  return { title, startMs: start * 1000, endMs: Math.max(start, end) * 1000 };
}

function partAt(chunk: PlannedChunk, offset: number) {
  return chunk.parts.find((p) => offset >= p.at && offset < p.at + p.length);
}

/** Part starts from the engine's sentence marks (a part without one keeps the estimate between its neighbours). */
function startsFromMarks(chunk: PlannedChunk, marks: SpeechMark[]): number[] {
  const sentenceMarks = marks.filter((m) => m.type === 'sentence' || m.type === 'word');
  return chunk.parts.map((p, k) => {
    if (k === 0) return 0;
    const m = sentenceMarks.find((x) => x.start >= p.at && x.start < p.at + p.length);
    return m ? m.time_s : Number.NaN;
  });
}

const mappers = new WeakMap<object, (a: number, b: number) => [number, number]>();

function sourceMapper(text: string, s: { start: number; end: number; spoken: string }) {
  let f = mappers.get(s);
  if (!f) {
    const inner = spokenToSource(text.slice(s.start, s.end), s.spoken);
    f = (a, b) => {
      const [x, y] = inner(a, b);
      return [s.start + x, s.start + y];
    };
    mappers.set(s, f);
  }
  return f;
}

function buildTimings(
  opts: NarrateOptions,
  sentences: { start: number; end: number }[],
  starts: number[],
  words: TimedSpan[],
  durationS: number,
  headings: { text: string; offset: number }[],
): Timings {
  // A sentence ends where the next one starts (its pause included): the highlight never goes dark mid-audio.
  const fixed = fillGaps(starts, durationS);
  const timed: TimedSpan[] = sentences.map((s, i) => ({
    start_s: fixed[i]!,
    end_s: i + 1 < sentences.length ? fixed[i + 1]! : round3(durationS),
    start: s.start,
    end: s.end,
  }));
  words.forEach((w, i) => (w.end_s = words[i + 1]?.start_s ?? round3(durationS)));
  for (let i = 0; i < words.length; i++) {
    const s = timed.find((t) => t.start_s <= words[i]!.start_s && words[i]!.start_s < t.end_s);
    if (s && words[i]!.end_s > s.end_s) words[i]!.end_s = s.end_s;
  }
  // Chapters: the heading's offset (code points) → the sentence that contains it → its start.
  const chapters = headings.map((h) => {
    const u16 = utf16Offset(opts.text, h.offset);
    const s = timed.find((t) => t.end > u16) ?? timed[timed.length - 1];
    return { title: h.text, offset: h.offset, start_s: s ? s.start_s : 0 };
  });
  return { sentences: timed, words, chapters };
}

function fillGaps(starts: number[], durationS: number): number[] {
  const out = [...starts];
  for (let i = 0; i < out.length; i++) {
    if (!Number.isNaN(out[i])) continue;
    out[i] = i === 0 ? 0 : out[i - 1]!;
  }
  for (let i = 1; i < out.length; i++) out[i] = Math.min(Math.max(out[i]!, out[i - 1]!), durationS);
  return out;
}

function utf16Offset(text: string, codePoints: number): number {
  if (countChars(text) === text.length) return codePoints;
  let cp = 0;
  let i = 0;
  while (i < text.length && cp < codePoints) {
    i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
    cp++;
  }
  return i;
}

/**
 * Runs `work` over `items` with at most `concurrency` calls in flight and at most `window` results held
 * ahead of the consumer, who takes results in order with take(0), take(1), ...
 */
class OrderedSynthesis<I, R> {
  private readonly results = new Map<number, Promise<R>>();
  private readonly window: number;
  private nextToStart = 0;
  private nextToTake = 0;
  private inFlight = 0;
  private stopped = false;

  constructor(
    private readonly items: I[],
    private readonly work: (item: I, index: number) => Promise<R>,
    private readonly concurrency: number,
  ) {
    this.concurrency = Math.max(1, Math.floor(concurrency) || 1);
    // Enough lookahead to keep every slot busy while the consumer works on the current chunk, no more.
    this.window = this.concurrency + 1;
    this.pump();
  }

  take(i: number): Promise<R> {
    if (i !== this.nextToTake)
      throw new Error(`chunks are taken in order: expected ${this.nextToTake}, got ${i}`);
    const result = this.results.get(i);
    if (!result) throw new Error(`chunk ${i} was never started`);
    this.results.delete(i); // the consumer holds it now; nothing else keeps its samples alive
    this.nextToTake++;
    this.pump();
    return result;
  }

  /** Starts nothing more (in-flight calls finish on their own; their results are dropped). */
  stop(): void {
    this.stopped = true;
    this.results.clear();
  }

  private pump(): void {
    while (
      !this.stopped &&
      this.nextToStart < this.items.length &&
      this.inFlight < this.concurrency &&
      this.nextToStart < this.nextToTake + this.window
    ) {
      const i = this.nextToStart++;
      this.inFlight++;
      const item = this.items[i]!;
      const p = (async () => this.work(item, i))(); // a synchronous throw becomes a rejection
      const settled = () => {
        this.inFlight--;
        this.pump();
      };
      p.then(settled, () => {
        this.stopped = true; // a failed chunk fails the narration: start nothing more
        settled();
      });
      this.results.set(i, p);
    }
  }
}
