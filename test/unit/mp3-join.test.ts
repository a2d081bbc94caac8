// Joining an engine's own MP3 without decoding it (lambdas/narration/audio/mp3-join.ts and narrate()'s MP3 path),
// checked by ffprobe (an independent decoder): tags are dropped, silence frames decode to exact zeros, and a file
// whose frames change bitrate gets a Xing frame so its duration is read exactly rather than guessed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mp3Summary } from '../../lambdas/narration/audio/duration';
import { encodeMp3Segment } from '../../lambdas/narration/audio/encode';
import { mp3AudioFrames, silentMp3Frames, xingFrame } from '../../lambdas/narration/audio/mp3-join';
import { findVoice } from '../../lambdas/narration/core/voices';
import type { Mp3Synthesis, Synthesizer } from '../../lambdas/narration/ports';
import { narrate } from '../../lambdas/narration/use-cases/narrate';
import { FFPROBE, ffprobeFilter } from '../helpers/runtime';

jest.setTimeout(60_000);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mp3-join-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tone(seconds: number, rate = 24000): Int16Array {
  const out = new Int16Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return out;
}

function file(name: string, ...parts: Uint8Array[]): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

/** ffprobe decoding every frame: errors, frames decoded, the duration it reports. */
function probe(path: string): { frames: number; duration: number } {
  const run = spawnSync(
    FFPROBE,
    [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'stream=nb_read_frames:format=duration',
      '-of',
      'json',
      path,
    ],
    { encoding: 'utf8' },
  );
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' }); // decoded cleanly
  const j = JSON.parse(run.stdout) as { streams: { nb_read_frames: string }[]; format: { duration: string } };
  return { frames: Number(j.streams[0]!.nb_read_frames), duration: Number(j.format.duration) };
}

/** A copy of `header` (4 bytes) at another bitrate index. */
function atBitrateIndex(header: Uint8Array, index: number): Uint8Array {
  const h = Uint8Array.from(header);
  h[2] = (h[2]! & 0x0f) | (index << 4);
  return h;
}

describe('mp3AudioFrames', () => {
  it('keeps exactly the audio frames: an ID3v2 tag, a Xing/Info frame and an ID3v1 tail are dropped', async () => {
    const seg = await encodeMp3Segment(tone(1), 24000);
    const header = seg.bytes.subarray(0, 4);
    const id3v2 = Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x14', 'latin1'), Buffer.alloc(20)]);
    const id3v1 = Buffer.concat([Buffer.from('TAG', 'latin1'), Buffer.alloc(125, 0x20)]);
    const wrapped = Buffer.concat([id3v2, xingFrame(header, seg.frames, seg.bytes.length), seg.bytes, id3v1]);

    const frames = mp3AudioFrames(wrapped);
    expect(Buffer.from(frames.bytes).equals(Buffer.from(seg.bytes))).toBe(true);
    expect(frames).toMatchObject({ frames: seg.frames, sampleRate: 24000, bitrates: [48] });
    expect(frames.durationS).toBeCloseTo(seg.durationS, 9);
    expect(() => mp3AudioFrames(Buffer.from('not audio at all'))).toThrow(/no audio frame/);
  });
});

describe('silentMp3Frames', () => {
  it('decodes to exact zeros, a whole number of frames, with no decoder error', async () => {
    const { bytes } = await encodeMp3Segment(tone(0.5), 24000);
    const silence = silentMp3Frames(bytes.subarray(0, 4), 0.25);
    expect(silence.frames).toBe(Math.round((0.25 * 24000) / 576)); // MPEG-2 layer III: 576 samples a frame
    const path = file('silence.mp3', silence.bytes);
    const stats = ffprobeFilter(path, 'astats=metadata=1:reset=0', [
      'lavfi.astats.Overall.Peak_level',
      'lavfi.astats.Overall.Number_of_samples',
    ])
      .pop()!
      .split(',');
    expect(stats[0]).toBe('-inf'); // peak level of all-zero audio
    expect(Number(stats[1])).toBe(silence.frames * 576);
  });
});

describe('xingFrame', () => {
  it('makes ffprobe read the exact duration of frames that change bitrate (and without it, it cannot)', async () => {
    const speech = await encodeMp3Segment(tone(2), 24000); // 48 kbps
    const loud = silentMp3Frames(atBitrateIndex(speech.bytes.subarray(0, 4), 10), 6); // 96 kbps
    const frames = speech.frames + loud.frames;
    const exactS = (frames * 576) / 24000;
    const body = Buffer.concat([speech.bytes, loud.bytes]);

    // Negative control: a player estimates from the first frame's bitrate and the file size.
    const guessed = probe(file('mixed.mp3', body));
    expect(Math.abs(guessed.duration - exactS) / exactS).toBeGreaterThan(0.2);

    const tagged = probe(
      file('mixed-xing.mp3', xingFrame(speech.bytes.subarray(0, 4), frames, body.length), body),
    );
    expect(tagged.duration).toBeCloseTo(exactS, 2);
    expect(tagged.frames).toBe(frames);
  });
});

describe("narrate() with an engine's own MP3", () => {
  const mia = findVoice('es-MX-Mia')!;
  // Four chunks (maxChars 40): chunk 2 answers at 96 kbps, the rest at 48 kbps.
  const text = 'Primera frase del texto largo. Segunda frase del texto. Tercera frase aquí. Cuarta y última.';

  function engine(calls: string[]): Synthesizer {
    return {
      engine: 'polly',
      maxChars: 40,
      concurrency: 2,
      synthesize: () => Promise.reject(new Error('MP3 output must not ask for PCM')),
      async synthesizeMp3(t: string): Promise<Mp3Synthesis> {
        calls.push(t);
        const seg = await encodeMp3Segment(tone(0.05 * t.length), 24000);
        if (calls.length !== 2) return { mp3: seg.bytes };
        return { mp3: silentMp3Frames(atBitrateIndex(seg.bytes.subarray(0, 4), 10), 1).bytes };
      },
    };
  }

  it('joins the answers as they are (no PCM), pauses as silence frames, and tags a mixed-bitrate file', async () => {
    const calls: string[] = [];
    const outPath = join(dir, 'narrated.mp3');
    const segments: Uint8Array[] = [];
    const result = await narrate({
      text,
      voice: mia,
      fmt: 'mp3',
      synthesizer: engine(calls),
      outPath,
      encoderThreads: 0,
      onSegment: (_s, mp3) => void segments.push(mp3),
    });
    expect(calls.length).toBeGreaterThanOrEqual(3);
    const frames = segments.reduce((n, s) => n + mp3Summary(s).frames, 0);
    expect(result.durationS).toBeCloseTo((frames * 576) / 24000, 9);
    const p = probe(outPath);
    expect(p.frames).toBe(frames); // the Xing frame is not audio
    expect(p.duration).toBeCloseTo(result.durationS, 2);
    // Each segment is the chunk's frames plus, except the last, 250 ms of silence frames.
    expect(mp3Summary(segments[0]!).durationS).toBeGreaterThan(0.25);
  });
});
