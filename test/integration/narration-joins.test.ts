// Where chunks meet (narrate()): the decoded file (ffmpeg, an independent decoder) has no sample discontinuity above
// a threshold at any join of a 20-chunk job, and the pauses between chunks follow the text (sentence, paragraph,
// heading). The engine in the first tests answers each chunk with a tone cut off mid-waveform at both ends, the
// worst an engine can do: joined as they come (edgeFadeMs 0, the control) every join jumps by thousands; with the
// edge fades none does. The last test runs the real Polly adapter against the stand-in (espeak speech) on the
// MP3 path, whose frames are joined without decoding.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PollyClient } from '@aws-sdk/client-polly';
import { PollySynthesizer } from '../../lambdas/narration/adapters/polly';
import type { AudioFormat } from '../../lambdas/narration/core/formats';
import { findVoice } from '../../lambdas/narration/core/voices';
import type { Pcm, Synthesizer } from '../../lambdas/narration/ports';
import { narrate, PAUSES } from '../../lambdas/narration/use-cases/narrate';
import { ffmpegDecode } from '../helpers/loudness-meter';
import { standInClient, startPollyStandIn, type PollyStandIn } from '../helpers/polly-stand-in';

jest.setTimeout(300_000);

const RATE = 22050;
const voice = findVoice('es-MX-Mia')!;
/** A jump between neighbouring samples larger than this at a join is a click (the tone's own steepest is ~1,100). */
const CLICK = 2000;

/** Chunk k: a 0.4 s tone of 400 + 20k Hz at about -8 dBFS, starting and ending at ±10,000 (cut mid-waveform). */
class AbruptEngine implements Synthesizer {
  readonly engine = 'abrupt';
  readonly maxChars = 40;
  readonly concurrency = 2;
  async synthesize(text: string): Promise<Pcm> {
    const k = Number(/(\d+)/.exec(text)?.[1] ?? 0);
    const f = 400 + 20 * k;
    const n = Math.round(0.4 * RATE);
    const samples = new Int16Array(n);
    const phase = Math.asin(10_000 / 13_000);
    for (let i = 0; i < n; i++)
      samples[i] = Math.round(13_000 * Math.sin(phase + (2 * Math.PI * f * i) / RATE));
    samples[n - 1] = 10_000;
    return { samples, sampleRate: RATE };
  }
}

/** 20 paragraphs, each its own chunk (maxChars 40). */
const text = Array.from({ length: 20 }, (_, i) => `Parte ${i + 1} del texto.`).join('\n\n');

interface Join {
  at: number;
  jump: number;
  silenceS: number;
}

/**
 * Every pause (a run of at least 100 ms within ±`quiet`) and the largest sample-to-sample jump within 5 ms of
 * either edge: where the previous chunk ends and where the next one starts.
 */
function joinsOf(samples: Int16Array, rate: number, quiet: number): Join[] {
  const out: Join[] = [];
  const edge = Math.round(0.005 * rate);
  const jumpNear = (at: number) => {
    let m = 0;
    for (let i = Math.max(1, at - edge); i < Math.min(samples.length, at + edge); i++)
      m = Math.max(m, Math.abs(samples[i]! - samples[i - 1]!));
    return m;
  };
  let run = -1;
  for (let i = 0; i <= samples.length; i++) {
    const silent = i < samples.length && Math.abs(samples[i]!) <= quiet;
    if (silent && run < 0) run = i;
    if (!silent && run >= 0) {
      if (i - run >= 0.1 * rate && run > 0 && i < samples.length)
        out.push({ at: run / rate, jump: Math.max(jumpNear(run), jumpNear(i)), silenceS: (i - run) / rate });
      run = -1;
    }
  }
  return out;
}

let dir: string;
let files = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'joins-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function joined(fmt: AudioFormat, edgeFadeMs?: number) {
  const outPath = join(dir, `${files++}.${fmt}`);
  await narrate({
    text,
    voice,
    fmt,
    synthesizer: new AbruptEngine(),
    outPath,
    loudness: 'off',
    ...(edgeFadeMs !== undefined ? { edgeFadeMs } : {}),
  });
  const { samples, rate } = ffmpegDecode(outPath);
  // Lossy formats leave codec noise in the pauses: "silence" is then below -50 dBFS.
  return joinsOf(samples, rate, fmt === 'wav' ? 0 : 100);
}

describe('joins of a 20-chunk job', () => {
  it.each(['wav', 'mp3', 'ogg'] as const)(
    '%s: no discontinuity above the threshold at any of the 19 joins',
    async (fmt) => {
      const joins = await joined(fmt);
      expect(joins).toHaveLength(19);
      const worst = Math.max(...joins.map((j) => j.jump));
      expect({ fmt, worst, clicks: joins.filter((j) => j.jump > CLICK).length }).toEqual({
        fmt,
        worst,
        clicks: 0,
      });
    },
  );

  it('control: the same chunks joined without the edge fades click at every join', async () => {
    const joins = await joined('wav', 0);
    expect(joins).toHaveLength(19);
    expect(joins.filter((j) => j.jump > CLICK)).toHaveLength(19);
  });

  it('pauses follow the text: sentence, paragraph and heading pauses between chunks', async () => {
    const outPath = join(dir, 'pauses.wav');
    // Each paragraph is a chunk (40 characters at most), the first one split at its sentences; a chunk that is a
    // heading, or follows one, gets a heading's pause.
    const doc = [
      'Capítulo uno',
      'Parte 1 del texto largo aquí. Parte 2 del texto largo aquí.',
      'Parte 3 del texto largo aquí.',
      'Capítulo dos',
      'Parte 4 del texto largo aquí.',
    ].join('\n\n');
    const r = await narrate({
      text: doc,
      voice,
      fmt: 'wav',
      synthesizer: new AbruptEngine(),
      outPath,
      loudness: 'off',
      headings: [
        { text: 'Capítulo uno', offset: 0 },
        { text: 'Capítulo dos', offset: doc.indexOf('Capítulo dos') },
      ],
    });
    const { samples, rate } = ffmpegDecode(outPath);
    const pauses = joinsOf(samples, rate, 0).map((j) => Math.round(j.silenceS * 100) / 100);
    // after the heading | sentence | paragraph | before "Capítulo dos" | after it
    expect(pauses).toEqual([
      PAUSES.heading,
      PAUSES.sentence,
      PAUSES.paragraph,
      PAUSES.heading,
      PAUSES.heading,
    ]);
    expect(r.timings.chapters.map((c) => c.title)).toEqual(['Capítulo uno', 'Capítulo dos']);
  });
});

describe('joins of Polly MP3 frames (stand-in, real speech)', () => {
  let polly: PollyStandIn;
  let client: PollyClient;
  beforeAll(async () => {
    polly = await startPollyStandIn();
    client = standInClient(polly);
  });
  afterAll(async () => {
    client.destroy();
    await polly.stop();
  });

  it('a 20-chunk job: no discontinuity above the threshold at any join', async () => {
    const doc = Array.from(
      { length: 20 },
      (_, i) => `Este es el párrafo número ${i + 1}. Tiene dos frases.`,
    ).join('\n\n');
    const outPath = join(dir, 'polly.mp3');
    const polly3000 = new PollySynthesizer(client);
    // The real adapter, with chunks of at most 60 characters: one paragraph each.
    const engine: Synthesizer = {
      engine: polly3000.engine,
      maxChars: 60,
      concurrency: polly3000.concurrency,
      maxPerSecond: polly3000.maxPerSecond,
      synthesize: (t, v, o) => polly3000.synthesize(t, v, o),
      synthesizeMp3: (t, v, o) => polly3000.synthesizeMp3(t, v, o),
      marksFor: (v) => polly3000.marksFor(v),
    };
    const r = await narrate({ text: doc, voice, fmt: 'mp3', synthesizer: engine, outPath });
    expect(r.segments).toHaveLength(20);
    const { samples, rate } = ffmpegDecode(outPath);
    // Silence frames decode to exact zeros; the engine's own leading and trailing silence is part of each pause.
    const joins = joinsOf(samples, rate, 0);
    expect(joins.length).toBeGreaterThanOrEqual(19);
    const worst = Math.max(...joins.map((j) => j.jump));
    expect({ worst, clicks: joins.filter((j) => j.jump > CLICK).length }).toEqual({ worst, clicks: 0 });
  });
});
