// Loudness as broadcasters and podcast platforms measure it (ITU-R BS.1770-4 / EBU R128), and the gain that brings
// a chunk of speech to a target. Pure functions on mono PCM, no I/O.
// - Integrated loudness (LUFS): K-weighting (a high shelf + a high pass, designed for any sample rate as libebur128
//   does), mean square over 400 ms blocks every 100 ms, an absolute gate at −70 LUFS and a relative gate 10 LU
//   below the loudness of the blocks above it.
// - True peak (dBTP): the largest magnitude of the signal upsampled 4× with BS.1770's 48-tap interpolation filter.
// - normalizePcm(): gain to the target, then a look-ahead peak limiter (gain only ever reduced, ramped over a few
//   milliseconds) so the true peak stays under the ceiling: speech's peaks sit 15–20 dB above its loudness, so
//   −16 LUFS with ≤ −1 dBTP needs the limiter on some words.
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

export interface LoudnessStats {
  /** Integrated loudness, LUFS; −Infinity for silence. */
  integrated: number;
  /** True peak, dBTP (−Infinity for silence). */
  truePeakDb: number;
}

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

/** BS.1770-4 Annex 2: 4× oversampling, 12 taps per phase. */
const TRUE_PEAK_PHASES: readonly (readonly number[])[] = [
  [
    0.001708984375, 0.010986328125, -0.0196533203125, 0.033203125, -0.0594482421875, 0.1373291015625,
    0.97216796875, -0.102294921875, 0.047607421875, -0.026611328125, 0.014892578125, -0.00830078125,
  ],
  [
    -0.0291748046875, 0.029296875, -0.0517578125, 0.089111328125, -0.16650390625, 0.465087890625,
    0.77978515625, -0.2003173828125, 0.1015625, -0.0582275390625, 0.0330810546875, -0.0189208984375,
  ],
  [
    -0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625, -0.2003173828125, 0.77978515625,
    0.465087890625, -0.16650390625, 0.089111328125, -0.0517578125, 0.029296875, -0.0291748046875,
  ],
  [
    -0.00830078125, 0.014892578125, -0.026611328125, 0.047607421875, -0.102294921875, 0.97216796875,
    0.1373291015625, -0.0594482421875, 0.033203125, -0.0196533203125, 0.010986328125, 0.001708984375,
  ],
];
const TAPS = 12;

/** Samples as floats in [-1, 1). */
export type Samples = Int16Array | Float32Array;
const scaleOf = (s: Samples) => (s instanceof Int16Array ? 1 / 32768 : 1);

/**
 * The true peak (linear, full scale 1) around each sample: the largest magnitude of the 4× upsampled signal in
 * the interval that sample starts. Written into `out` when given.
 */
function truePeaks(samples: Samples, out?: Float32Array, floorLinear?: number): number {
  const scale = scaleOf(samples);
  const n = samples.length;
  // The interpolated signal is evaluated only where the samples come within 6 dB of the largest one: speech's
  // inter-sample peaks exceed its sample peaks by a fraction of a dB, and this keeps the meter ~10× faster.
  let samplePeak = 0;
  for (let i = 0; i < n; i++) {
    const v = Math.abs(samples[i]!);
    if (v > samplePeak) samplePeak = v;
  }
  // The limiter passes the level that matters to it (its ceiling before gain): every sample that may reach it.
  const floor =
    floorLinear !== undefined ? Math.min(samplePeak / 2, floorLinear / scale / 2) : samplePeak / 2;
  let max = samplePeak * scale;
  for (let i = 0; i < n; i++) {
    const a = Math.abs(samples[i]!);
    let local = a;
    const near = a >= floor || (i + 1 < n && Math.abs(samples[i + 1]!) >= floor);
    if (near && i >= 6 && i + 6 < n) {
      for (let p = 0; p < 4; p++) {
        const c = TRUE_PEAK_PHASES[p]!;
        let acc = 0;
        for (let k = 0; k < TAPS; k++) acc += c[k]! * samples[i + 6 - k]!;
        const v = Math.abs(acc);
        if (v > local) local = v;
      }
    }
    if (out) out[i] = local * scale;
    if (local * scale > max) max = local * scale;
  }
  return max;
}

/** Sum of squares of the K-weighted signal per 100 ms, in order (the last, partial one included). */
function weightedEnergies(samples: Samples, rate: number): { sums: Float64Array; step: number } {
  const [s, h] = kWeighting(rate);
  const scale = scaleOf(samples);
  const step = Math.round(rate / 10);
  const sums = new Float64Array(Math.ceil(samples.length / step));
  let s1 = 0;
  let s2 = 0;
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i]! * scale;
    // Direct form II transposed, stage by stage.
    const y = s.b0 * x + s1;
    s1 = s.b1 * x - s.a1 * y + s2;
    s2 = s.b2 * x - s.a2 * y;
    const z = h.b0 * y + h1;
    h1 = h.b1 * y - h.a1 * z + h2;
    h2 = h.b2 * y - h.a2 * z;
    sums[(i / step) | 0]! += z * z;
  }
  return { sums, step };
}

export const lufs = (meanSquare: number) => -0.691 + 10 * Math.log10(meanSquare);
const lufsOf = lufs;

/** The K-weighted signal (for measuring stretches of it separately). */
export function kWeighted(samples: Samples, rate: number): Float32Array {
  const [s, h] = kWeighting(rate);
  const scale = scaleOf(samples);
  const out = new Float32Array(samples.length);
  let s1 = 0;
  let s2 = 0;
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i]! * scale;
    const y = s.b0 * x + s1;
    s1 = s.b1 * x - s.a1 * y + s2;
    s2 = s.b2 * x - s.a2 * y;
    const z = h.b0 * y + h1;
    h1 = h.b1 * y - h.a1 * z + h2;
    h2 = h.b2 * y - h.a2 * z;
    out[i] = z;
  }
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

/** Integrated loudness and true peak of mono PCM (BS.1770-4; speech shorter than one block: its mean square). */
export function measureLoudness(samples: Samples, rate: number): LoudnessStats {
  const { sums, step } = weightedEnergies(samples, rate);
  const blockLen = 4 * step;
  const blocks: number[] = [];
  const whole = Math.floor(samples.length / step);
  for (let i = 0; i + 4 <= whole; i++)
    blocks.push((sums[i]! + sums[i + 1]! + sums[i + 2]! + sums[i + 3]!) / blockLen);
  let integrated: number;
  if (blocks.length === 0) {
    const total = sums.reduce((a, b) => a + b, 0);
    integrated = samples.length && total > 0 ? lufsOf(total / samples.length) : Number.NEGATIVE_INFINITY;
  } else integrated = gatedLoudness(blocks);
  const peak = truePeaks(samples);
  return { integrated, truePeakDb: peak > 0 ? 20 * Math.log10(peak) : Number.NEGATIVE_INFINITY };
}

export const dbToGain = (db: number) => 10 ** (db / 20);

/** Milliseconds the limiter ramps its gain down before a peak (and back up after it, at least). */
const ATTACK_MS = 5;
const RELEASE_MS = 60;
/** Headroom under the ceiling the limiter aims at: its interpolated peaks are estimates. */
const LIMIT_MARGIN_DB = 0.5;
/**
 * More headroom when the samples go to a lossy encoder next, which adds to the true peak (measured with ffmpeg on
 * espeak speech at 22 kHz, six voices: LAME 48 kbps up to +0.5 dB, Vorbis q3 up to +1.3 dB).
 */
export const LOSSY_MARGIN_DB = { mp3: 1.0, ogg: 1.8 } as const;

/**
 * `samples` brought to `target`: a gain to the target loudness, then a look-ahead limiter under the true-peak
 * ceiling; what the limiter took off the loudness is given back (and limited again) until the result is within
 * 0.05 LU of the target (at most three passes). Returns a new array (the input is not changed) and the gain
 * applied before limiting (dB).
 */
export function normalizePcm(
  samples: Int16Array,
  rate: number,
  target: LoudnessTarget,
  opts: { lossy?: keyof typeof LOSSY_MARGIN_DB; measured?: LoudnessStats } = {},
): { samples: Int16Array; gainDb: number } {
  const measured = opts.measured ?? measureLoudness(samples, rate);
  if (!Number.isFinite(measured.integrated)) return { samples: Int16Array.from(samples), gainDb: 0 };
  const margin = opts.lossy ? LOSSY_MARGIN_DB[opts.lossy] : LIMIT_MARGIN_DB;
  let gainDb = target.lufs - measured.integrated;
  if (measured.truePeakDb + gainDb <= target.truePeakDb - margin)
    return { samples: gainAndLimit(samples, rate, gainDb, target.truePeakDb - margin, undefined), gainDb };
  const peaks = new Float32Array(samples.length);
  // Interpolated wherever a sample, once gained (by up to 2 dB more in later passes), may come near the ceiling.
  truePeaks(samples, peaks, dbToGain(target.truePeakDb - margin - gainDb - 2));
  let out = gainAndLimit(samples, rate, gainDb, target.truePeakDb - margin, peaks);
  for (let pass = 1; pass < 3; pass++) {
    const got = integratedLoudness(out, rate);
    if (!Number.isFinite(got) || Math.abs(got - target.lufs) < 0.05) break;
    gainDb += target.lufs - got;
    out = gainAndLimit(samples, rate, gainDb, target.truePeakDb - margin, peaks);
  }
  return { samples: out, gainDb };
}

/** Integrated loudness only (no true peak). */
export function integratedLoudness(samples: Samples, rate: number): number {
  const { sums, step } = weightedEnergies(samples, rate);
  const blockLen = 4 * step;
  const blocks: number[] = [];
  const whole = Math.floor(samples.length / step);
  for (let i = 0; i + 4 <= whole; i++)
    blocks.push((sums[i]! + sums[i + 1]! + sums[i + 2]! + sums[i + 3]!) / blockLen);
  if (blocks.length > 0) return gatedLoudness(blocks);
  const total = sums.reduce((a, b) => a + b, 0);
  return samples.length && total > 0 ? lufs(total / samples.length) : Number.NEGATIVE_INFINITY;
}

/** `samples` × the gain, limited under the ceiling where `peaks` (true peak around each sample) say it must be. */
function gainAndLimit(
  samples: Int16Array,
  rate: number,
  gainDb: number,
  ceilingDb: number,
  peaks: Float32Array | undefined,
): Int16Array {
  const gain = dbToGain(gainDb);
  const out = new Int16Array(samples.length);
  if (!peaks) {
    for (let i = 0; i < samples.length; i++) out[i] = clamp16(samples[i]! * gain);
    return out;
  }
  const ceiling = dbToGain(ceilingDb);
  // Per sample: the most gain that keeps the (interpolated) peak under the ceiling.
  const g = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const p = peaks[i]! * gain;
    g[i] = p > ceiling ? ceiling / p : 1;
  }
  // Ramps: never more than 1/attack per sample going down (done backwards, so it starts before the peak), never
  // more than 1/release going up. Both only lower g, so every sample stays under its own limit.
  const attack = 1 / Math.max(1, (rate * ATTACK_MS) / 1000);
  const release = 1 / Math.max(1, (rate * RELEASE_MS) / 1000);
  for (let i = 1; i < g.length; i++) g[i] = Math.min(g[i]!, g[i - 1]! + release);
  for (let i = g.length - 2; i >= 0; i--) g[i] = Math.min(g[i]!, g[i + 1]! + attack);
  for (let i = 0; i < samples.length; i++) out[i] = clamp16(samples[i]! * gain * g[i]!);
  return out;
}

function clamp16(v: number): number {
  const r = Math.round(v);
  return r > 32767 ? 32767 : r < -32768 ? -32768 : r;
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
