// Brings an engine's own MP3 (Polly's frames) to a loudness target without re-encoding it: the gain is written into
// each granule's global_gain (audio/mp3-gain.ts, 1.5 dB steps, lossless). Where the gained speech would pass the
// true-peak ceiling, those granules (and their neighbours, which overlap them in the decoder) get fewer steps: a
// limiter in 1.5 dB steps.
// A voice's level is measured once (VoiceLevels): its first chunks in a process are decoded (mpg123 in WASM) and
// measured (BS.1770), the gain is checked by decoding the result, and the gain found is kept for that engine, voice
// and target. Later chunks of the voice get that gain without being measured again. They are decoded only when the
// gain would take the voice's loudest measured peak over the ceiling, and then only for their granules' peaks (the
// limiter needs to know where the peaks are; a side-information estimate is off by tens of dB). A voice with
// headroom for its gain (or a lower target) costs no decode at all after its first chunks.
import type { MPEGDecoder } from 'mpg123-decoder';
import {
  DEFAULT_LOUDNESS,
  gatedLoudness,
  integratedLoudness,
  kWeighted,
  lufs,
  type LoudnessTarget,
} from './loudness';
import { parseMp3FrameHeader } from './duration';
import { applyMp3Gain, countGranules, GRANULE_SAMPLES, MP3_GAIN_STEP_DB } from './mp3-gain';
import { silentMp3Frames } from './mp3-join';

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

/** Decoder output sample n lies in granule (n − DECODER_DELAY) / 576: the synthesis filterbank's delay. */
const DECODER_DELAY = 529;
/**
 * Headroom under the ceiling: sample peaks → true peaks (speech: < 0.3 dB) and the decoder's overlap-add mixing
 * two granules of different gain (measured with ffmpeg's true-peak meter on the six voices' levelled files: the
 * result lands 0.1–0.3 dB under the ceiling less this margin).
 */
export const MARGIN_DB = 0.8;
/**
 * Allowance for peaks a known voice's later chunks may have beyond the loudest one measured on its first ~30 s,
 * when they are gained without being decoded (the speaking stand-in's six voices: the loudest peak of 300
 * characters and of the next 2,500 within 0.4 dB); MARGIN_DB lies under it as well.
 */
const UNSEEN_PEAK_DB = 0.5;

/** How far under the true-peak ceiling a tried gain's result must peak (ffmpeg's meter and ours differ by ~0.1 dB). */
const CHECKED_PEAK_DB = 0.2;

/** 4× oversampling interpolator (BS.1770-4 Annex 2's method): 3 fractional phases of a 16-tap Hann-windowed sinc. */
const TAPS = 16;
const PHASES = [0.25, 0.5, 0.75].map((f) => {
  const h = new Float64Array(TAPS);
  for (let k = 0; k < TAPS; k++) {
    const t = k - (TAPS / 2 - 1) - f;
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    h[k] = sinc * (0.5 + 0.5 * Math.cos((Math.PI * t) / (TAPS / 2)));
  }
  return h;
});

/**
 * True peak (dBTP, 4× oversampled) of decoded speech. Between two samples the signal can peak a few dB above both,
 * so only stretches with a sample within 6 dB of the sample peak are interpolated: the cost is a pass over the
 * samples. A gain that changes from granule to granule breaks the decoder's alias cancellation for a moment; what
 * that adds between samples shows here, not in the sample peak (es-ES-Raul levelled: sample peak -1.8 dBFS, true
 * peak -0.2 dBTP).
 */
export function truePeakDb(samples: Float32Array): number {
  let m = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]!;
    if (v > m) m = v;
    else if (-v > m) m = -v;
  }
  const near = m / 2;
  let peak = m;
  const last = samples.length - 1;
  for (let i = 0; i < last; i++) {
    const a = samples[i]!;
    const b = samples[i + 1]!;
    if (a < near && a > -near && b < near && b > -near) continue;
    for (const h of PHASES) {
      let y = 0;
      for (let k = 0; k < TAPS; k++) {
        const j = i - (TAPS / 2 - 1) + k;
        y += h[k]! * samples[j < 0 ? 0 : j > last ? last : j]!;
      }
      if (y > peak) peak = y;
      else if (-y > peak) peak = -y;
    }
  }
  return 20 * Math.log10(peak);
}

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

/** The decoder's output samples for granule g: [from, to). The last also owns the tail flushed after it. */
function granuleSpan(g: number, granules: number, length: number): [number, number] {
  const from = Math.min(length, g * GRANULE_SAMPLES + DECODER_DELAY);
  return [from, g === granules - 1 ? length : Math.min(length, from + GRANULE_SAMPLES)];
}

/** Per granule: the largest |sample| of the decoder's output for it, dB (−Infinity: silence). */
function granulePeaks(samples: Float32Array, granules: number): Float64Array {
  const peakDb = new Float64Array(granules).fill(Number.NEGATIVE_INFINITY);
  for (let g = 0; g < granules; g++) {
    const [from, to] = granuleSpan(g, granules, samples.length);
    let m = 0;
    for (let i = from; i < to; i++) {
      const v = samples[i]!;
      if (v > m) m = v;
      else if (-v > m) m = -v;
    }
    if (m > 0) peakDb[g] = 20 * Math.log10(m);
  }
  return peakDb;
}

/** Per granule: the K-weighted energy of the decoder's output for it. */
function granuleEnergies(samples: Float32Array, rate: number, granules: number): Float64Array {
  const weighted = kWeighted(samples, rate);
  const energy = new Float64Array(granules);
  for (let g = 0; g < granules; g++) {
    const [from, to] = granuleSpan(g, granules, samples.length);
    let e = 0;
    for (let i = from; i < to; i++) e += weighted[i]! * weighted[i]!;
    energy[g] = e;
  }
  return energy;
}

/**
 * Integrated loudness (BS.1770 gating) of the output with granule g scaled by `gainDb[g]`, from the granules'
 * energies: 400 ms blocks every 100 ms, rounded to whole granules (24 kHz: 384 ms every 96 ms).
 */
function loudnessWith(energy: Float64Array, steps: Int32Array, rate: number): number {
  const hop = Math.max(1, Math.round((0.1 * rate) / GRANULE_SAMPLES));
  const subs: number[] = [];
  for (let g = 0; g + hop <= energy.length; g += hop) {
    let e = 0;
    for (let k = g; k < g + hop; k++) e += energy[k]! * 10 ** ((steps[k]! * MP3_GAIN_STEP_DB) / 10);
    subs.push(e);
  }
  const len = 4 * hop * GRANULE_SAMPLES;
  const blocks: number[] = [];
  for (let i = 0; i + 4 <= subs.length; i++)
    blocks.push((subs[i]! + subs[i + 1]! + subs[i + 2]! + subs[i + 3]!) / len);
  if (blocks.length === 0) {
    const total = subs.reduce((a, b) => a + b, 0);
    return total > 0 ? lufs(total / (subs.length * hop * GRANULE_SAMPLES)) : Number.NEGATIVE_INFINITY;
  }
  return gatedLoudness(blocks);
}

/**
 * Steps per granule for a constant gain of `base` steps: fewer where a granule's peak would pass `ceiling` (dB),
 * and each granule the least of itself and its neighbours (a granule's decoded samples carry their overlap).
 */
function limitedSteps(peakDb: Float64Array, base: number, ceiling: number): Int32Array {
  const n = peakDb.length;
  const want = new Int32Array(n);
  for (let g = 0; g < n; g++) want[g] = Math.min(base, Math.floor((ceiling - peakDb[g]!) / MP3_GAIN_STEP_DB));
  const steps = new Int32Array(n);
  for (let g = 0; g < n; g++) steps[g] = Math.min(want[g]!, want[g - 1] ?? base, want[g + 1] ?? base);
  return steps;
}

const countBelow = (steps: Int32Array, base: number) => steps.reduce((n, s) => n + (s < base ? 1 : 0), 0);

/**
 * Levels `frames` (consecutive layer III frames, no tags) in place to `target`, measuring them: decoded once, a
 * constant gain in 1.5 dB steps chosen from the granules' energies, fewer steps where a granule's peak would pass
 * the ceiling; then the result is decoded and measured, and the constant gain moved by whole steps toward the
 * target (the estimate misses where many granules are limited: es-ES-Sergio's speech peaks 21.5 dB above its
 * loudness, and its short text landed at -17.8 LUFS on the estimate alone). Returns the voice's level this measured. Frames that are all
 * silence are left alone.
 */
export async function levelMp3Frames(
  frames: Uint8Array,
  target: LoudnessTarget = DEFAULT_LOUDNESS,
): Promise<Mp3Leveling> {
  const granules = countGranules(frames);
  const decoded = await decodeFlushed(frames);
  const peakDb = granulePeaks(decoded.samples, granules);
  const energy = granuleEnergies(decoded.samples, decoded.rate, granules);
  const before = {
    integrated: loudnessWith(energy, new Int32Array(granules), decoded.rate),
    truePeakDb: peakDb.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY),
  };
  if (!Number.isFinite(before.integrated) || granules === 0)
    return { gainDb: 0, limited: 0, before, expectedLufs: before.integrated, decoded: true };
  const ceiling = target.truePeakDb - MARGIN_DB;
  // The constant gain whose result (limited) lands nearest the target by the granules' energies: the rounded one,
  // or up to four steps more where limiting took loudness away.
  const first = Math.round((target.lufs - before.integrated) / MP3_GAIN_STEP_DB);
  let best = { base: first, steps: limitedSteps(peakDb, first, ceiling), lufs: 0 };
  best.lufs = loudnessWith(energy, best.steps, decoded.rate);
  for (let base = first + 1; base <= first + 4 && best.lufs < target.lufs - MP3_GAIN_STEP_DB / 2; base++) {
    const steps = limitedSteps(peakDb, base, ceiling);
    const l = loudnessWith(energy, steps, decoded.rate);
    if (Math.abs(l - target.lufs) < Math.abs(best.lufs - target.lufs)) best = { base, steps, lufs: l };
  }
  // Checked on the result (decoded again, on a voice's first chunks only): the constant gain moves by whole steps
  // toward the target while the result lands more than a quarter step from it, and down a step when the result
  // peaks over the ceiling (four tries at most); the nearest result under the ceiling is kept.
  const original = Uint8Array.from(frames);
  const tried = new Map<number, number>();
  const apply = (base: number) => {
    const steps = limitedSteps(peakDb, base, ceiling);
    frames.set(original);
    applyMp3Gain(frames, (g) => steps[g] ?? base);
    return steps;
  };
  for (let base = best.base, n = 0; n < 4 && !tried.has(base); n++) {
    apply(base);
    const out = await decodeFlushed(frames);
    const measured = integratedLoudness(out.samples, out.rate);
    if (!Number.isFinite(measured)) break;
    if (truePeakDb(out.samples) > target.truePeakDb - CHECKED_PEAK_DB) {
      tried.set(base, Number.NaN);
      base--;
      continue;
    }
    tried.set(base, measured);
    const miss = target.lufs - measured;
    if (Math.abs(miss) <= MP3_GAIN_STEP_DB / 4) break;
    base += Math.sign(miss) * Math.max(1, Math.round(Math.abs(miss) / MP3_GAIN_STEP_DB));
  }
  const valid = [...tried].filter(([, l]) => !Number.isNaN(l));
  const [base, measured] = valid.length
    ? valid.reduce((a, b) => (Math.abs(b[1] - target.lufs) < Math.abs(a[1] - target.lufs) ? b : a))
    : [Math.min(...tried.keys()) - 1, Number.NaN];
  best = { base, steps: apply(base), lufs: measured };
  return {
    gainDb: best.base * MP3_GAIN_STEP_DB,
    limited: countBelow(best.steps, best.base),
    before,
    expectedLufs: best.lufs,
    level: { steps: best.base, peakDb: before.truePeakDb, seconds: decoded.samples.length / decoded.rate },
    decoded: true,
  };
}

/**
 * Levels `frames` in place with a voice's known level (measured by levelMp3Frames on its first chunks): its
 * constant gain, without decoding, where that keeps the voice's loudest measured peak (plus a step) under the
 * ceiling; otherwise decoded once for the granules' peaks only, and limited as levelMp3Frames limits.
 */
export async function levelMp3FramesAs(
  frames: Uint8Array,
  known: VoiceLevel,
  target: LoudnessTarget = DEFAULT_LOUDNESS,
): Promise<Mp3Leveling> {
  const ceiling = target.truePeakDb - MARGIN_DB;
  const gainDb = known.steps * MP3_GAIN_STEP_DB;
  const unknown = { integrated: Number.NaN, truePeakDb: Number.NaN };
  if (gainsWithoutDecoding(known, target)) {
    applyMp3Gain(frames, known.steps);
    return { gainDb, limited: 0, before: unknown, expectedLufs: Number.NaN, decoded: false };
  }
  const granules = countGranules(frames);
  const decoded = await decodeFlushed(frames);
  const peakDb = granulePeaks(decoded.samples, granules);
  const steps = limitedSteps(peakDb, known.steps, ceiling);
  applyMp3Gain(frames, (g) => steps[g] ?? known.steps);
  const truePeakDb = peakDb.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  return {
    gainDb,
    limited: countBelow(steps, known.steps),
    before: { integrated: Number.NaN, truePeakDb },
    expectedLufs: Number.NaN,
    decoded: true,
  };
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
