// Loudness of what narrate() delivers, measured by an independent meter (ffmpeg's loudnorm on short files, its
// ebur128 filter on long ones: EBU R128 integrated loudness and true peak, as podcast platforms check a file): −16 LUFS ± 1 and ≤ −1 dBTP by default, for every
// voice, in every format, for short and long texts; consecutive chunks within 2 LU of each other; another target or
// none at all on request. Two engines: espeak-ng locally (PCM: gain + limiter, then our encoders), and the real
// Polly adapter against the Polly stand-in serving canned speech (test/helpers/polly-stand-in.ts), whose MP3 frames
// are levelled losslessly (global_gain) rather than re-encoded. The controls run the same jobs with the gain off:
// the engines' own level is far from the target, so these assertions fail without the gain step.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PollyClient } from '@aws-sdk/client-polly';
import { PollySynthesizer, pollyClient } from '../../lambdas/narration/adapters/polly';
import { VOICES, findVoice, type Voice } from '../../lambdas/narration/core/voices';
import type { AudioFormat } from '../../lambdas/narration/core/formats';
import type { Synthesizer } from '../../lambdas/narration/ports';
import { createSynthesizer } from '../../lambdas/narration/speech';
import { narrate, type NarrateOptions } from '../../lambdas/narration/use-cases/narrate';
import {
  ffmpegLoudness,
  ffmpegLoudnorm,
  ffmpegMomentary,
  stretchLoudness,
  type FfmpegLoudness,
} from '../helpers/loudness-meter';
import { startPollyStandIn, type PollyStandIn } from '../helpers/polly-stand-in';

jest.setTimeout(600_000);

const fixture = readFileSync(join(__dirname, '../fixtures/texto-2000.txt'), 'utf8').trim();
/** `n` characters of Spanish prose in paragraphs, with a heading every ~2,000 characters. */
function textOf(n: number): string {
  let t = '';
  for (let i = 1; t.length < n; i++) t += `Capítulo ${i}\n\n${fixture}\n\n`;
  return t.slice(0, n).replace(/\s+\S*$/, '.');
}
const SHORT =
  'Buenos días. Esta es una narración breve para comprobar el volumen: una frase, otra frase, y una pregunta al ' +
  'final. ¿Se oye igual de fuerte que un pódcast? Debería sonar a menos dieciséis LUFS.';

let dir: string;
let polly: PollyStandIn;
let client: PollyClient;
let cloud: Synthesizer;
let local: Synthesizer;
let files = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loudness-'));
  polly = await startPollyStandIn({ speech: 'canned' });
  client = pollyClient({
    endpoint: polly.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
  });
  cloud = new PollySynthesizer(client);
  local = await createSynthesizer('espeak');
});
afterAll(async () => {
  client.destroy();
  await polly.stop();
  await rm(dir, { recursive: true, force: true });
});

async function narrated(
  engine: Synthesizer,
  voice: Voice,
  text: string,
  fmt: AudioFormat,
  extra: Partial<NarrateOptions> = {},
) {
  const outPath = join(dir, `${files++}.${fmt}`);
  const r = await narrate({ text, voice, fmt, synthesizer: engine, outPath, ...extra });
  return { r, outPath };
}

/** Within the delivery spec: −16 ± 1 LUFS, ≤ −1 dBTP (the meter's figures are in the failure message). */
function expectDeliverable(path: string, lufs = -16, meter: (p: string) => FfmpegLoudness = ffmpegLoudness) {
  const m = meter(path);
  // One object, so a failure shows the file and both figures.
  expect({ file: path.slice(-9), ...m, loudnessOk: Math.abs(m.i - lufs) <= 1, peakOk: m.tp <= -1 }).toEqual({
    file: path.slice(-9),
    i: m.i,
    tp: m.tp,
    lra: m.lra,
    loudnessOk: true,
    peakOk: true,
  });
  return m;
}

const speechVoices = VOICES.map((v) => [v.id, v] as const);

describe('default loudness: -16 LUFS ± 1, ≤ -1 dBTP (ffmpeg loudnorm)', () => {
  it.each(speechVoices)('short text, %s, espeak-ng locally: MP3, WAV and OGG', async (_id, voice) => {
    for (const fmt of ['mp3', 'wav', 'ogg'] as const) {
      const { outPath } = await narrated(local, voice, SHORT, fmt);
      expectDeliverable(outPath, -16, ffmpegLoudnorm);
    }
  });

  it.each(speechVoices)(
    'short text, %s, Polly stand-in (its MP3 levelled, its Ogg decoded): MP3 and WAV',
    async (_id, voice) => {
      for (const fmt of ['mp3', 'wav'] as const) {
        const { outPath } = await narrated(cloud, voice, SHORT, fmt);
        expectDeliverable(outPath);
      }
    },
  );

  it.each(speechVoices)(
    '10,000 characters, %s, both engines (MP3): the file, and consecutive chunks within 2 LU',
    async (_id, voice) => {
      for (const engine of [local, cloud]) {
        const { outPath, r } = await narrated(engine, voice, textOf(10_000), 'mp3', {
          onSegment: () => undefined,
        });
        expectDeliverable(outPath);
        // Each chunk's loudness, from one ebur128 pass over the file (chunks shorter than 3 s are too short to
        // measure on their own).
        const momentary = ffmpegMomentary(outPath);
        const chunks = r.segments.filter((s) => s.duration_s >= 3);
        expect(chunks.length).toBeGreaterThan(3);
        const levels = chunks.map((s) => stretchLoudness(momentary, s.start_s, s.start_s + s.duration_s));
        const steps = levels.slice(1).map((l, k) => Math.abs(l - levels[k]!));
        expect({ engine: engine.engine, levels, ok: Math.max(...steps) <= 2 }).toEqual({
          engine: engine.engine,
          levels,
          ok: true,
        });
      }
    },
  );

  it.each([findVoice('es-MX-Mia')!, findVoice('es-ES-Raul')!].map((v) => [v.id, v] as const))(
    '100,000 characters, %s, Polly stand-in, MP3 (the cloud path: frames levelled, never re-encoded)',
    async (_id, voice) => {
      const { outPath, r } = await narrated(cloud, voice, textOf(100_000), 'mp3', {
        onSegment: () => undefined,
      });
      expect(r.durationS).toBeGreaterThan(3600);
      expectDeliverable(outPath);
    },
  );

  it('100,000 characters, es-ES-Sergio, espeak-ng locally, WAV (exact PCM gain)', async () => {
    const { outPath } = await narrated(local, findVoice('es-ES-Sergio')!, textOf(100_000), 'wav');
    const m = expectDeliverable(outPath);
    expect(Math.abs(m.i + 16)).toBeLessThanOrEqual(0.5); // samples: no 1.5 dB steps
  });
});

describe('the loudness option', () => {
  it('brings a narration to another target (-23 LUFS, EBU R128 broadcast) on both engines', async () => {
    const voice = findVoice('es-MX-Andres')!;
    for (const engine of [local, cloud]) {
      const { outPath } = await narrated(engine, voice, textOf(3000), 'mp3', {
        loudness: { lufs: -23, truePeakDb: -1 },
      });
      expectDeliverable(outPath, -23);
    }
  });

  it('reads the target from the request (speech.loudness), also "off"', async () => {
    const voice = findVoice('es-MX-Mia')!;
    const { outPath } = await narrated(local, voice, SHORT, 'wav', { speech: { loudness: -20 } });
    expectDeliverable(outPath, -20);
  });

  // Negative control: the same jobs without the gain step measure far from the target (espeak ~ -20.5 LUFS), so
  // the assertions above fail when the gain is removed.
  it("control: with loudness off, the engines' own level is outside -16 ± 1 LUFS", async () => {
    const voice = findVoice('es-MX-Mia')!;
    for (const engine of [local, cloud]) {
      const { outPath } = await narrated(engine, voice, textOf(10_000), 'mp3', { loudness: 'off' });
      const m = ffmpegLoudness(outPath);
      expect({ engine: engine.engine, i: m.i, outside: Math.abs(m.i + 16) > 1 }).toMatchObject({
        outside: true,
      });
    }
    const { outPath } = await narrated(local, voice, SHORT, 'wav', { speech: { loudness: 'off' } });
    expect(Math.abs(ffmpegLoudness(outPath).i + 16)).toBeGreaterThan(1);
  });
});
