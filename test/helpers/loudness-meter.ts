// An independent loudness meter for tests: ffmpeg's ebur128 and loudnorm filters (EBU R128 / ITU-R BS.1770
// integrated loudness and true peak), as podcast platforms' checkers measure a delivered file. Debian's ffmpeg
// (scripts/ensure-install.cjs installs it).
import { spawnSync } from 'node:child_process';

export interface FfmpegLoudness {
  /** Integrated loudness, LUFS. */
  i: number;
  /** True peak, dBTP. */
  tp: number;
  /** Loudness range, LU. */
  lra: number;
}

/**
 * ffmpeg's ebur128 filter on a whole file (any format ffmpeg reads): integrated loudness, loudness range and true
 * peak (4× oversampled) from its summary; the same meter as `loudnorm=print_format=json`, without loudnorm's
 * resampling to 192 kHz (minutes for a 100-minute narration).
 */
export function ffmpegLoudness(path: string): FfmpegLoudness {
  return ffmpegEbur128(path).summary;
}

/**
 * One ebur128 pass (true peak on) giving both the file's summary (ffmpegLoudness) and its momentary loudness every
 * 100 ms (400 ms windows; `t` is the window's end, seconds): a long file's figures and its chunks' from one decode.
 */
export function ffmpegEbur128(path: string): {
  summary: FfmpegLoudness;
  momentary: { t: number; m: number }[];
} {
  const run = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', path, '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`ffmpeg failed on ${path}: ${run.stderr.slice(-500)}`);
  const summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
  const num = (re: RegExp) => {
    const m = re.exec(summary);
    if (!m) throw new Error(`no ${String(re)} in ffmpeg's ebur128 summary for ${path}`);
    return Number(m[1]);
  };
  return {
    summary: {
      i: num(/I:\s*(-?[\d.]+) LUFS/),
      lra: num(/LRA:\s*(-?[\d.]+) LU/),
      tp: num(/True peak:\s*Peak:\s*(-?[\d.]+|-inf) dBFS/),
    },
    momentary: momentaryOf(run.stderr),
  };
}

/** ffmpeg `loudnorm=print_format=json` (what podcast tools print), for a cross-check on short files. */
export function ffmpegLoudnorm(path: string): FfmpegLoudness {
  const run = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', path, '-af', 'loudnorm=print_format=json', '-f', 'null', '-'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`ffmpeg failed on ${path}: ${run.stderr.slice(-500)}`);
  const json = /\{[^{}]*"input_i"[^{}]*\}/.exec(run.stderr);
  if (!json) throw new Error(`no loudnorm report for ${path}`);
  const r = JSON.parse(json[0]) as Record<string, string>;
  return { i: Number(r.input_i), tp: Number(r.input_tp), lra: Number(r.input_lra) };
}

/** A file decoded by ffmpeg to mono 16-bit PCM at its own rate (an independent decoder). */
export function ffmpegDecode(path: string): { samples: Int16Array; rate: number } {
  const probe = spawnSync('ffmpeg', ['-hide_banner', '-i', path], { encoding: 'utf8' });
  const rate = Number(/(\d+) Hz/.exec(probe.stderr)?.[1]);
  const run = spawnSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 's16le', '-ac', '1', '-'], {
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (run.status !== 0 || !rate) throw new Error(`ffmpeg could not decode ${path}: ${String(run.stderr)}`);
  const b = run.stdout;
  return {
    samples: new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length - (b.length % 2))),
    rate,
  };
}

/** ebur128's per-block lines (`t: … TARGET: … M: …`), with or without its peak columns. */
function momentaryOf(stderr: string): { t: number; m: number }[] {
  return [...stderr.matchAll(/t:\s*([\d.]+)\s+TARGET:[^M]*M:\s*(-?[\d.]+)/g)].map((x) => ({
    t: Number(x[1]),
    m: Number(x[2]),
  }));
}

/**
 * Integrated loudness (BS.1770 gating over ffmpeg's momentary blocks) of the stretch [startS, endS) of a file:
 * one ffmpeg pass measures every chunk of a long narration.
 */
export function stretchLoudness(momentary: { t: number; m: number }[], startS: number, endS: number): number {
  const power = momentary
    .filter((b) => b.t - 0.4 >= startS - 1e-6 && b.t <= endS + 1e-6 && b.m > -70)
    .map((b) => 10 ** (b.m / 10));
  if (power.length === 0) return Number.NEGATIVE_INFINITY;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const gate = 10 * Math.log10(mean(power)) - 10;
  return 10 * Math.log10(mean(power.filter((p) => 10 * Math.log10(p) > gate)));
}
