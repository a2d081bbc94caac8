// The streaming encoders against an independent reader: ffprobe must see the codec, rate and the duration we
// report, for the rates our engines produce (espeak 22,050 Hz, Polly 16,000 Hz) and odd ones.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeToFile } from '../../lambdas/narration/audio/encode';
import { FORMATS } from '../../lambdas/narration/core/formats';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const FFPROBE: string = require('@ffprobe-installer/ffprobe').path;

function probe(path: string) {
  const out = execFileSync(
    FFPROBE,
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,sample_rate,channels,bit_rate:format=duration',
      '-of',
      'json',
      path,
    ],
    {
      encoding: 'utf8',
    },
  );
  const j = JSON.parse(out) as {
    streams: { codec_name: string; sample_rate: string; channels: number; bit_rate?: string }[];
    format: { duration: string };
  };
  return { ...j.streams[0]!, durationS: Number(j.format.duration) };
}

/** A 440 Hz tone with a slow tremolo, delivered in uneven chunks (including an empty one). */
async function* tone(rate: number, seconds: number): AsyncGenerator<Int16Array> {
  const total = Math.round(rate * seconds);
  const sizes = [1, 0, 999, 4096, 77_777, 12_345];
  let at = 0;
  for (let k = 0; at < total; k++) {
    const n = Math.min(sizes[k % sizes.length]!, total - at);
    const chunk = new Int16Array(n);
    for (let i = 0; i < n; i++) {
      const t = (at + i) / rate;
      chunk[i] = Math.round(
        12_000 * Math.sin(2 * Math.PI * 440 * t) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 0.5 * t)),
      );
    }
    at += n;
    yield chunk;
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'encode-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CODEC = { mp3: 'mp3', wav: 'pcm_s16le', ogg: 'vorbis' } as const;

describe('encodeToFile', () => {
  for (const rate of [16000, 22050]) {
    for (const fmt of FORMATS) {
      it(`${fmt} at ${rate} Hz: ffprobe agrees on codec, rate and duration`, async () => {
        const path = join(dir, `tone-${rate}.${fmt}`);
        const r = await encodeToFile(fmt, rate, tone(rate, 20), path);
        const p = probe(path);
        expect(p).toMatchObject({ codec_name: CODEC[fmt], sample_rate: String(rate), channels: 1 });
        expect(r.bytes).toBe(statSync(path).size);
        expect(r.contentType).toBe({ mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg' }[fmt]);
        expect(Math.abs(r.durationS - p.durationS)).toBeLessThan(0.01 * p.durationS);
        if (fmt === 'wav') expect(r.durationS).toBe(20);
        if (fmt === 'ogg') expect(r.durationS).toBeCloseTo(20, 6); // the last granule is the exact sample count
        if (fmt === 'mp3') {
          expect(p.bit_rate).toBe('48000'); // CBR
          // Encoder delay and last-frame padding only: under two 576-sample frames plus LAME's 1,105-sample delay.
          expect(r.durationS - 20).toBeGreaterThanOrEqual(0);
          expect(r.durationS - 20).toBeLessThan((2 * 576 + 1105) / rate);
        }
      });
    }
  }

  it('lets LAME resample a rate MP3 does not have (12,345 Hz → 12,000 Hz)', async () => {
    const path = join(dir, 'odd.mp3');
    const r = await encodeToFile('mp3', 12_345, tone(12_345, 10), path);
    const p = probe(path);
    expect(p.sample_rate).toBe('12000');
    expect(Math.abs(r.durationS - 10)).toBeLessThan(0.2);
    expect(Math.abs(r.durationS - p.durationS)).toBeLessThan(0.02 * p.durationS);
  });

  it('writes one Ogg stream, and WAV headers with the real sizes', async () => {
    const ogg = join(dir, 'one.ogg');
    await encodeToFile('ogg', 22050, tone(22050, 3), ogg);
    expect(
      readFileSync(ogg)
        .toString('latin1')
        .match(/vorbis/g)!.length,
    ).toBe(3); // id, comment, setup headers once
    const wav = join(dir, 'sizes.wav');
    await encodeToFile('wav', 16000, tone(16000, 1.5), wav);
    const b = readFileSync(wav);
    expect(b.readUInt32LE(4)).toBe(b.length - 8);
    expect(b.readUInt32LE(40)).toBe(b.length - 44);
    expect(b.length - 44).toBe(16000 * 1.5 * 2);
  });

  it('removes the partial file when the input fails, and refuses absurd rates', async () => {
    async function* failing(): AsyncGenerator<Int16Array> {
      yield new Int16Array(50_000);
      throw new Error('engine died');
    }
    const path = join(dir, 'broken.mp3');
    await expect(encodeToFile('mp3', 22050, failing(), path)).rejects.toThrow('engine died');
    expect(existsSync(path)).toBe(false);
    await expect(encodeToFile('wav', 0, tone(8000, 1), join(dir, 'x.wav'))).rejects.toThrow(RangeError);
  });
});
