// Local speech engine: the Debian/Ubuntu `espeak-ng` program (apt-get install espeak-ng), 400-960× realtime.
// The text goes in on stdin (never in argv: no length limit, no option injection, not visible in `ps`), the WAV
// comes back on stdout. espeak cannot seek stdout, so its header carries placeholder sizes: the samples are
// taken to the end of the stream.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { Pcm, Synthesizer } from '../ports';
import type { Voice } from '../core/voices';
import { parseWavHeader } from '../audio/wav';

export interface EspeakCliOptions {
  /** Program to run (default `espeak-ng` on PATH). */
  bin?: string;
  /** Parallel processes (default: one per CPU). */
  concurrency?: number;
  /** Characters per call (default 2,000: ~2.5 min of speech, ~9 MB of PCM). */
  maxChars?: number;
  /** A call taking longer is killed (default 120 s). */
  timeoutMs?: number;
}

export class EspeakCliSynthesizer implements Synthesizer {
  readonly engine = 'espeak-cli';
  readonly maxChars: number;
  readonly concurrency: number;
  private readonly bin: string;
  private readonly timeoutMs: number;

  constructor(opts: EspeakCliOptions = {}) {
    this.bin = opts.bin ?? 'espeak-ng';
    this.maxChars = opts.maxChars ?? 2000;
    this.concurrency = opts.concurrency ?? Math.max(1, availableParallelism());
    this.timeoutMs = opts.timeoutMs ?? 120_000;
  }

  async synthesize(text: string, voice: Voice, opts: { ssml?: boolean } = {}): Promise<Pcm> {
    // -b 1: the input is UTF-8 whatever the locale (Lambda and CI run with LANG=C). -m: espeak's own SSML.
    const args = ['-b', '1', ...(opts.ssml ? ['-m'] : []), '-v', espeakVoiceName(voice), '--stdout'];
    const { stdout, stderr, code } = await run(this.bin, args, text, this.timeoutMs);
    if (code !== 0) throw new Error(`espeak-ng failed (exit ${code}): ${stderr.trim().slice(0, 300)}`);
    return pcmFromWavStream(stdout);
  }
}

/** `es-419+f3`: the espeak voice plus its variant. */
export function espeakVoiceName(voice: Voice): string {
  return voice.espeak.variant ? `${voice.espeak.voice}+${voice.espeak.variant}` : voice.espeak.voice;
}

/** Samples of a mono 16-bit WAV whose data runs to the end of `wav` (header sizes ignored). */
export function pcmFromWavStream(wav: Uint8Array): Pcm {
  const h = parseWavHeader(wav);
  if (h.audioFormat !== 1 || h.bitsPerSample !== 16 || h.channels !== 1) {
    throw new Error(
      `expected mono 16-bit PCM, got format ${h.audioFormat}, ${h.channels} ch, ${h.bitsPerSample} bit`,
    );
  }
  const end = wav.length - ((wav.length - h.dataOffset) % 2);
  // Copy: the source may sit at an odd offset inside a pooled buffer.
  const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + h.dataOffset, wav.byteOffset + end));
  return { samples, sampleRate: h.sampleRate };
}

let available: Promise<boolean> | undefined;

/** Whether `espeak-ng` runs here (checked once per process). */
export function espeakCliAvailable(bin = 'espeak-ng'): Promise<boolean> {
  if (bin !== 'espeak-ng') return check(bin);
  available ??= check(bin);
  return available;
}

async function check(bin: string): Promise<boolean> {
  try {
    const { code, stdout } = await run(bin, ['--version'], '', 10_000);
    return code === 0 && /espeak/i.test(Buffer.from(stdout).toString('utf8'));
  } catch {
    return false;
  }
}

function run(
  bin: string,
  args: string[],
  input: string,
  timeoutMs: number,
): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject); // ENOENT: not installed
    // EPIPE when espeak exits before reading everything (bad voice): its exit code tells the story.
    child.stdin.on('error', () => undefined);
    child.on('close', (code, signal) => {
      const stderr = Buffer.concat(err).toString('utf8') + (signal ? ` (killed by ${signal})` : '');
      resolve({ stdout: Buffer.concat(out), stderr, code });
    });
    child.stdin.end(input, 'utf8');
  });
}
