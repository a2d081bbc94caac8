// Brings an engine's own MP3 (Polly's frames) to a loudness target without re-encoding it: the frames are decoded
// only to be measured (mpg123 in WASM, in-process), and the gain is written into each granule's global_gain
// (audio/mp3-gain.ts, 1.5 dB steps, lossless). Where the gained speech would pass the true-peak ceiling, those
// granules (and their neighbours, which overlap them in the decoder) get fewer steps: a limiter in 1.5 dB steps.
// The result is decoded again to check it; granules still over the ceiling lose one more step (at most twice).
// Cost: one or two decodes per chunk (~1-2 % of a core per second of speech); the frames are never re-encoded.
import type { MPEGDecoder } from 'mpg123-decoder';
import { DEFAULT_LOUDNESS, gatedLoudness, kWeighted, lufs, type LoudnessTarget } from './loudness';
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

export interface Mp3Leveling {
  /** The constant part of the gain, dB (a multiple of 1.505). */
  gainDb: number;
  /** Granules that got fewer steps to stay under the ceiling. */
  limited: number;
  /** Loudness and sample peak before, loudness expected after (both from the granules' energies). */
  before: { integrated: number; truePeakDb: number };
  expectedLufs: number;
}

/** Decoder output sample n lies in granule (n − DECODER_DELAY) / 576: the synthesis filterbank's delay. */
const DECODER_DELAY = 529;
/**
 * Headroom under the ceiling: sample peaks → true peaks (speech: < 0.5 dB) and the decoder's overlap-add mixing
 * two granules of different gain (measured: ≤ 0.3 dB).
 */
const MARGIN_DB = 0.8;

/** Per granule: K-weighted energy and largest |sample| (dB) of the decoder's output for it. */
function granuleStats(samples: Float32Array, rate: number, granules: number) {
  const weighted = kWeighted(samples, rate);
  const energy = new Float64Array(granules);
  const peakDb = new Float64Array(granules).fill(Number.NEGATIVE_INFINITY);
  for (let g = 0; g < granules; g++) {
    const from = Math.min(samples.length, g * GRANULE_SAMPLES + DECODER_DELAY);
    // The last granule also owns the tail the decoder gives out after it (its overlap, flushed by silence).
    const to = g === granules - 1 ? samples.length : Math.min(samples.length, from + GRANULE_SAMPLES);
    let e = 0;
    let m = 0;
    for (let i = from; i < to; i++) {
      e += weighted[i]! * weighted[i]!;
      const v = Math.abs(samples[i]!);
      if (v > m) m = v;
    }
    energy[g] = e;
    if (m > 0) peakDb[g] = 20 * Math.log10(m);
  }
  return { energy, peakDb };
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
 * Levels `frames` (consecutive layer III frames, no tags) in place to `target`, decoding them once to measure:
 * a constant gain in 1.5 dB steps, fewer steps where a granule's peak would pass the ceiling. Frames that are all
 * silence are left alone.
 */
export async function levelMp3Frames(
  frames: Uint8Array,
  target: LoudnessTarget = DEFAULT_LOUDNESS,
): Promise<Mp3Leveling> {
  const granules = countGranules(frames);
  // Decoded with a few silent frames after them: the last granule's second half comes out only when a next one
  // overlaps it, and in the file the pause does (an answer cut mid-word peaked there, unmeasured: -0.6 dBTP).
  const h = parseMp3FrameHeader(frames, 0);
  const flush = h
    ? silentMp3Frames(frames.subarray(0, 4), (3 * h.samplesPerFrame) / h.sampleRate).bytes
    : new Uint8Array(0);
  const decoded = await decodeMp3Frames(Buffer.concat([frames, flush]));
  const { energy, peakDb } = granuleStats(decoded.samples, decoded.rate, granules);
  const before = {
    integrated: loudnessWith(energy, new Int32Array(granules), decoded.rate),
    truePeakDb: peakDb.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY),
  };
  if (!Number.isFinite(before.integrated) || granules === 0)
    return { gainDb: 0, limited: 0, before, expectedLufs: before.integrated };
  const ceiling = target.truePeakDb - MARGIN_DB;
  const plan = (base: number): Int32Array => {
    const want = new Int32Array(granules);
    for (let g = 0; g < granules; g++)
      want[g] = Math.min(base, Math.floor((ceiling - peakDb[g]!) / MP3_GAIN_STEP_DB));
    // Decoded samples of a granule also carry its neighbours' overlap: each gets the least of the three.
    const steps = new Int32Array(granules);
    for (let g = 0; g < granules; g++)
      steps[g] = Math.min(want[g]!, want[g - 1] ?? base, want[g + 1] ?? base);
    return steps;
  };
  // The constant gain whose result (limited) lands nearest the target: the rounded one, or up to two steps
  // more where limiting took loudness away.
  const first = Math.round((target.lufs - before.integrated) / MP3_GAIN_STEP_DB);
  let best = { base: first, steps: plan(first), lufs: 0 };
  best.lufs = loudnessWith(energy, best.steps, decoded.rate);
  for (let base = first + 1; base <= first + 4 && best.lufs < target.lufs - MP3_GAIN_STEP_DB / 2; base++) {
    const steps = plan(base);
    const l = loudnessWith(energy, steps, decoded.rate);
    if (Math.abs(l - target.lufs) < Math.abs(best.lufs - target.lufs)) best = { base, steps, lufs: l };
  }
  applyMp3Gain(frames, (g) => best.steps[g] ?? best.base);
  let limited = 0;
  for (let g = 0; g < granules; g++) if (best.steps[g]! < best.base) limited++;
  return { gainDb: best.base * MP3_GAIN_STEP_DB, limited, before, expectedLufs: best.lufs };
}
