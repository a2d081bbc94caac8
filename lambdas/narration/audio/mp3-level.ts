// Brings an engine's own MP3 (Polly's frames) to a loudness target without re-encoding it: the gain is written into
// each granule's global_gain (audio/mp3-gain.ts, 1.5 dB steps, lossless). Where the gained speech would pass the
// true-peak ceiling, those granules get fewer steps: a limiter in 1.5 dB steps that knows its result exactly.
// Decoding is linear in each granule's gain: the frames around the peaks decoded with only every third granule
// audible give those granules' own outputs, and the output for any steps per granule is the chunk's output plus
// each changed granule's own output times its change. The limiter lowers only the granules carrying the peaks,
// by the steps they need, and checks the true peak (4× oversampled) of what it will write, without decoding it.
// A voice's level is measured once (VoiceLevels): its first chunks in a process are decoded (mpg123 in WASM) and
// measured (BS.1770) with the gain and limiter found for them, and the constant gain is kept for that engine,
// voice and target. Later chunks of the voice get that gain without being measured again. They are decoded only
// when the gain would take the voice's loudest measured peak over the ceiling, for the limiter. A voice with
// headroom for its gain (or a lower target) costs no decode at all after its first chunks.
// The MP3 we encode ourselves from PCM at the target (local engines) goes through the same limiter at its own gain
// (limitMp3Frames): the encoder moves peaks, so the file's true peak is checked where it is made, on the frames.
import type { MPEGDecoder } from 'mpg123-decoder';
import { DEFAULT_LOUDNESS, integratedLoudness, type LoudnessTarget } from './loudness';
import { parseMp3FrameHeader } from './duration';
import {
  applyMp3Gain,
  GRANULE_SAMPLES,
  granulesPerFrame,
  mainDataBegin,
  mainDataBytes,
  MP3_GAIN_STEP_DB,
} from './mp3-gain';
import { silentMp3Frames } from './mp3-join';
import { peakAt, samplePeakDb, TAPS } from './true-peak';

let decoderPromise: Promise<MPEGDecoder> | undefined;

/** One decoder per process, created on first use. */
async function decoder(): Promise<MPEGDecoder> {
  decoderPromise ??= (async () => {
    const { MPEGDecoder } = await import('mpg123-decoder');
    const d = new MPEGDecoder({ enableGapless: false });
    await d.ready;
    return d;
  })();
  return decoderPromise;
}

/** Decodes one at a time: reset() is asynchronous, and a decode must start from a fresh state. */
let queue: Promise<unknown> = Promise.resolve();

/** The frames decoded to mono float samples (first channel), from a fresh decoder state. */
export function decodeMp3Frames(frames: Uint8Array): Promise<{ samples: Float32Array; rate: number }> {
  const run = queue.then(async () => {
    const d = await decoder();
    await d.reset();
    const out = d.decode(frames);
    const ch = out.channelData[0];
    // A copy: the decoder's output buffer is reused by the next call.
    return { samples: ch ? ch.slice(0, out.samplesDecoded) : new Float32Array(0), rate: out.sampleRate };
  });
  queue = run.catch(() => undefined);
  return run;
}

/** A voice's level for one target, as measured on its first chunks (what later chunks are given). */
export interface VoiceLevel {
  /** The constant gain, global_gain steps (1.505 dB each). */
  steps: number;
  /** The loudest granule's sample peak before the gain, dBFS. */
  peakDb: number;
  /** Seconds of speech it was measured on. */
  seconds: number;
}

export interface Mp3Leveling {
  /** The constant part of the gain, dB (a multiple of 1.505). */
  gainDb: number;
  /** Granules that got fewer steps to stay under the ceiling. */
  limited: number;
  /** Loudness and sample peak before; loudness after (measured on the result when it was measured). */
  before: { integrated: number; truePeakDb: number };
  expectedLufs: number;
  /** The voice's level this chunk gives (a measured chunk), for VoiceLevels. */
  level?: VoiceLevel;
  /** Whether the chunk was decoded (false: a known voice's gain with headroom, written without decoding). */
  decoded: boolean;
}

/**
 * Headroom under the ceiling for a known voice's gain written without decoding (gainsWithoutDecoding): its
 * loudest measured sample peak → true peak (speech: < 0.3 dB), with room to spare.
 */
export const MARGIN_DB = 0.8;
/**
 * Allowance for peaks a known voice's later chunks may have beyond the loudest one measured on its first ~30 s,
 * when they are gained without being decoded (the speaking stand-in's six voices: the loudest peak of 300
 * characters and of the next 2,500 within 0.4 dB); MARGIN_DB lies under it as well.
 */
const UNSEEN_PEAK_DB = 0.5;
/**
 * How far under the true-peak ceiling the limiter keeps the result, which it knows exactly: our meter oversamples
 * 4× (16 taps), ffmpeg's ebur128 to 192 kHz (8× at 24 kHz), and reads up to 0.2 dB higher on this speech
 * (es-MX-Andres' 10,000 characters: −1.1 dBTP with 0.3 dB here).
 */
const LIMIT_MARGIN_DB = 0.5;

/** The frames decoded (with a few silent frames after them, see below) to mono float samples. */
function decodeFlushed(frames: Uint8Array) {
  // The last granule's second half comes out only when a next one overlaps it, and in the file the pause does (an
  // answer cut mid-word peaked there, unmeasured: -0.6 dBTP).
  const h = parseMp3FrameHeader(frames, 0);
  const flush = h
    ? silentMp3Frames(frames.subarray(0, 4), (3 * h.samplesPerFrame) / h.sampleRate).bytes
    : new Uint8Array(0);
  return decodeMp3Frames(Buffer.concat([frames, flush]));
}

/**
 * Samples of the decoder's output that granule g's data reaches: [576g, 576g + REACH). Its IMDCT spans two
 * granules' slots and the synthesis filterbank (512 taps) adds 480 samples: 1,632 (mpg123 from the stream's first
 * frame, measured: no granule's output outside it). So granules three apart never overlap.
 */
const REACH = 3 * GRANULE_SAMPLES;

/**
 * A chunk's decoder output, and the own output of the granules the limiter needs (`part`). Decoding is linear in
 * each granule's scale 2^(global_gain / 4) (the requantised lines, the IMDCT, the overlap-add and the synthesis
 * filterbank are all linear), so the output for any steps per granule is the whole output plus each changed
 * granule's own output times its change: exact (to the float's precision), without decoding the result again.
 */
class ChunkOutput {
  private readonly parts = new Map<number, Float32Array>();

  private constructor(
    private readonly frames: Uint8Array,
    /** Byte offset of each frame. */
    private readonly starts: number[],
    private readonly perFrame: number,
    /** The decoder's output at the frames' own gains (a few flushed frames after them). */
    readonly whole: Float32Array,
    readonly rate: number,
  ) {}

  static async decode(frames: Uint8Array): Promise<ChunkOutput> {
    const starts: number[] = [];
    let perFrame = 1;
    for (let at = 0; at + 4 <= frames.length;) {
      const h = parseMp3FrameHeader(frames, at);
      if (!h) break;
      starts.push(at);
      perFrame = granulesPerFrame(h);
      at += h.frameBytes;
    }
    const d = await decodeFlushed(frames);
    return new ChunkOutput(frames, starts, perFrame, d.samples, d.rate);
  }

  get granules(): number {
    return this.starts.length * this.perFrame;
  }

  /** Granule g's own output over [576g, 576g + REACH), once `fetch` has decoded it. */
  part(g: number): Float32Array | undefined {
    return this.parts.get(g);
  }

  /**
   * Decodes the own output of granules `wanted`: the frames around them (from as far back as their data may
   * start, to the last frame their output reaches), once for each third of them, with only that third audible
   * (every other granule's global_gain set to 0: 2^-(its gain / 4), under -200 dB). Granules three apart never
   * overlap, so each decode holds its granules' outputs unmixed. Frames cut from the stream decode
   * with their samples where they were (576 a granule; a silenced frame whose data lay before the cut is silence).
   */
  async fetch(wanted: readonly number[]): Promise<void> {
    const sorted = [...new Set(wanted)].filter((g) => !this.parts.has(g)).sort((a, b) => a - b);
    for (let c = 0; c < 3; c++) {
      const mine = sorted.filter((g) => g % 3 === c);
      if (mine.length > 0) await this.fetchApart(mine);
    }
  }

  /** fetch() for granules three apart or more (sorted): one decode of the frames around them. */
  private async fetchApart(granules: number[]): Promise<void> {
    const frameCount = this.starts.length;
    // Frame ranges to decode, merged where they touch.
    const ranges: [number, number][] = [];
    for (const g of granules) {
      const f = Math.floor(g / this.perFrame);
      // Back to the frame its data starts in (main_data_begin bytes of the earlier frames' data).
      let from = f;
      for (let need = mainDataBegin(this.frames, this.starts[f]!); need > 0 && from > 0;) {
        from--;
        need -= mainDataBytes(this.frames, this.starts[from]!);
      }
      const to = Math.min(frameCount - 1, Math.floor((g + REACH / GRANULE_SAMPLES - 1) / this.perFrame));
      const prev = ranges[ranges.length - 1];
      if (prev && from <= prev[1] + 1) prev[1] = Math.max(prev[1], to);
      else ranges.push([from, to]);
    }
    const end = (f: number) => (f + 1 < frameCount ? this.starts[f + 1]! : this.frames.length);
    const cut = Uint8Array.from(
      Buffer.concat(ranges.map(([a, b]) => this.frames.subarray(this.starts[a]!, end(b)))),
    );
    // The cut's granules: which granule of the chunk each is.
    const global: number[] = [];
    for (const [a, b] of ranges)
      for (let g = a * this.perFrame; g < (b + 1) * this.perFrame; g++) global.push(g);
    const want = new Set(granules);
    applyMp3Gain(cut, (k) => (want.has(global[k]!) ? 0 : -255));
    const out = (await decodeFlushed(cut)).samples;
    let k = 0;
    for (const g of granules) {
      while (global[k] !== g) k++;
      const part = new Float32Array(REACH);
      part.set(out.subarray(k * GRANULE_SAMPLES, k * GRANULE_SAMPLES + REACH));
      this.parts.set(g, part);
    }
  }
}

/** Adds granule g's own output times `by` to out (its change when its scale changes by `by`). */
function addPart(o: ChunkOutput, g: number, by: number, out: Float32Array): void {
  const part = o.part(g)!;
  const at = g * GRANULE_SAMPLES;
  const e = Math.min(out.length, at + REACH);
  for (let t = at; t < e; t++) out[t]! += by * part[t - at]!;
}

/** The granules whose output reaches sample t. */
function granulesAt(t: number, granules: number): number[] {
  const out: number[] = [];
  const last = Math.min(granules - 1, Math.floor(t / GRANULE_SAMPLES));
  for (let g = Math.max(0, Math.floor((t - REACH) / GRANULE_SAMPLES) + 1); g <= last; g++) out.push(g);
  return out;
}

/**
 * Decoder output sample t is the middle of granule (t − CENTRE) / 576's output (its IMDCT window's middle, after
 * the synthesis filterbank's delay).
 */
const CENTRE = 529;
const centredAt = (t: number, granules: number) =>
  Math.min(granules - 1, Math.max(0, Math.floor((t - CENTRE) / GRANULE_SAMPLES)));

/** Most steps one pass takes off a granule (the next pass sees what the others' steps left). */
const MAX_STEPS_A_PASS = 4;
/** Most steps the limiter takes off a granule in all (-60 dB: its peaks are gone long before). */
const MAX_STEPS = 40;

/**
 * A true-peak limiter in global_gain steps that knows its result: every granule starts at `base` steps; wherever
 * the output (4× oversampled) passes `ceiling` (dB), the granule contributing most there loses the steps that
 * bring it under (if it alone could; the next pass sees the rest); the granules changed are mixed again (their
 * own outputs decoded first: ChunkOutput.fetch) and scanned again, until nothing passes. Only the granules that
 * need it are lowered, each by the steps its own peaks need (neighbours keep their gain), so the loudness kept is
 * the most 1.5 dB steps allow. `out` is the output at `base` steps and becomes the output at the steps returned.
 */
async function limitExactly(
  o: ChunkOutput,
  base: number,
  ceilingDb: number,
  out: Float32Array,
): Promise<{ steps: Int32Array; limited: number }> {
  const n = out.length;
  const ceiling = 10 ** (ceilingDb / 20);
  // Between two samples under half the ceiling the signal cannot pass it (a 4× point adds at most ~3 dB).
  const near = ceiling / 2;
  const steps = new Int32Array(o.granules).fill(base);
  let scan: [number, number][] = [[0, n]];
  while (scan.length > 0) {
    const over: { t: number; p: number }[] = [];
    for (const [from, to] of scan) {
      for (let t = from; t < to; t++) {
        const a = out[t]!;
        const b = t + 1 < n ? out[t + 1]! : 0;
        if (a < near && a > -near && b < near && b > -near) continue;
        const p = peakAt(out, t);
        if (p > ceiling) over.push({ t, p });
      }
    }
    // Where it passes, the granule centred there usually carries the peak: its own output is decoded, and it
    // loses the steps the excess needs. Where it cannot take the excess off alone, the granule contributing most
    // there does (every granule sounding there decoded).
    await o.fetch(over.map(({ t }) => centredAt(t, o.granules)));
    const lower = new Map<number, number>();
    const lowerFor = (g: number, d: number, p: number) => {
      const share = (p - ceiling) / Math.abs(d);
      const want = share < 1 ? Math.ceil(-4 * Math.log2(1 - share)) : MAX_STEPS_A_PASS;
      lower.set(g, Math.max(lower.get(g) ?? 0, Math.min(MAX_STEPS_A_PASS, Math.max(1, want))));
    };
    const contribution = (h: number, t: number) =>
      2 ** (steps[h]! / 4) * o.part(h)![t - h * GRANULE_SAMPLES]!;
    const open: { t: number; p: number }[] = [];
    for (const v of over) {
      const g = centredAt(v.t, o.granules);
      const d = contribution(g, v.t);
      if (steps[g]! > base - MAX_STEPS && d * out[v.t]! > 0 && v.p - ceiling < Math.abs(d))
        lowerFor(g, d, v.p);
      else open.push(v);
    }
    await o.fetch(open.flatMap(({ t }) => granulesAt(t, o.granules)));
    for (const { t, p } of open) {
      let g = -1;
      let d = 0;
      for (const h of granulesAt(t, o.granules)) {
        const v = contribution(h, t);
        if (steps[h]! > base - MAX_STEPS && Math.abs(v) > Math.abs(d)) [g, d] = [h, v];
      }
      if (g >= 0 && d !== 0) lowerFor(g, d, p);
    }
    scan = [];
    for (const g of [...lower.keys()].sort((a, b) => a - b)) {
      const was = steps[g]!;
      steps[g] = was - lower.get(g)!;
      addPart(o, g, 2 ** (steps[g]! / 4) - 2 ** (was / 4), out);
      const from = g * GRANULE_SAMPLES;
      const to = Math.min(n, from + REACH);
      // The oversampling filter reaches TAPS samples around a changed one.
      const s = Math.max(0, from - TAPS);
      const e = Math.min(n, to + TAPS);
      const prev = scan[scan.length - 1];
      if (prev && s <= prev[1]) prev[1] = Math.max(prev[1], e);
      else scan.push([s, e]);
    }
  }
  const limited = steps.reduce((k, s) => k + (s < base ? 1 : 0), 0);
  return { steps, limited };
}

/** Louder constant gains levelMp3Frames tries where the limiter takes loudness off (steps above the first). */
const MORE_STEPS = 6;

/**
 * Levels `frames` (consecutive layer III frames, no tags) in place to `target`, measuring them: decoded once, the
 * constant gain from their loudness to the target, and the limiter (limitExactly) where that gain would pass the
 * true-peak ceiling; the loudness of the result is measured on the output the limiter computed (exact), and
 * louder constant gains are tried while the limiter leaves it short of the target (es-ES-Sergio's speech peaks
 * 21.5 dB above its loudness: the limiter lowers many granules); the one nearest the target is kept. Returns the
 * voice's level this measured. Frames that are all silence are left alone.
 */
export async function levelMp3Frames(
  frames: Uint8Array,
  target: LoudnessTarget = DEFAULT_LOUDNESS,
): Promise<Mp3Leveling> {
  const o = await ChunkOutput.decode(frames);
  const before = { integrated: integratedLoudness(o.whole, o.rate), truePeakDb: samplePeakDb(o.whole) };
  if (!Number.isFinite(before.integrated) || o.granules === 0)
    return { gainDb: 0, limited: 0, before, expectedLufs: before.integrated, decoded: true };
  const ceiling = target.truePeakDb - LIMIT_MARGIN_DB;
  const first = Math.round((target.lufs - before.integrated) / MP3_GAIN_STEP_DB);
  let best: { steps: Int32Array; limited: number; base: number; lufs: number } | undefined;
  for (let base = first; base <= first + MORE_STEPS; base++) {
    const k = 2 ** (base / 4);
    const out = o.whole.map((v) => k * v);
    const r = await limitExactly(o, base, ceiling, out);
    const l = integratedLoudness(out, o.rate);
    if (!best || Math.abs(l - target.lufs) < Math.abs(best.lufs - target.lufs))
      best = { ...r, base, lufs: l };
    // A louder constant gain only moves the result up.
    if (l >= target.lufs - MP3_GAIN_STEP_DB / 4) break;
  }
  const { steps, base, lufs: expectedLufs, limited } = best!;
  applyMp3Gain(frames, (g) => steps[g] ?? base);
  return {
    gainDb: base * MP3_GAIN_STEP_DB,
    limited,
    before,
    expectedLufs,
    level: { steps: base, peakDb: before.truePeakDb, seconds: o.whole.length / o.rate },
    decoded: true,
  };
}

/**
 * Levels `frames` in place with a voice's known level (measured by levelMp3Frames on its first chunks): its
 * constant gain, without decoding, where that keeps the voice's loudest measured peak (plus a step) under the
 * ceiling; otherwise decoded once, and the same limiter run at that gain (decoding again only the stretches it
 * limits), so the chunk's true peak is known to be under the ceiling.
 */
export async function levelMp3FramesAs(
  frames: Uint8Array,
  known: VoiceLevel,
  target: LoudnessTarget = DEFAULT_LOUDNESS,
): Promise<Mp3Leveling> {
  const gainDb = known.steps * MP3_GAIN_STEP_DB;
  if (gainsWithoutDecoding(known, target)) {
    applyMp3Gain(frames, known.steps);
    const unknown = { integrated: Number.NaN, truePeakDb: Number.NaN };
    return { gainDb, limited: 0, before: unknown, expectedLufs: Number.NaN, decoded: false };
  }
  const { limited, peakDb } = await limitAt(frames, known.steps, target);
  const before = { integrated: Number.NaN, truePeakDb: peakDb };
  return { gainDb, limited, before, expectedLufs: Number.NaN, decoded: true };
}

/**
 * Keeps MP3 frames we encoded ourselves (LAME, from PCM already at the target: the local engines' path) under the
 * target's true-peak ceiling with the same exact limiter as an engine's own frames: decoded once, and only the
 * granules whose decoded output passes the ceiling lose global_gain steps. The encoder's low pass and
 * quantisation reshape peaks (a peak the PCM limiter left at −2.7 dBTP decodes at −0.2 in es-ES-Raul's speech),
 * so no margin on the PCM can promise the file's peak; this does. Returns the granules lowered.
 */
export async function limitMp3Frames(frames: Uint8Array, target: LoudnessTarget): Promise<number> {
  return (await limitAt(frames, 0, target)).limited;
}

/**
 * `frames` at `base` global_gain steps more, limited (limitExactly) under the target's ceiling, written in place:
 * one decode, and again only the stretches the limiter lowers. Returns the granules lowered and the frames'
 * sample peak before (dBFS).
 */
async function limitAt(
  frames: Uint8Array,
  base: number,
  target: LoudnessTarget,
): Promise<{ limited: number; peakDb: number }> {
  const o = await ChunkOutput.decode(frames);
  const peakDb = samplePeakDb(o.whole);
  // The output at `base` steps, limited in place (the frames' own output is not needed again).
  const k = 2 ** (base / 4);
  const out = o.whole;
  if (base !== 0) for (let t = 0; t < out.length; t++) out[t]! *= k;
  const { steps, limited } = await limitExactly(o, base, target.truePeakDb - LIMIT_MARGIN_DB, out);
  if (limited > 0 || base !== 0) applyMp3Gain(frames, (g) => steps[g] ?? base);
  return { limited, peakDb };
}

/** Whether a known voice's gain keeps its loudest measured peak (plus a step) under the ceiling: no decode. */
export function gainsWithoutDecoding(known: VoiceLevel, target: LoudnessTarget): boolean {
  return known.peakDb + known.steps * MP3_GAIN_STEP_DB + UNSEEN_PEAK_DB <= target.truePeakDb - MARGIN_DB;
}

/** Seconds of a voice's speech measured before its level is known (a few sentences are not a voice's level). */
export const VOICE_LEVEL_SECONDS = 30;

/** Levels a chunk: measured (no known level), or with a known one (see levelMp3FramesAs); the leveled frames. */
export type LevelChunk = (
  frames: Uint8Array,
  target: LoudnessTarget,
  known?: VoiceLevel,
) => Promise<{ frames: Uint8Array; leveling: Mp3Leveling }>;

/**
 * Each voice's level, measured once per process: the first chunks of an engine's voice for a target are measured
 * (one at a time: a chunk arriving meanwhile waits, as the measured one may be enough) until VOICE_LEVEL_SECONDS of
 * its speech are; their gains, weighted by their length, give the voice's; every later chunk gets that level.
 */
export class VoiceLevels {
  private readonly known = new Map<string, VoiceLevel>();
  private readonly measuring = new Map<string, Promise<unknown>>();

  /** Levels `frames` of `voice` (engine and voice, e.g. "polly/neural/Mia/24000") to `target`. */
  async level(
    voice: string,
    frames: Uint8Array,
    target: LoudnessTarget,
    run: LevelChunk,
  ): ReturnType<LevelChunk> {
    const key = `${voice}|${target.lufs}|${target.truePeakDb}`;
    for (let busy = this.measuring.get(key); busy && !this.ready(key); busy = this.measuring.get(key))
      await busy.catch(() => undefined);
    const known = this.known.get(key);
    if (known && known.seconds >= VOICE_LEVEL_SECONDS) return run(frames, target, known);
    const measuring = run(frames, target);
    this.measuring.set(key, measuring);
    try {
      const r = await measuring;
      if (r.leveling.level) this.add(key, r.leveling.level);
      return r;
    } finally {
      this.measuring.delete(key);
    }
  }

  private ready(key: string): boolean {
    return (this.known.get(key)?.seconds ?? 0) >= VOICE_LEVEL_SECONDS;
  }

  private add(key: string, l: VoiceLevel): void {
    const had = this.known.get(key);
    // Bounded: voices × targets a process has seen (a request may name any target in range).
    if (!had && this.known.size >= 256) this.known.clear();
    const seconds = (had?.seconds ?? 0) + l.seconds;
    this.known.set(key, {
      steps: had ? Math.round((had.steps * had.seconds + l.steps * l.seconds) / seconds) : l.steps,
      peakDb: Math.max(had?.peakDb ?? Number.NEGATIVE_INFINITY, l.peakDb),
      seconds,
    });
  }
}

/** The process's voice levels (kept while a Lambda container is warm). */
export const voiceLevels = new VoiceLevels();
