// Loudness as broadcasters and podcast platforms measure it (ITU-R BS.1770-4 / EBU R128), and the gain that brings
// a chunk of speech to a target. Pure functions on mono PCM, no I/O.
// - Integrated loudness (LUFS): K-weighting (a high shelf + a high pass, designed for any sample rate as libebur128
//   does), mean square over 400 ms blocks every 100 ms, an absolute gate at −70 LUFS and a relative gate 10 LU
//   below the loudness of the blocks above it.
// - normalizePcm(): gain to the target, then a look-ahead peak limiter (gain only ever reduced, ramped over a few
//   milliseconds) so the peaks stay under the true-peak ceiling less a measured margin: speech's peaks sit 15–20 dB
//   above its loudness, so −16 LUFS with ≤ −1 dBTP needs the limiter on some words. It costs two cheap loops a
//   sample (no 4× oversampling, no second measurement): a 100-minute narration's worth in well under a second of
//   CPU, so it runs where the chunk is, beside the engine's pacing (the version that oversampled for true peaks and
//   measured up to three times made the local 100,000-character job nine times slower).
// narrate() applies the gain chunk by chunk (each chunk to the target, so consecutive chunks match); an engine's
// own MP3 frames get the same gain losslessly through each granule's global_gain (audio/mp3-gain.ts).

/** What a narration is brought to (EBU R128 / Apple Podcasts: −16 LUFS ± 1 integrated, true peak ≤ −1 dBTP). */
export interface LoudnessTarget {
  /** Integrated loudness, LUFS. */
  lufs: number;
  /** True-peak ceiling, dBTP. */
  truePeakDb: number;
}

export const DEFAULT_LOUDNESS: LoudnessTarget = { lufs: -16, truePeakDb: -1 };
/** The targets a request may ask for (`loudness`), LUFS. */
export const LOUDNESS_RANGE = { min: -31, max: -10 } as const;

interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

const kWeightingCache = new Map<number, [Biquad, Biquad]>();

/** BS.1770's two K-weighting stages at `rate` (libebur128's analog-prototype design; exact at 48 kHz). */
function kWeighting(rate: number): [Biquad, Biquad] {
  let hit = kWeightingCache.get(rate);
  if (hit) return hit;
  let f0 = 1681.974450955533;
  const G = 3.999843853973347;
  let Q = 0.7071752369554196;
  let K = Math.tan((Math.PI * f0) / rate);
  const Vh = 10 ** (G / 20);
  const Vb = Vh ** 0.4996667741545416;
  let a0 = 1 + K / Q + K * K;
  const shelf: Biquad = {
    b0: (Vh + (Vb * K) / Q + K * K) / a0,
    b1: (2 * (K * K - Vh)) / a0,
    b2: (Vh - (Vb * K) / Q + K * K) / a0,
    a1: (2 * (K * K - 1)) / a0,
    a2: (1 - K / Q + K * K) / a0,
  };
  f0 = 38.13547087602444;
  Q = 0.5003270373238773;
  K = Math.tan((Math.PI * f0) / rate);
  a0 = 1 + K / Q + K * K;
  const highPass: Biquad = { b0: 1, b1: -2, b2: 1, a1: (2 * (K * K - 1)) / a0, a2: (1 - K / Q + K * K) / a0 };
  hit = [shelf, highPass];
  kWeightingCache.set(rate, hit);
  return hit;
}

/** Samples as floats in [-1, 1). */
export type Samples = Int16Array | Float32Array;
const scaleOf = (s: Samples) => (s instanceof Int16Array ? 1 / 32768 : 1);

/**
 * K-weights `samples` (BS.1770: the shelf, then the high pass; direct form II transposed) and hands each 100 ms
 * step's sum of squares to `step` in order (the last, partial one included), or each weighted sample to `each`.
 * One loop with the coefficients in locals: ~3 ns a sample, the whole measurement's cost.
 */
function kWeight(
  samples: Samples,
  rate: number,
  sink: { sums?: Float64Array; step?: number; out?: Float32Array },
): void {
  const [s, h] = kWeighting(rate);
  const { b0: sb0, b1: sb1, b2: sb2, a1: sa1, a2: sa2 } = s;
  const { b0: hb0, b1: hb1, b2: hb2, a1: ha1, a2: ha2 } = h;
  const scale = scaleOf(samples);
  const n = samples.length;
  const { sums, out } = sink;
  const step = sink.step ?? n;
  let s1 = 0;
  let s2 = 0;
  let h1 = 0;
  let h2 = 0;
  for (let from = 0, k = 0; from < n; from += step, k++) {
    const to = Math.min(n, from + step);
    let acc = 0;
    for (let i = from; i < to; i++) {
      const x = samples[i]! * scale;
      const y = sb0 * x + s1;
      s1 = sb1 * x - sa1 * y + s2;
      s2 = sb2 * x - sa2 * y;
      const z = hb0 * y + h1;
      h1 = hb1 * y - ha1 * z + h2;
      h2 = hb2 * y - ha2 * z;
      acc += z * z;
      if (out) out[i] = z;
    }
    if (sums) sums[k] = acc;
  }
}

export const lufs = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);

/** The K-weighted signal (for measuring stretches of it separately). */
export function kWeighted(samples: Samples, rate: number): Float32Array {
  const out = new Float32Array(samples.length);
  kWeight(samples, rate, { out });
  return out;
}

/** BS.1770 gating over blocks' mean squares: absolute gate −70 LUFS, relative gate 10 LU below. */
export function gatedLoudness(blocks: readonly number[]): number {
  const abs = blocks.filter((z) => lufs(z) > -70);
  if (abs.length === 0) return Number.NEGATIVE_INFINITY;
  const mean = (zs: number[]) => zs.reduce((a, b) => a + b, 0) / zs.length;
  const relGate = lufs(mean(abs)) - 10;
  return lufs(mean(abs.filter((z) => lufs(z) > relGate)));
}

/**
 * Integrated loudness (BS.1770-4: 400 ms blocks every 100 ms, gated), LUFS; speech shorter than one block: its
 * mean square; −Infinity for silence.
 */
export function integratedLoudness(samples: Samples, rate: number): number {
  const step = Math.round(rate / 10);
  const sums = new Float64Array(Math.ceil(samples.length / step));
  kWeight(samples, rate, { sums, step });
  const blockLen = 4 * step;
  const blocks: number[] = [];
  const whole = Math.floor(samples.length / step);
  for (let i = 0; i + 4 <= whole; i++)
    blocks.push((sums[i]! + sums[i + 1]! + sums[i + 2]! + sums[i + 3]!) / blockLen);
  if (blocks.length > 0) return gatedLoudness(blocks);
  const total = sums.reduce((a, b) => a + b, 0);
  return samples.length && total > 0 ? lufs(total / samples.length) : Number.NEGATIVE_INFINITY;
}

export const dbToGain = (db: number) => 10 ** (db / 20);

/** Milliseconds the limiter ramps its gain down before a peak (and back up after it, at least). */
const ATTACK_MS = 5;
const RELEASE_MS = 60;
/**
 * Headroom under the true-peak ceiling for the limiter, which looks at samples and half-sample points: the rest of
 * the true peak (up to +0.3 dB) and what a lossy encoder adds on transients (Vorbis q3 up to +2.2 dB), measured
 * with ffmpeg's ebur128 true-peak meter on our output, six voices, short and 10k texts. MP3 is not left to this
 * margin: LAME adds up to +1.5 dB on most chunks but +2.5 dB on one of es-ES-Raul's 100,000 characters, so the
 * encoded frames are limited on their decoded output (mp3-level.ts limitMp3Frames); its 1.8 dB keeps that limiter
 * to a few granules a chunk, where it lowers whole granules in 1.5 dB steps instead of ramping over samples.
 */
export const PEAK_MARGIN_DB = { wav: 0.5, mp3: 1.8, ogg: 3.0 } as const;
/**
 * Loudness the encoder takes off (LAME's low pass removes highs that K-weighting counts): given back in the gain,
 * so the file, not the samples before it, lands on the target (measured as above).
 */
const ENCODER_LOSS_DB = { wav: 0, mp3: 0.5, ogg: 0.3 } as const;

/** −3 dB: how far below the threshold a sample may sit and still peak over it between samples. */
const NEAR = Math.SQRT1_2;

/**
 * The largest magnitude of the signal around sample i: the sample and the two half-sample points next to it
 * (4-tap cubic interpolation, Catmull-Rom). Speech that leaps from silence has inter-sample peaks that a lossy
 * encoder then makes larger; measured on espeak speech, this catches all but a few tenths of a dB of BS.1770's
 * 4× oversampled true peak at a fraction of its cost.
 */
function peakAround(x: Int16Array, i: number): number {
  // No closures here: this runs for every sample near the ceiling.
  const last = x.length - 1;
  const a = x[i < 2 ? 0 : i - 2]!;
  const b = x[i < 1 ? 0 : i - 1]!;
  const c = x[i]!;
  const d = x[i + 1 > last ? last : i + 1]!;
  const e = x[i + 2 > last ? last : i + 2]!;
  const left = Math.abs((9 * (b + c) - a - d) / 16);
  const right = Math.abs((9 * (c + d) - b - e) / 16);
  const mid = c < 0 ? -c : c;
  return mid > left ? (mid > right ? mid : right) : left > right ? left : right;
}

/** Where the limiter acts: stretches around samples over the ceiling (first/last sample, inclusive). */
interface LimitedStretch {
  from: number;
  to: number;
}

/**
 * The stretches of `samples` the limiter must touch at `gain` under `ceiling` (both on the int16 scale): each
 * sample over it, ATTACK_MS before it and RELEASE_MS after it, overlapping ones merged. One comparison a sample.
 */
function overStretches(samples: Int16Array, gain: number, ceiling: number, rate: number): LimitedStretch[] {
  const threshold = ceiling / gain;
  const before = Math.ceil((rate * ATTACK_MS) / 1000);
  const after = Math.ceil((rate * RELEASE_MS) / 1000);
  const n = samples.length;
  const out: LimitedStretch[] = [];
  let cur: LimitedStretch | undefined;
  // Between two samples the signal can peak up to ~3 dB above both: only samples within that of the threshold
  // are interpolated.
  const near = threshold * NEAR;
  for (let i = 0; i < n; i++) {
    const v = samples[i]!;
    if (v <= near && v >= -near) continue;
    if (peakAround(samples, i) <= threshold) continue;
    if (cur && i - before <= cur.to) cur.to = Math.min(n - 1, i + after);
    else out.push((cur = { from: Math.max(0, i - before), to: Math.min(n - 1, i + after) }));
  }
  return out;
}

/**
 * The limiter's gain over one stretch, written into `g`; returns the energy it removes (before the gain): per sample the most gain that keeps it under the ceiling, ramped never
 * more than 1/attack per sample going down (done backwards, so it starts before the peak) and never more than
 * 1/release going up. Both only lower it, so every sample stays under its own limit; it is 1 at both ends.
 */
function stretchGain(
  samples: Int16Array,
  { from, to }: LimitedStretch,
  gain: number,
  ceiling: number,
  rate: number,
  g: Float32Array,
): number {
  const attack = 1 / Math.max(1, (rate * ATTACK_MS) / 1000);
  const release = 1 / Math.max(1, (rate * RELEASE_MS) / 1000);
  const near = (ceiling * NEAR) / gain;
  let prev = 1;
  for (let i = from; i <= to; i++) {
    const v = samples[i]!;
    const p = (v > near || v < -near ? peakAround(samples, i) : v < 0 ? -v : v) * gain;
    const want = p > ceiling ? ceiling / p : 1;
    prev = want < prev + release ? want : prev + release;
    g[i] = prev;
  }
  let next = 1;
  let removed = 0;
  for (let i = to; i >= from; i--) {
    const v = g[i]!;
    next = v < next + attack ? v : next + attack;
    g[i] = next;
    const x = samples[i]!;
    removed += x * x * (1 - next * next);
  }
  return removed;
}

/**
 * `samples` brought to `target`, in one pass over them after measuring: the gain from their integrated loudness
 * to the target, and a look-ahead peak limiter (ramped over a few milliseconds) where the gained samples would pass
 * the ceiling (the true-peak ceiling less PEAK_MARGIN_DB for the output format). Speech's peaks sit 15–20 dB above
 * its loudness, so −16 LUFS with ≤ −1 dBTP needs the limiter on some words; the loudness it takes off is estimated
 * from the energy it removed and given back in the gain (twice at most; only the limited stretches are looked at
 * again). Cost: two cheap loops a sample (measure, then gain) plus the limited stretches; no oversampling. Returns a
 * new array (the input is not changed) and the gain applied before limiting (dB).
 */
export function normalizePcm(
  samples: Int16Array,
  rate: number,
  target: LoudnessTarget,
  fmt: keyof typeof PEAK_MARGIN_DB = 'wav',
): { samples: Int16Array; gainDb: number } {
  const loudness = integratedLoudness(samples, rate);
  if (!Number.isFinite(loudness)) return { samples: Int16Array.from(samples), gainDb: 0 };
  const ceiling = dbToGain(target.truePeakDb - PEAK_MARGIN_DB[fmt]) * 32768;
  const want = target.lufs + ENCODER_LOSS_DB[fmt];
  const n = samples.length;
  // The limiter's gain, written only inside the stretches it acts on.
  const g = new Float32Array(n);
  let removed = 0;
  const limit = (gainDb: number) => {
    const gain = dbToGain(gainDb);
    const stretches = overStretches(samples, gain, ceiling, rate);
    removed = 0;
    for (const s of stretches) removed += stretchGain(samples, s, gain, ceiling, rate, g);
    return stretches;
  };
  let gainDb = want - loudness;
  let stretches = limit(gainDb);
  if (stretches.length > 0) {
    // What the limiter took off (energy removed, as a share of the chunk's), given back once with a quarter more:
    // at the higher gain the limiter acts more (measured on espeak's six voices: the result within 0.3 LU).
    let energy = 0;
    for (let i = 0; i < n; i++) energy += samples[i]! * samples[i]!;
    const lossDb = -10 * Math.log10(1 - Math.min(0.5, removed / energy));
    if (lossDb > 0.05) {
      gainDb += 1.25 * lossDb;
      stretches = limit(gainDb);
    }
  }
  const gain = dbToGain(gainDb);
  const out = new Int16Array(n);
  scaleInto(samples, 0, n - 1, gain, undefined, out);
  for (const { from, to } of stretches) scaleInto(samples, from, to, gain, g, out);
  return { samples: out, gainDb };
}

/** out[i] = samples[i] × gain (× g[i]), rounded and clamped to 16 bits, for i in [from, to]. */
function scaleInto(
  samples: Int16Array,
  from: number,
  to: number,
  gain: number,
  g: Float32Array | undefined,
  out: Int16Array,
): void {
  for (let i = from; i <= to; i++) {
    let v = samples[i]! * gain;
    if (g) v *= g[i]!;
    // Clamped, then rounded half away from zero (a store into Int16Array truncates).
    v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
    out[i] = v + (v < 0 ? -0.5 : 0.5);
  }
}

/** Milliseconds of the fade at each end of a chunk: the join never starts or stops mid-waveform. */
export const EDGE_FADE_MS = 5;

/** Edges quieter than this (about −54 dBFS) are silence already: they are left exactly as the engine made them. */
const QUIET_EDGE = 64;

/**
 * Fades the first and last EDGE_FADE_MS of `samples` in place (raised cosine) where they are not silent already:
 * where a chunk meets the pause before or after it, the waveform starts and ends at zero, so a join cannot click
 * even when an engine's answer starts or stops abruptly.
 */
export function fadeEdges(samples: Int16Array, rate: number, ms = EDGE_FADE_MS): Int16Array {
  const n = Math.min(Math.floor(samples.length / 2), Math.round((rate * ms) / 1000));
  const loud = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (Math.abs(samples[i]!) > QUIET_EDGE) return true;
    return false;
  };
  const head = loud(0, n);
  const tail = loud(samples.length - n, samples.length);
  for (let i = 0; i < n; i++) {
    const w = 0.5 - 0.5 * Math.cos((Math.PI * i) / n);
    if (head) samples[i] = Math.round(samples[i]! * w);
    const j = samples.length - 1 - i;
    if (tail) samples[j] = Math.round(samples[j]! * w);
  }
  return samples;
}
