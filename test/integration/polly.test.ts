// The Polly adapter with the real AWS SDK against the Polly stand-in on 127.0.0.1 (test/helpers/polly-stand-in.ts:
// checks requests as Polly does and answers real espeak-ng speech, encoded as asked): checks the requests the SDK
// really sends (POST /v1/speech, JSON body: MP3 or Ogg Vorbis at 24 kHz, speech marks as a second json call), the
// audio and the marks' offsets, throttling retries, and narrate() over several 3,000-character chunks: joined output
// at 24,000 Hz per ffprobe (MP3 from Polly's own frames, WAV from its decoded Ogg), with an exact duration.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PollyClient } from '@aws-sdk/client-polly';
import { narrate, PAUSE_S } from '../../lambdas/narration/use-cases/narrate';
import { findVoice } from '../../lambdas/narration/core/voices';
import { parseSpeechMarks, PollySynthesizer } from '../../lambdas/narration/adapters/polly';
import type { Mp3Synthesis, Synthesis } from '../../lambdas/narration/ports';
import { mp3AudioFrames, silentMp3Frames } from '../../lambdas/narration/audio/mp3-join';
import { standInClient, startPollyStandIn, type PollyStandIn } from '../helpers/polly-stand-in';
import { FFPROBE } from '../helpers/runtime';

jest.setTimeout(120_000);

let polly: PollyStandIn;
let client: PollyClient;
let dir: string;

beforeAll(async () => {
  polly = await startPollyStandIn({ latencyMs: 30 });
});
afterAll(async () => {
  await polly.stop();
});
beforeEach(async () => {
  polly.reset();
  polly.setOptions({ latencyMs: 30 });
  client = standInClient(polly);
  dir = await mkdtemp(join(tmpdir(), 'polly-'));
});
afterEach(async () => {
  client.destroy();
  await rm(dir, { recursive: true, force: true });
});

const mia = findVoice('es-MX-Mia')!;
const sergio = findVoice('es-ES-Sergio')!;

function probe(path: string) {
  return JSON.parse(
    execFileSync(
      FFPROBE,
      ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate:format=duration', '-of', 'json', path],
      { encoding: 'utf8' },
    ),
  ) as { streams: { codec_name: string; sample_rate: string }[]; format: { duration: string } };
}

describe('PollySynthesizer', () => {
  it('asks for Ogg Vorbis at 24 kHz and for word + sentence marks, and returns decoded 24 kHz speech', async () => {
    const synth = new PollySynthesizer(client);
    expect(synth).toMatchObject({ engine: 'polly', maxChars: 3000, concurrency: 4 });
    const text = 'Hola, ¿qué tal? El 15 de marzo pagué 1.234,56 €.';
    const out: Synthesis = await synth.synthesize(text, sergio);

    expect(polly.seen).toHaveLength(2);
    for (const req of polly.seen) {
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v1/speech');
      expect(req.headers['content-type']).toMatch(/^application\/json/);
      expect(req.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-1\/polly\/aws4_request/,
      );
    }
    const bodies = polly.seen
      .map((r) => r.body)
      .sort((a, b) => String(a.OutputFormat).localeCompare(String(b.OutputFormat)));
    const common = {
      Engine: 'neural',
      LanguageCode: 'es-ES',
      Text: text,
      TextType: 'text',
      VoiceId: 'Sergio',
    };
    expect(bodies).toEqual([
      { ...common, OutputFormat: 'json', SpeechMarkTypes: ['sentence', 'word'] },
      { ...common, OutputFormat: 'ogg_vorbis', SampleRate: '24000' },
    ]);

    // Real speech: about a second per 12 characters of espeak, at the rate asked for, not silence.
    expect(out.sampleRate).toBe(24000);
    expect(out.samples.length / 24000).toBeGreaterThan(1.5);
    expect(out.samples.some((s) => Math.abs(s) > 1000)).toBe(true);

    // Marks: UTF-16 offsets into the text sent (the stand-in sent UTF-8 byte offsets, as Polly does).
    const sentences = out.marks!.filter((m) => m.type === 'sentence').map((m) => text.slice(m.start, m.end));
    expect(sentences).toEqual(['Hola, ¿qué tal?', 'El 15 de marzo pagué 1.234,56 €.']);
    const words = out.marks!.filter((m) => m.type === 'word').map((m) => text.slice(m.start, m.end));
    expect(words).toEqual(['Hola', 'qué', 'tal', 'El', '15', 'de', 'marzo', 'pagué', '1.234,56']);
    const times = out.marks!.map((m) => m.time_s);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.max(...times)).toBeLessThan(out.samples.length / 24000);
  });

  it("synthesizeMp3 asks for Polly's own MP3 at 24 kHz and marks, and returns its bytes as they came", async () => {
    const text = 'El 15/03 pagué 1.234,56 €. Después volví a casa.';
    const out: Mp3Synthesis = await new PollySynthesizer(client).synthesizeMp3(text, mia);
    const audioCall = polly.seen.find((r) => r.body.OutputFormat !== 'json')!;
    expect(audioCall.body).toEqual({
      Engine: 'neural',
      LanguageCode: 'es-MX',
      Text: text,
      TextType: 'text',
      VoiceId: 'Mia',
      OutputFormat: 'mp3',
      SampleRate: '24000',
    });
    expect(polly.seen.filter((r) => r.body.OutputFormat === 'json')).toHaveLength(1);
    const frames = mp3AudioFrames(out.mp3);
    expect(frames.sampleRate).toBe(24000);
    expect(frames.durationS).toBeGreaterThan(1.5);
    expect(out.marks!.filter((m) => m.type === 'sentence').map((m) => text.slice(m.start, m.end))).toEqual([
      'El 15/03 pagué 1.234,56 €.',
      'Después volví a casa.',
    ]);
    const file = join(dir, 'polly-own.mp3');
    await writeFile(file, out.mp3);
    expect(probe(file).streams[0]).toEqual({ codec_name: 'mp3', sample_rate: '24000' });
  });

  it('without speech marks it makes one call', async () => {
    const out = await new PollySynthesizer(client, { speechMarks: false }).synthesize('Una frase.', mia);
    expect(polly.seen.map((r) => r.body.OutputFormat)).toEqual(['ogg_vorbis']);
    expect(out.marks).toBeUndefined();
  });

  it('retries a ThrottlingException with backoff (adaptive mode, 6 attempts) and then succeeds', async () => {
    polly.setOptions({
      intercept: (n) =>
        n === 0
          ? {
              status: 400,
              headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ThrottlingException' },
              body: Buffer.from('{"message":"Rate exceeded"}'),
            }
          : undefined,
    });
    const out = await new PollySynthesizer(client, { speechMarks: false }).synthesize('Reintento.', mia);
    expect(out.samples.length).toBeGreaterThan(0);
    expect(polly.seen).toHaveLength(2);
    expect(polly.seen[0]!.headers['amz-sdk-request']).toBe('attempt=1; max=6');
    expect(polly.seen[1]!.headers['amz-sdk-request']).toBe('attempt=2; max=6');
    expect(polly.seen[1]!.body).toEqual(polly.seen[0]!.body);
    const strategy = await client.config.retryStrategy();
    expect(strategy.constructor.name).toBe('AdaptiveRetryStrategy');
  });

  it('does not retry a request Polly refuses (TextLengthExceededException)', async () => {
    polly.setOptions({
      intercept: () => ({
        status: 400,
        headers: { 'x-amzn-errortype': 'TextLengthExceededException' },
        body: Buffer.from('{"message":"too long"}'),
      }),
    });
    await expect(
      new PollySynthesizer(client, { speechMarks: false }).synthesize('x', mia),
    ).rejects.toMatchObject({ name: 'TextLengthExceededException' });
    expect(polly.seen).toHaveLength(1);
  });

  it('the stand-in refuses what Polly refuses: 24 kHz PCM, 24 kHz for a standard voice', async () => {
    // Negative controls for the checks above: the stand-in is not a yes-machine.
    const { SynthesizeSpeechCommand } = await import('@aws-sdk/client-polly');
    const base = { Text: 'Hola.', VoiceId: 'Mia' as const, LanguageCode: 'es-MX' as const };
    await expect(
      client.send(
        new SynthesizeSpeechCommand({ ...base, OutputFormat: 'pcm', SampleRate: '24000', Engine: 'neural' }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(
      client.send(
        new SynthesizeSpeechCommand({
          ...base,
          OutputFormat: 'ogg_vorbis',
          SampleRate: '24000',
          Engine: 'standard',
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('maps speech-mark byte offsets to UTF-16 offsets, also past astral characters, and refuses torn offsets', () => {
    const text = 'Ñu 😀 año.';
    const line = (type: string, s: string, time: number) => {
      const start = Buffer.byteLength(text.slice(0, text.indexOf(s)));
      return JSON.stringify({ time, type, start, end: start + Buffer.byteLength(s), value: s });
    };
    const marks = parseSpeechMarks(
      [
        line('word', 'año', 900),
        line('sentence', text, 0),
        line('word', 'Ñu', 0),
        '{"time":5,"type":"viseme","value":"a"}',
      ].join('\n'),
      text,
    );
    expect(marks.map((m) => [m.type, text.slice(m.start, m.end), m.time_s])).toEqual([
      ['sentence', text, 0],
      ['word', 'Ñu', 0],
      ['word', 'año', 0.9],
    ]);
    expect(() => parseSpeechMarks('{"time":0,"type":"word","start":1,"end":2}', 'Ñu')).toThrow(/boundary/);
  });
});

describe('narrate() with Polly', () => {
  // Paragraphs of ~900 characters: chunks of ≤ 3,000 → several Polly calls.
  const paragraph =
    'La narración con Polly divide el texto en partes de hasta tres mil caracteres, siempre en un final de frase. '.repeat(
      8,
    );
  const text = Array.from({ length: 4 }, () => paragraph.trim()).join('\n\n');

  it.each(['mp3', 'wav'] as const)(
    'joins the chunks in order into one 24 kHz %s file (ffprobe), at most 4 chunks (8 calls) at once',
    async (fmt) => {
      const synth = new PollySynthesizer(client);
      const parts: Synthesis[] = [];
      const mp3Parts: Mp3Synthesis[] = [];
      const spy = {
        engine: synth.engine,
        maxChars: synth.maxChars,
        concurrency: synth.concurrency,
        synthesize: async (t: string, v: typeof mia) => {
          const r = await synth.synthesize(t, v);
          parts.push(r);
          return r;
        },
        synthesizeMp3: async (t: string, v: typeof mia) => {
          const r = await synth.synthesizeMp3(t, v);
          mp3Parts.push(r);
          return r;
        },
      };
      const outPath = join(dir, `polly.${fmt}`);
      const result = await narrate({ text, voice: mia, fmt, synthesizer: spy, outPath });

      // MP3 is made of Polly's own MP3 (never decoded); WAV of its Ogg Vorbis, decoded.
      const asked = fmt === 'mp3' ? 'mp3' : 'ogg_vorbis';
      expect(polly.seen.filter((s) => !['json', asked].includes(String(s.body.OutputFormat)))).toEqual([]);
      expect(fmt === 'mp3' ? parts : mp3Parts).toEqual([]);
      const audioCalls = polly.seen.filter((s) => s.body.OutputFormat === asked);
      const texts = audioCalls.map((s) => String(s.body.Text));
      expect(texts.length).toBeGreaterThanOrEqual(2);
      for (const s of audioCalls) expect(s.body.SampleRate).toBe('24000');
      // One speech-marks call per chunk, for the same texts (compared as sets: on a loaded machine the SDK may send
      // a timed-out call again, and the stand-in sees both).
      const distinct = (xs: string[]) => [...new Set(xs)].sort();
      const marked = polly.seen.filter((s) => s.body.OutputFormat === 'json').map((s) => String(s.body.Text));
      expect(distinct(marked)).toEqual(distinct(texts));
      for (const t of texts) expect(t.length).toBeLessThanOrEqual(3000);
      expect(polly.maxInFlight).toBeGreaterThan(1);
      expect(polly.maxInFlight).toBeLessThanOrEqual(8);

      const p = probe(outPath);
      expect(p.streams[0]).toEqual({ codec_name: fmt === 'wav' ? 'pcm_s16le' : 'mp3', sample_rate: '24000' });
      // Exact. WAV: the decoded samples of every chunk plus the pauses between them. MP3: the frames of every
      // Polly answer plus the silence frames of the pauses between them.
      const expectedS =
        fmt === 'wav'
          ? (parts.reduce((n, r) => n + r.samples.length, 0) + (parts.length - 1) * 24000 * PAUSE_S) / 24000
          : mp3Parts.reduce((n, r) => n + mp3AudioFrames(r.mp3).durationS, 0) +
            (mp3Parts.length - 1) *
              silentMp3Frames(mp3AudioFrames(mp3Parts[0]!.mp3).header, PAUSE_S).durationS;
      expect(result.durationS).toBeCloseTo(expectedS, 6);
      expect(Math.abs(result.durationS - Number(p.format.duration)) / result.durationS).toBeLessThan(0.01);
      // Where the audio changes chunk (a segment boundary: chunks end at sentences), a sentence starts, within
      // 100 ms (the encoder delay before the chunk's speech is heard).
      if (fmt === 'mp3') {
        expect(result.segments.length).toBe(mp3Parts.length);
        for (const seg of result.segments.slice(1)) {
          const nearest = Math.min(...result.timings.sentences.map((t) => Math.abs(t.start_s - seg.start_s)));
          expect(nearest).toBeLessThan(0.1);
        }
      }
    },
  );
});
