// Issue #28: can the cloud MP3 path's limiter find which granules pass the true-peak ceiling without decoding them?
// At −16 LUFS / ≤ −1 dBTP the Polly stand-in's canned speech needs the limiter on every chunk, and today each chunk
// is decoded (mpg123 in WASM) for the limiter. This bench measures, on one ~180 s chunk of that speech:
//  1. what the decode costs (CPU per second of speech, all of levelMp3FramesAs against the decode alone), and what
//     the 1.1× goal would allow on a machine whose cores are taken (wall time then follows CPU time);
//  2. how tight a peak bound a partial decode (Huffman + requantisation, no synthesis filterbank) could give: the
//     output of a granule's span is a sum of its own and its neighbour's MDCT coefficients times basis functions, so
//     Σ|X_k|·max|basis_k| bounds its peak (the only bound that holds for every signal). Measured on a proxy with the
//     same 576-line resolution: a plain MDCT (sine window, 50 % overlap, exact reconstruction) of the decoded speech.
//     MP3's hybrid filterbank (32 polyphase bands of 512 taps, then an 18-line MDCT per band) mixes more
//     coefficients into each output sample, so its bound can only be looser than this one.
// The ratio line: granules the bound sends to the limiter vs those whose decoded peak needs it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollySynthesizer } from '../lambdas/narration/adapters/polly';
import { mp3AudioFrames } from '../lambdas/narration/audio/mp3-join';
import {
  decodeMp3Frames,
  levelMp3Frames,
  levelMp3FramesAs,
  MARGIN_DB,
} from '../lambdas/narration/audio/mp3-level';
import { GRANULE_SAMPLES, MP3_GAIN_STEP_DB } from '../lambdas/narration/audio/mp3-gain';
import { DEFAULT_LOUDNESS } from '../lambdas/narration/audio/loudness';
import { findVoice } from '../lambdas/narration/core/voices';
import { standInClient, startPollyStandIn } from '../test/helpers/polly-stand-in';

const RUNS = 5;
/** Granules of the chunk the bound is computed for (an O(N²) transform: a few seconds of CPU). */
const BOUND_GRANULES = 2000;

const cpuMs = (f: () => Promise<unknown>) => async () => {
  const c = process.cpuUsage();
  await f();
  const u = process.cpuUsage(c);
  return (u.user + u.system) / 1000;
};

(async () => {
  // One chunk as the cloud path gets it: the stand-in's canned speech, ~2,900 characters, Polly's MP3 frames.
  const standIn = await startPollyStandIn({ speech: 'canned' });
  let frames: Uint8Array;
  try {
    const polly = new PollySynthesizer(standInClient(standIn));
    const fixture = readFileSync(join(__dirname, '../test/fixtures/texto-2000.txt'), 'utf8').trim();
    const answer = await polly.synthesizeMp3!(
      `${fixture} ${fixture}`.slice(0, 2900),
      findVoice('es-MX-Mia')!,
    );
    frames = mp3AudioFrames(answer.mp3).bytes;
  } finally {
    await standIn.stop();
  }
  const target = DEFAULT_LOUDNESS;
  const measured = await levelMp3Frames(Uint8Array.from(frames), target);
  const known = measured.level!;
  const { samples, rate } = await decodeMp3Frames(frames);
  const speechS = samples.length / rate;

  // 1. The decode's cost.
  const decode = cpuMs(() => decodeMp3Frames(frames));
  const levelAs = cpuMs(() => levelMp3FramesAs(Uint8Array.from(frames), known, target));
  await decode();
  await levelAs();
  const dec: number[] = [];
  const lev: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    dec.push(await decode());
    lev.push(await levelAs());
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const nsPerSample = (ms: number) => (ms * 1e6) / samples.length;
  console.log(
    `# ${speechS.toFixed(1)} s of speech (${Math.round(samples.length / GRANULE_SAMPLES)} granules): decode ${med(dec).toFixed(0)} ms CPU ` +
      `(${nsPerSample(med(dec)).toFixed(1)} ns a sample, ${(speechS / (med(dec) / 1000)).toFixed(0)}× real time); ` +
      `levelMp3FramesAs (decode, exact limiter, gain) ${med(lev).toFixed(0)} ms CPU; ` +
      `the voice's gain ${known.steps} steps, ${measured.limited} granules limited`,
  );

  // 2. The bound a partial decode could give, against the decoded peaks.
  const N = GRANULE_SAMPLES;
  const L = 2 * N;
  const window = Float64Array.from({ length: L }, (_, n) => Math.sin((Math.PI * (n + 0.5)) / L));
  const basis = new Float64Array(N * L);
  for (let k = 0; k < N; k++)
    for (let n = 0; n < L; n++)
      basis[k * L + n] = window[n]! * Math.cos((Math.PI / N) * (n + 0.5 + N / 2) * (k + 0.5));
  const first = 1000;
  const last = Math.min(Math.floor(samples.length / N) - 2, first + BOUND_GRANULES);
  /** Σ|X_k| of the MDCT block starting at granule g (forward scaled 2/N: y = Σ X_k·basis_k reconstructs). */
  const l1 = (g: number) => {
    let sum = 0;
    for (let k = 0; k < N; k++) {
      let x = 0;
      for (let n = 0; n < L; n++) x += samples[g * N + n]! * basis[k * L + n]!;
      sum += Math.abs((2 / N) * x);
    }
    return sum;
  };
  // The limiter's threshold before the gain: the ceiling less its margin, less the voice's gain.
  const threshold = 10 ** ((target.truePeakDb - MARGIN_DB - known.steps * MP3_GAIN_STEP_DB) / 20);
  const overDb: number[] = [];
  let byPeak = 0;
  let byBound = 0;
  let prev = l1(first - 1);
  for (let g = first; g < last; g++) {
    const cur = l1(g);
    // Granule g's samples [gN, gN + N) are the second half of block g − 1 and the first half of block g; the
    // window is at most 1 there.
    const bound = prev + cur;
    prev = cur;
    let peak = 0;
    for (let n = g * N; n < (g + 1) * N; n++) peak = Math.max(peak, Math.abs(samples[n]!));
    if (peak < 0.01) continue; // under −40 dBFS: pauses, not speech
    overDb.push(20 * Math.log10(bound / peak));
    if (peak > threshold) byPeak++;
    if (bound > threshold) byBound++;
  }
  overDb.sort((a, b) => a - b);
  const q = (p: number) => overDb[Math.floor(p * (overDb.length - 1))]!.toFixed(1);
  console.log(
    `# peak bound from MDCT coefficients over the decoded peak, ${overDb.length} speech granules: ` +
      `min ${q(0)} dB, p10 ${q(0.1)}, median ${q(0.5)}, p90 ${q(0.9)}, max ${q(1)}`,
  );
  console.log(
    `narration-peak-bound granules the limiter must look at, by a partial decode's bound vs by the decoded peak: ${byBound} vs ${byPeak} → ratio ${(byBound / Math.max(1, byPeak)).toFixed(2)}×`,
  );
  process.exit(0);
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
