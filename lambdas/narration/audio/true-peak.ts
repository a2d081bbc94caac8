// True peak of decoded speech (dBTP, BS.1770-4 Annex 2's method: 4× oversampled), shared by the MP3 levelling and
// its limiter (mp3-level.ts), which checks every sample it will change with peakAt.

/** 4× oversampling interpolator (BS.1770-4 Annex 2's method): 3 fractional phases of a 16-tap Hann-windowed sinc. */
export const TAPS = 16;
const PHASES = [0.25, 0.5, 0.75].map((f) => {
  const h = new Float64Array(TAPS);
  for (let k = 0; k < TAPS; k++) {
    const t = k - (TAPS / 2 - 1) - f;
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    h[k] = sinc * (0.5 + 0.5 * Math.cos((Math.PI * t) / (TAPS / 2)));
  }
  return h;
});

const [H1, H2, H3] = PHASES as [Float64Array, Float64Array, Float64Array];

/** The largest magnitude at sample i and at the three 4× oversampled points after it (see truePeakDb). */
export function peakAt(y: Float32Array, i: number): number {
  const p = Math.abs(y[i]!);
  const from = i - (TAPS / 2 - 1);
  if (from < 0 || from + TAPS > y.length) {
    const padded = new Float32Array(TAPS);
    for (let k = 0; k < TAPS; k++) padded[k] = y[Math.min(y.length - 1, Math.max(0, from + k))]!;
    return Math.max(p, peakAt(padded, TAPS / 2 - 1));
  }
  // The three phases in one pass over the taps.
  let a = 0;
  let b = 0;
  let c = 0;
  for (let k = 0; k < TAPS; k++) {
    const x = y[from + k]!;
    a += H1[k]! * x;
    b += H2[k]! * x;
    c += H3[k]! * x;
  }
  return Math.max(p, Math.abs(a), Math.abs(b), Math.abs(c));
}

/**
 * True peak (dBTP, 4× oversampled) of decoded speech. Between two samples the signal can peak a few dB above both,
 * so only stretches with a sample within 6 dB of the sample peak are interpolated: the cost is a pass over the
 * samples. A gain that changes from granule to granule breaks the decoder's alias cancellation for a moment; what
 * that adds between samples shows here, not in the sample peak (es-ES-Raul levelled: sample peak -1.8 dBFS, true
 * peak -0.2 dBTP).
 */
export function truePeakDb(samples: Float32Array): number {
  const m = 10 ** (samplePeakDb(samples) / 20);
  const near = m / 2;
  let peak = m;
  for (let i = 0; i < samples.length - 1; i++) {
    const a = samples[i]!;
    const b = samples[i + 1]!;
    if (a < near && a > -near && b < near && b > -near) continue;
    const p = peakAt(samples, i);
    if (p > peak) peak = p;
  }
  return 20 * Math.log10(peak);
}

/** The largest |sample|, dBFS. */
export function samplePeakDb(samples: Float32Array): number {
  let m = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]!;
    if (v > m) m = v;
    else if (-v > m) m = -v;
  }
  return 20 * Math.log10(m);
}
