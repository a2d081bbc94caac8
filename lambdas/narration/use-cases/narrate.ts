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
//   LAME encoding of the chunk, or the engine's own MP3 frames when it makes them (Polly), never re-encoded;
//   WAV and OGG are one encoder fed the chunks' PCM in order (their MP3 segments are made only when asked for).
//   Chunks are separated by a 250 ms pause. Durations come from the bytes written (exact). The MP3 file is
//   written by audio/mp3-file.ts (chapters as an ID3v2 tag first, rewritten once their times are known).
// - Timings: a chunk's start in the file is exact (sum of the durations before it); sentences inside a chunk start
//   where speech resumes after the matching pause (core/reading.ts partStarts) or at the engine's own marks;
//   use-cases/narration-timings.ts turns the starts into the API's spans. Chunks run through OrderedSynthesis
//   (use-cases/ordered-synthesis.ts).
import { availableParallelism } from 'node:os';
import { encodeToFile, MP3_DELAY_SAMPLES, type EncodedFile, type Mp3Segment } from '../audio/encode';
import { id3ChapterTag } from '../audio/id3-chapters';
import {
  DEFAULT_LOUDNESS,
  EDGE_FADE_MS,
  fadeEdges,
  normalizePcm,
  type LoudnessTarget,
} from '../audio/loudness';
import { rewriteHead, writeMp3File } from '../audio/mp3-file';
import { mp3AudioFrames, silentMp3Frames } from '../audio/mp3-join';
import { voiceLevels, type VoiceLevel } from '../audio/mp3-level';
import { sharedMp3Pool, type Mp3EncoderPool } from '../audio/mp3-pool';
import { type AudioFormat } from '../core/formats';
import { detectHeadings } from '../core/preview';
import {
  findPauses,
  partStarts,
  planReading,
  type ChunkBoundary,
  type Pause,
  type PlannedChunk,
} from '../core/reading';
import type { Mp3Synthesis, Segment, SpeechMark, Synthesis, Synthesizer, TimedSpan, Timings } from '../ports';
import type { SpeechOptions } from '../core/speech';
import { withEngine, type Voice } from '../core/voices';
import {
  buildTimings,
  chapterAt,
  partAt,
  round3,
  sourceMapper,
  startsFromMarks,
  utf16Offset,
} from './narration-timings';
import { OrderedSynthesis } from './ordered-synthesis';
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
      // Our MP3 of a chunk at a target: its peaks checked on the encoded frames (the encoder moves them).
      ...(pool ? { mp3: await pool.encode(body, rate, target) } : {}),
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
      result = await writeMp3File(
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
    const timings = buildTimings(opts.text, plan.sentences, sentenceStart, words, result.durationS, headings);
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
