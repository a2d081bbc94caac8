// Polly's engines (core/voices.ts, adapters/polly.ts, narrate()): GET /voices says which engines each voice has
// (the contract's fields unchanged, `engines` and `default_engine` added); a request's `engine` picks one of them
// or is refused naming the field; the Polly stand-in refuses what Polly refuses (a voice with an engine it lacks,
// speech marks from a generative voice, more than 3,000 billed characters); and a generative narration, which
// gets no speech marks, is read a sentence per call, so its sentence timings are where speech resumes in the audio
// (within 100 ms), checked on the audio ffmpeg decodes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SynthesizeSpeechCommand, type PollyClient } from '@aws-sdk/client-polly';
import { PollySynthesizer } from '../../lambdas/narration/adapters/polly';
import { VOICES, findVoice } from '../../lambdas/narration/core/voices';
import { makeHandler as voicesHandler } from '../../lambdas/narration/handlers/voices';
import { resolveVoice } from '../../lambdas/narration/requests';
import { narrate } from '../../lambdas/narration/use-cases/narrate';
import { InvalidInput } from '../../lambdas/shared/errors';
import { apiEvent, callHandler } from '../helpers/api-event';
import { ffmpegDecode } from '../helpers/loudness-meter';
import { standInClient, startPollyStandIn, type PollyStandIn } from '../helpers/polly-stand-in';

jest.setTimeout(300_000);

let polly: PollyStandIn;
let client: PollyClient;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engines-'));
  polly = await startPollyStandIn();
  client = standInClient(polly, { maxAttempts: 1 });
});
afterAll(async () => {
  client.destroy();
  await polly.stop();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => polly.reset());

describe('GET /voices', () => {
  it('lists every voice with its engines, the default first, keeping the contract fields', async () => {
    const res = await callHandler(voicesHandler(), apiEvent('GET', '/voices'));
    expect(res.statusCode).toBe(200);
    const voices = JSON.parse(res.body) as Record<string, unknown>[];
    expect(voices).toEqual([
      {
        id: 'es-MX-Mia',
        name: 'Mia (Mexico)',
        lang: 'es-MX',
        gender: 'female',
        engines: ['neural', 'generative'],
        default_engine: 'neural',
      },
      {
        id: 'es-MX-Andres',
        name: 'Andrés (Mexico)',
        lang: 'es-MX',
        gender: 'male',
        engines: ['neural', 'generative'],
        default_engine: 'neural',
      },
      {
        id: 'es-ES-Lucia',
        name: 'Lucía (Spain)',
        lang: 'es-ES',
        gender: 'female',
        engines: ['neural', 'generative'],
        default_engine: 'neural',
      },
      {
        id: 'es-ES-Sergio',
        name: 'Sergio (Spain)',
        lang: 'es-ES',
        gender: 'male',
        engines: ['neural', 'generative'],
        default_engine: 'neural',
      },
      {
        id: 'es-ES-Alba',
        name: 'Alba (Spain)',
        lang: 'es-ES',
        gender: 'female',
        engines: ['long-form'],
        default_engine: 'long-form',
      },
      {
        id: 'es-ES-Raul',
        name: 'Raúl (Spain)',
        lang: 'es-ES',
        gender: 'male',
        engines: ['long-form'],
        default_engine: 'long-form',
      },
    ]);
  });
});

describe('engine on a request', () => {
  it('picks one of the voice engines; another is a 422 at body.engine naming the ones it has', () => {
    expect(resolveVoice('es-ES-Lucia', 'generative').polly).toEqual({
      voiceId: 'Lucia',
      engine: 'generative',
    });
    expect(resolveVoice('es-ES-Lucia').polly.engine).toBe('neural');
    expect(resolveVoice('es-ES-Alba').polly).toEqual({ voiceId: 'Alba', engine: 'long-form' });
    let err: unknown;
    try {
      resolveVoice('es-ES-Alba', 'neural');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidInput);
    expect(JSON.stringify(err)).toContain('engine');
    expect((err as Error).message).toMatch(/es-ES-Alba has no neural engine.*long-form/);
  });

  it('every voice and engine of our catalogue is a pair Polly (the stand-in) accepts', async () => {
    const synth = new PollySynthesizer(client);
    for (const v of VOICES)
      for (const engine of v.engines) {
        const r = await synth.synthesizeMp3('Hola.', resolveVoice(v.id, engine));
        expect(r.mp3.length).toBeGreaterThan(0);
      }
  });
});

describe('the Polly stand-in refuses what Polly refuses', () => {
  const send = (input: Record<string, unknown>) =>
    client.send(
      new SynthesizeSpeechCommand({
        Text: 'Hola.',
        OutputFormat: 'mp3',
        VoiceId: 'Mia',
        Engine: 'neural',
        ...input,
      } as never),
    );
  it.each([
    [
      'a long-form-only voice with the neural engine',
      { VoiceId: 'Alba', Engine: 'neural' },
      'EngineNotSupportedException',
    ],
    [
      'a voice without a long-form version',
      { VoiceId: 'Mia', Engine: 'long-form' },
      'EngineNotSupportedException',
    ],
    [
      'speech marks of a generative voice',
      { Engine: 'generative', OutputFormat: 'json', SpeechMarkTypes: ['sentence'] },
      'ValidationException',
    ],
    ['more than 3,000 billed characters', { Text: 'a'.repeat(3001) }, 'TextLengthExceededException'],
    [
      'more than 6,000 characters in all (SSML)',
      { TextType: 'ssml', Text: `<speak>${'<s>a</s>'.repeat(800)}</speak>` },
      'TextLengthExceededException',
    ],
  ])('%s', async (_n, input, name) => {
    await expect(send(input)).rejects.toMatchObject({ name });
  });
  it('and accepts 3,000 billed characters of SSML longer than 3,000 in all', async () => {
    const r = await send({ TextType: 'ssml', Text: `<speak>${'<s>hola hola hola</s>'.repeat(200)}</speak>` });
    expect(r.AudioStream).toBeDefined();
  });
});

describe('a generative narration (no speech marks)', () => {
  it('reads each sentence in its own call: every sentence starts within 100 ms of where speech resumes', async () => {
    const voice = resolveVoice('es-MX-Andres', 'generative');
    const text =
      'Primera frase de la prueba. La segunda frase es algo más larga que la primera. ¿Y la tercera? Una ' +
      'pregunta.\n\nUn párrafo nuevo empieza aquí. Y termina con esta frase final.';
    const outPath = join(dir, 'generative.mp3');
    const r = await narrate({ text, voice, fmt: 'mp3', synthesizer: new PollySynthesizer(client), outPath });
    const audio = polly.seen.filter((s) => s.body.OutputFormat !== 'json');
    expect(polly.seen.filter((s) => s.body.OutputFormat === 'json')).toHaveLength(0); // no marks asked
    expect(audio.every((s) => s.body.Engine === 'generative')).toBe(true);
    expect(audio.length).toBe(r.timings.sentences.length); // one call per sentence
    expect(r.timings.words).toEqual([]);
    const { samples, rate } = ffmpegDecode(outPath);
    /** First sample from `fromS` on that is speech (above -40 dBFS), in seconds. */
    const onset = (fromS: number) => {
      for (let i = Math.max(0, Math.round(fromS * rate)); i < samples.length; i++)
        if (Math.abs(samples[i]!) > 328) return i / rate;
      return Number.NaN;
    };
    for (const s of r.timings.sentences) {
      // Speech resumes after the silence before the sentence: the first loud sample after its start (less 100 ms).
      const resumes = onset(Math.max(0, s.start_s - 0.1));
      expect({
        sentence: text.slice(s.start, s.end),
        start_s: s.start_s,
        resumes,
        ok: Math.abs(resumes - s.start_s) <= 0.1,
      }).toEqual({
        sentence: text.slice(s.start, s.end),
        start_s: s.start_s,
        resumes,
        ok: true,
      });
    }
  });
});

describe('voices', () => {
  it('findVoice knows the long-form voices', () => {
    expect(findVoice('es-es-raul')?.engines).toEqual(['long-form']);
  });
});
