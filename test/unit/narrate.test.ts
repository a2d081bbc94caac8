import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NothingToNarrateError, PAUSES, narrate } from '../../lambdas/narration/use-cases/narrate';
import type { Pcm, Synthesizer } from '../../lambdas/narration/ports';
import { VOICES } from '../../lambdas/narration/core/voices';
import { parseWavHeader } from '../../lambdas/narration/audio/wav';

const RATE = 8000;
const voice = VOICES[0]!;

/**
 * A fake engine: chunk "c<k> ..." becomes `len` samples of value k, after a delay that makes later chunks
 * finish first, so ordering is really exercised. Records concurrency and how far it runs ahead.
 */
class FakeEngine implements Synthesizer {
  readonly engine = 'fake';
  inFlight = 0;
  maxInFlight = 0;
  started: number[] = [];
  /** Chunks the encoder has consumed, as told by onProgress. */
  consumed = 0;
  maxAhead = 0;
  constructor(
    readonly maxChars: number,
    readonly concurrency: number,
    private readonly opts: { failOn?: number; rate?: (k: number) => number } = {},
  ) {}

  async synthesize(text: string): Promise<Pcm> {
    const k = Number(/^c(\d+)/.exec(text)![1]);
    this.started.push(k);
    this.maxAhead = Math.max(this.maxAhead, k - this.consumed);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setTimeout(r, (k * 7) % 5));
      if (k === this.opts.failOn) throw new Error(`engine failed on chunk ${k}`);
      return { samples: new Int16Array(100 + k).fill(k), sampleRate: this.opts.rate?.(k) ?? RATE };
    } finally {
      this.inFlight--;
    }
  }
}

/** n paragraphs "c1 xxx", "c2 xxx", ... each becoming its own chunk with maxChars 10. */
const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `c${i + 1} xx`).join('\n\n');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'narrate-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('narrate', () => {
  it('encodes chunks in text order with a pause between them, within the concurrency and window', async () => {
    const engine = new FakeEngine(10, 3);
    const progress: number[] = [];
    const outPath = join(dir, 'order.wav');
    const result = await narrate({
      text: paragraphs(20),
      voice,
      fmt: 'wav',
      synthesizer: engine,
      outPath,
      // The samples are checked one by one: the engine's level, as it made them.
      loudness: 'off',
      onProgress: (f) => {
        progress.push(f);
        engine.consumed = Math.round(f * 20);
      },
    });

    const wav = await readFile(outPath);
    const h = parseWavHeader(wav);
    const samples = new Int16Array(
      wav.buffer.slice(wav.byteOffset + h.dataOffset, wav.byteOffset + wav.length),
    );
    // Expected: chunk k = (100 + k) samples of k, paragraph pauses of zeros between.
    const pause = Math.round(RATE * PAUSES.paragraph);
    const expected: number[] = [];
    for (let k = 1; k <= 20; k++) {
      if (k > 1) expected.push(...new Array<number>(pause).fill(0));
      expected.push(...new Array<number>(100 + k).fill(k));
    }
    expect(Array.from(samples)).toEqual(expected);
    expect(result).toMatchObject({
      bytes: wav.length,
      durationS: expected.length / RATE,
      contentType: 'audio/wav',
    });
    // Timings: each paragraph is a chunk, so each sentence starts exactly where its chunk's samples start, and
    // its offsets are the paragraph's in the text.
    const text = paragraphs(20);
    let at = 0;
    result.timings.sentences.forEach((s, i) => {
      expect(text.slice(s.start, s.end)).toBe(`c${i + 1} xx`);
      expect(Math.abs(s.start_s - at / RATE)).toBeLessThanOrEqual(0.0005 + 1e-9); // reported to the ms
      at += 100 + (i + 1) + pause;
    });
    expect(result.timings.words).toEqual([]);

    expect(engine.maxInFlight).toBe(3);
    expect(engine.maxAhead).toBeLessThanOrEqual(3 + 2); // concurrency + 1 buffered, + the one being encoded
    expect(progress).toEqual([...Array.from({ length: 19 }, (_, i) => (i + 1) / 20), 1]);
  });

  it('works with a single chunk and concurrency 1', async () => {
    const engine = new FakeEngine(100, 1);
    const progress: number[] = [];
    const r = await narrate({
      text: 'c5 hola',
      voice,
      fmt: 'wav',
      synthesizer: engine,
      outPath: join(dir, 'one.wav'),
      onProgress: (f) => void progress.push(f),
    });
    expect(r.durationS).toBeCloseTo(105 / RATE, 9);
    expect(progress).toEqual([1]);
    expect(engine.maxInFlight).toBe(1);
  });

  it('fails with the engine error, starts nothing more, and leaves no partial file', async () => {
    const engine = new FakeEngine(10, 2, { failOn: 4 });
    const outPath = join(dir, 'fail.mp3');
    await expect(
      narrate({ text: paragraphs(30), voice, fmt: 'mp3', synthesizer: engine, outPath }),
    ).rejects.toThrow('engine failed on chunk 4');
    await new Promise((r) => setTimeout(r, 20)); // let in-flight calls settle
    expect(Math.max(...engine.started)).toBeLessThan(10);
    expect(existsSync(outPath)).toBe(false);
  });

  it('refuses an engine that changes sample rate mid-text', async () => {
    const engine = new FakeEngine(10, 2, { rate: (k) => (k === 3 ? 16000 : RATE) });
    await expect(
      narrate({
        text: paragraphs(5),
        voice,
        fmt: 'ogg',
        synthesizer: engine,
        outPath: join(dir, 'rate.ogg'),
      }),
    ).rejects.toThrow('changed sample rate');
  });

  it('propagates a failing progress callback', async () => {
    const engine = new FakeEngine(10, 2);
    await expect(
      narrate({
        text: paragraphs(4),
        voice,
        fmt: 'wav',
        synthesizer: engine,
        outPath: join(dir, 'p.wav'),
        onProgress: () => Promise.reject(new Error('progress store down')),
      }),
    ).rejects.toThrow('progress store down');
  });

  it('refuses a text with nothing to say', async () => {
    await expect(
      narrate({
        text: ' \n\n ',
        voice,
        fmt: 'wav',
        synthesizer: new FakeEngine(10, 1),
        outPath: join(dir, 'e.wav'),
      }),
    ).rejects.toBeInstanceOf(NothingToNarrateError);
  });
});
