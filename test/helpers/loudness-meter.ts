// An independent loudness meter for tests: ffmpeg's loudnorm filter (EBU R128 / ITU-R BS.1770 integrated loudness
// and true peak), as podcast platforms' checkers measure a delivered file. Debian's ffmpeg
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

/** ffmpeg `loudnorm=print_format=json` on a whole file (any format ffmpeg reads). */
export function ffmpegLoudness(path: string): FfmpegLoudness {
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
