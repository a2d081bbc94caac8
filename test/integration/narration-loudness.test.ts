// Loudness of what narrate() delivers, measured by an independent meter (ffmpeg's ebur128 filter, the meter its
// loudnorm filter reports with: EBU R128 integrated loudness and true peak, as podcast platforms check a file):
// −16 LUFS ± 1 and ≤ −1 dBTP by default, for every voice, in every format; every chunk on its own on the target and
// consecutive chunks within 2 LU; another target or none at all on request. Two engines: espeak-ng locally (PCM:
// gain + limiter, then our encoders), and the real Polly adapter against the Polly stand-in, whose MP3 frames are
// levelled losslessly (global_gain) rather than re-encoded. The control runs the same jobs with the gain off: the
// engines' own level is far from the target, so these assertions fail without the gain step.
//
// Every voice: a short text on both engines' MP3 paths (espeak-ng's samples; the speaking stand-in's own speech for
// that voice, its frames levelled); WAV and OGG on the peakiest voice. Long jobs: espeak-ng es-ES-Raul 4,660
// characters, the stand-in's canned speech 10,000 (neural es-MX) and 6,500 (long-form es-ES), every chunk checked on
// its own, not only the file. Raul's text (fixtures/texto-pico-mp3.txt) ends in a 2,000-character chunk that is, word
// for word, chunk 8 of textOf(100,000): LAME moves one of its peaks from −2.7 dBTP in the PCM to −0.2 in the MP3 (the
// encoder's state after a minute of speech: a shorter excerpt of the same samples does not), which is why a
// 100,000-character espeak-ng MP3 peaked at −0.2 dBTP; our encoded frames are now limited on their decoded output
// (audio/mp3-level.ts limitMp3Frames), and a control shows the chunk's MP3 without that step over the ceiling.
// 100,000 characters, by construction rather than by a 100-minute file per voice (each would take minutes here):
// every chunk is brought to the target on its own, and chunks stop growing at the engine's limit within the first
// ~3,000 characters, so a 100,000-character job is the long jobs' kinds of chunks, more of them (on the cloud path,
// all but the first ~30 s levelled with the voice's measured level, as most of the 10,000 characters are). A test
// of the first block checks that the 100,000-character plan has no chunk the long jobs lack; the bench
// (narration-loudness-voices) measures every voice's whole 100,000-character file.
// Integrated loudness of the joined file is a power mean over the chunks' gated blocks, so it stays within the
// chunks' range; its true peak is the largest chunk's. The bench (bench/narration-long.bench.ts) measures a whole
// 100,000-character cloud job with ffmpeg.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PollyClient } from '@aws-sdk/client-polly';
import { PollySynthesizer } from '../../lambdas/narration/adapters/polly';
import { VOICES, findVoice, type Voice } from '../../lambdas/narration/core/voices';
import type { AudioFormat } from '../../lambdas/narration/core/formats';
import type { Segment, Synthesizer } from '../../lambdas/narration/ports';
import { planReading } from '../../lambdas/narration/core/reading';
import { encodeMp3Segment } from '../../lambdas/narration/audio/encode';
import { DEFAULT_LOUDNESS, fadeEdges, normalizePcm } from '../../lambdas/narration/audio/loudness';
import { limitMp3Frames } from '../../lambdas/narration/audio/mp3-level';
import { createSynthesizer } from '../../lambdas/narration/speech';
import { detectHeadings } from '../../lambdas/narration/core/preview';
import { narrate, type NarrateOptions } from '../../lambdas/narration/use-cases/narrate';
import { utf16Offset } from '../../lambdas/narration/use-cases/narration-timings';
import {
  ffmpegLoudness,
  ffmpegLoudnorm,
  ffmpegEbur128,
  stretchLoudness,
  type FfmpegLoudness,
} from '../helpers/loudness-meter';
import { standInClient, startPollyStandIn, textOf, type PollyStandIn } from '../helpers/polly-stand-in';

jest.setTimeout(600_000);

const SHORT =
  'Buenos días. Esta es una narración breve para comprobar el volumen: una frase, otra frase, y una pregunta al ' +
  'final. ¿Se oye igual de fuerte que un pódcast? Debería sonar a menos dieciséis LUFS.';

let dir: string;
let polly: PollyStandIn;
let speakingPolly: PollyStandIn;
let client: PollyClient;
let speakingClient: PollyClient;
let cloud: Synthesizer;
let speaking: Synthesizer;
let local: Synthesizer;
let files = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loudness-'));
  // Our adapter sends at most 3,000 characters a request; every narration of this stand-in is MP3.
  polly = await startPollyStandIn({ speech: 'canned', cannedChars: 3000, cannedFormats: ['mp3'] });
  client = standInClient(polly);
  cloud = new PollySynthesizer(client);
  speakingPolly = await startPollyStandIn();
  speakingClient = standInClient(speakingPolly);
  speaking = new PollySynthesizer(speakingClient);
  local = await createSynthesizer('espeak');
});
afterAll(async () => {
  client.destroy();
  speakingClient.destroy();
  await Promise.all([polly.stop(), speakingPolly.stop()]);
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

/**
 * es-ES-Raul's text whose last chunk (2,000 characters) LAME encodes with a peak over −1 dBTP unless the frames
 * are limited: the fixture's first 29 sentences, only there so the chunks grow to the engine's largest, then the
 * sentences of chunk 8 of textOf(100,000).
 */
const PEAK_TEXT = readFileSync(join(__dirname, '../fixtures/texto-pico-mp3.txt'), 'utf8');

/** A text's chunks as narrate() plans them (headings detected). */
const chunksOf = (text: string, voice: Voice, engine: Synthesizer) =>
  planReading(text, voice, {
    engine: engine.engine,
    maxChars: engine.maxChars,
    headings: detectHeadings(text).map((h) => utf16Offset(text, h.offset)),
  }).chunks;

describe('default loudness: -16 LUFS ± 1, ≤ -1 dBTP (ffmpeg ebur128)', () => {
  // Each voice's own speech on both engines' MP3 paths: espeak-ng's samples (gain + limiter, then LAME) and the
  // speaking stand-in's MP3 frames levelled losslessly (global_gain; es-ES-Sergio's speech peaks 21.5 dB above
  // its loudness, the most limiting). The canned stand-in's speech is one voice's whatever the voice asked.
  it.each(speechVoices)(
    'short text, %s: espeak-ng MP3; Polly stand-in MP3 (its frames)',
    async (_id, voice) => {
      for (const engine of [local, speaking]) {
        const { outPath } = await narrated(engine, voice, SHORT, 'mp3');
        expectDeliverable(outPath);
      }
    },
  );

  // The peakiest voice's own speech, long enough for several chunks (a heading, then paragraphs): its frames need
  // the limiter on most granules (21.5 dB peak-to-loudness against the 15 dB that −16 LUFS under −1 dBTP leaves),
  // and the chunks after its first ~30 s are levelled with the level measured on those (levelMp3FramesAs).
  it('1,500 characters with headings, es-ES-Sergio, Polly stand-in MP3 (its own speech, its frames)', async () => {
    const { outPath, r } = await narrated(speaking, findVoice('es-ES-Sergio')!, textOf(1500), 'mp3');
    expect(r.segments.length).toBeGreaterThan(3);
    expectDeliverable(outPath);
  });

  // The other formats differ only in the encoder after the same gain and limiter (their peak margins): checked on
  // the peakiest voice; the stand-in's WAV is its Ogg decoded (the PCM path for Polly).
  it('short text, es-ES-Sergio: espeak-ng WAV and OGG; Polly stand-in WAV (its Ogg decoded)', async () => {
    const voice = findVoice('es-ES-Sergio')!;
    for (const [engine, fmt] of [
      [local, 'wav'],
      [local, 'ogg'],
      [speaking, 'wav'],
    ] as const) {
      const { outPath } = await narrated(engine, voice, SHORT, fmt);
      // Here as loudnorm prints it too (what podcast tools print; the same meter, resampled to 192 kHz first).
      expectDeliverable(outPath, -16, ffmpegLoudnorm);
    }
  });

  /** Every chunk of the file on its own (from one ebur128 pass) and the steps between neighbours. */
  function expectChunksOnTarget(
    momentary: { t: number; m: number }[],
    segments: Segment[],
    tolerance: number,
  ) {
    // Chunks shorter than 3 s are too short to measure on their own.
    const chunks = segments.filter((s) => s.duration_s >= 3);
    expect(chunks.length).toBeGreaterThan(3);
    const levels = chunks.map((s) => stretchLoudness(momentary, s.start_s, s.start_s + s.duration_s));
    const steps = levels.slice(1).map((l, k) => Math.abs(l - levels[k]!));
    expect({
      levels,
      onTarget: levels.every((l) => Math.abs(l + 16) <= tolerance),
      neighbours: Math.max(...steps) <= 2,
    }).toEqual({ levels, onTarget: true, neighbours: true });
  }

  // Long jobs: one per engine (each voice's own speech is levelled by the short-text tests above; what a long job
  // adds is many chunks, each brought to the target, and their neighbours). espeak-ng: es-ES-Raul's text whose
  // chunks grow to the engine's largest (2,000 characters), the last one LAME's peak (see the header). The Polly
  // stand-in's canned speech (one voice's whatever the voice asked): 10,000 characters neural and 6,500 long-form,
  // so both of Polly's paths with marks are run; after its first ~30 s a voice's chunks get the level measured on
  // them (audio/mp3-level.ts VoiceLevels), so most chunks here are levelled as a long job's are.
  const CLOUD = "Polly's frames levelled, never re-encoded";
  const longJobs = [
    {
      engine: 'espeak-ng',
      id: 'es-ES-Raul',
      chars: PEAK_TEXT.length,
      text: () => PEAK_TEXT,
      synth: () => local,
      tolerance: 1,
      path: 'gain + limiter, LAME, its frames limited',
    },
    // global_gain moves in 1.5 dB steps: a chunk lands within half a step of the target, plus the meter's spread.
    {
      engine: 'Polly stand-in (neural)',
      id: 'es-MX-Mia',
      chars: 10_000,
      text: () => textOf(10_000),
      synth: () => cloud,
      tolerance: 1.5,
      path: CLOUD,
    },
    {
      engine: 'Polly stand-in (long-form)',
      id: 'es-ES-Alba',
      chars: 6_500,
      text: () => textOf(6_500),
      synth: () => cloud,
      tolerance: 1.5,
      path: CLOUD,
    },
  ];
  it.each(longJobs)(
    '$chars characters, $engine, $id, MP3 ($path): the file and every chunk',
    async ({ id, text, synth, tolerance }) => {
      const { outPath, r } = await narrated(synth(), findVoice(id)!, text(), 'mp3');
      // One ebur128 pass: the file's figures and every chunk's.
      const { summary, momentary } = ffmpegEbur128(outPath);
      expectDeliverable(outPath, -16, () => summary);
      expectChunksOnTarget(momentary, r.segments, tolerance);
    },
  );

  it('100,000 characters are made of the chunks the long jobs above are made of (each engine)', () => {
    // espeak-ng: Raul's long job ends in one of the engine's largest chunks, word for word one of the
    // 100,000-character job's (the one whose MP3 peaked at −0.2 dBTP before its frames were limited).
    const raul = findVoice('es-ES-Raul')!;
    const peakChunk = chunksOf(PEAK_TEXT, raul, local).at(-1)!.text;
    const hundredLocal = chunksOf(textOf(100_000), raul, local).map((c) => c.text);
    expect(peakChunk.length).toBeGreaterThan(local.maxChars * 0.8);
    expect(hundredLocal.indexOf(peakChunk)).toBeGreaterThan(0);
    expect(Math.max(...hundredLocal.map((t) => t.length))).toBeLessThanOrEqual(local.maxChars);
    // The stand-in: the long job reaches the engine's largest chunks; the longer job's chunks start the same way
    // and are never larger.
    const voice = findVoice('es-ES-Sergio')!;
    const lengths = (n: number) => chunksOf(textOf(n), voice, cloud).map((c) => c.text.length);
    const long = lengths(10_000);
    const hundred = lengths(100_000);
    expect(Math.max(...long)).toBeGreaterThan(cloud.maxChars * 0.8);
    expect(hundred.slice(0, 4)).toEqual(long.slice(0, 4));
    expect(Math.max(...hundred)).toBeLessThanOrEqual(cloud.maxChars);
    expect(hundred.length).toBeGreaterThanOrEqual(Math.floor(100_000 / cloud.maxChars));
  });

  // Control for the long espeak-ng job: its last chunk made as narrate() makes it (gain + PCM limiter, edges,
  // LAME), without limiting the encoded frames, peaks over −1 dBTP; limitMp3Frames brings the same frames under it.
  it("control: Raul's last chunk peaks over -1 dBTP when its MP3 frames are not limited", async () => {
    const voice = findVoice('es-ES-Raul')!;
    const chunk = chunksOf(PEAK_TEXT, voice, local).at(-1)!;
    const { samples, sampleRate } = await local.synthesize(
      chunk.text,
      voice,
      chunk.ssml ? { ssml: true } : undefined,
    );
    const pcm = fadeEdges(normalizePcm(samples, sampleRate, DEFAULT_LOUDNESS, 'mp3').samples, sampleRate);
    const frames = (await encodeMp3Segment(pcm, sampleRate)).bytes;
    const peakOf = async (bytes: Uint8Array) => {
      const path = join(dir, `${files++}.mp3`);
      await writeFile(path, bytes);
      return ffmpegLoudness(path).tp;
    };
    const unlimited = await peakOf(frames);
    const granules = await limitMp3Frames(frames, DEFAULT_LOUDNESS);
    const limited = await peakOf(frames);
    expect({
      unlimited,
      over: unlimited > -1,
      granules,
      lowered: granules > 0,
      under: limited <= -1,
    }).toEqual({
      unlimited,
      over: true,
      granules,
      lowered: true,
      under: true,
    });
  });
});

describe('the loudness option', () => {
  /** Each engine with a text: espeak-ng a short one, the stand-in's canned speech 3,000 characters (cheap). */
  const engineTexts = () =>
    [
      [local, SHORT],
      [cloud, textOf(3000)],
    ] as const;

  it('brings a narration to another target (-23 LUFS, EBU R128 broadcast) on both engines', async () => {
    const voice = findVoice('es-MX-Andres')!;
    // The stand-in's 3,000 characters: after the chunks its level is measured on, the rest get that gain written
    // into their frames without being decoded, as it leaves the voice's peaks under the ceiling.
    for (const [engine, text] of engineTexts()) {
      const { outPath } = await narrated(engine, voice, text, 'mp3', {
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
    for (const [engine, text] of engineTexts()) {
      const { outPath } = await narrated(engine, voice, text, 'mp3', { loudness: 'off' });
      const m = ffmpegLoudness(outPath);
      expect({ engine: engine.engine, i: m.i, outside: Math.abs(m.i + 16) > 1 }).toMatchObject({
        outside: true,
      });
    }
    const { outPath } = await narrated(local, voice, SHORT, 'wav', { speech: { loudness: 'off' } });
    expect(Math.abs(ffmpegLoudness(outPath).i + 16)).toBeGreaterThan(1);
  });
});
