// Lexicons and SSML reach Polly: narrate() with the real Polly adapter and AWS SDK against a stand-in Polly on
// 127.0.0.1 (test/helpers/polly-stand-in.ts, which speaks with espeak-ng, SSML included), checking the SynthesizeSpeech request bodies the SDK really sends.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PollyClient } from '@aws-sdk/client-polly';
import { narrate } from '../../lambdas/narration/use-cases/narrate';
import { findVoice } from '../../lambdas/narration/core/voices';
import { entriesFor, type Lexicon } from '../../lambdas/narration/core/lexicon';
import { PollySynthesizer } from '../../lambdas/narration/adapters/polly';
import { standInClient, startPollyStandIn, type PollyStandIn } from '../helpers/polly-stand-in';

jest.setTimeout(60_000);

let polly: PollyStandIn;
let client: PollyClient;
let dir: string;
/** SynthesizeSpeech bodies for audio (speech-mark calls, OutputFormat json, carry the same Text). */
const audioRequests = () =>
  polly.seen.map((r) => r.body as Record<string, unknown>).filter((b) => b.OutputFormat !== 'json');

beforeAll(async () => {
  polly = await startPollyStandIn();
  client = standInClient(polly);
  dir = await mkdtemp(join(tmpdir(), 'polly-lexicon-'));
});
afterAll(async () => {
  client.destroy();
  await polly.stop();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => polly.reset());

const lexicons: Lexicon[] = [
  {
    name: 'marcas',
    language: '*',
    default: false,
    updated_at: '2026-01-01T00:00:00.000Z',
    entries: [
      { grapheme: 'SQL', alias: 'sicuel', phoneme: 'ˈsi.kwel' },
      { grapheme: 'Wi-Fi', alias: 'guaifai' },
    ],
  },
];

async function run(voiceId: string, text: string, speech: Parameters<typeof narrate>[0]['speech']) {
  await narrate({
    text,
    voice: findVoice(voiceId)!,
    fmt: 'wav',
    synthesizer: new PollySynthesizer(client),
    outPath: join(dir, `${voiceId}.wav`),
    speech,
  });
}

test.each(['es-MX-Mia', 'es-ES-Sergio'])(
  '%s: the lexicon goes to Polly as SSML with IPA phonemes',
  async (id) => {
    const voice = findVoice(id)!;
    await run(id, 'Abre SQL y el Wi-Fi, 3 veces.', { lexicon: entriesFor(lexicons, voice.lang) });
    expect(audioRequests()).toHaveLength(1);
    expect(audioRequests()[0]).toMatchObject({
      TextType: 'ssml',
      Text: '<speak>Abre <phoneme alphabet="ipa" ph="ˈsi.kwel">sicuel</phoneme> y el guaifai, tres veces.</speak>',
      VoiceId: voice.polly.voiceId,
      LanguageCode: voice.lang,
    });
  },
);

test('an alias-only lexicon needs no markup: plain text with the alias', async () => {
  await run('es-MX-Mia', 'El Wi-Fi.', { lexicon: [{ grapheme: 'Wi-Fi', alias: 'guaifai' }] });
  expect(audioRequests()[0]).toMatchObject({ TextType: 'text', Text: 'El guaifai.' });
});

test('SSML reaches Polly in its dialect: break and lang kept, emphasis dropped for a neural voice', async () => {
  await run(
    'es-MX-Mia',
    '<speak>Hola <break time="2s"/><emphasis>muy</emphasis> bien, <lang xml:lang="en-US">okay</lang>.</speak>',
    { textType: 'ssml' },
  );
  expect(audioRequests()[0]).toMatchObject({
    TextType: 'ssml',
    Text: '<speak>Hola <break time="2000ms"/>muy bien, <lang xml:lang="en-US">okay</lang>.</speak>',
  });
});

test('without SSML or lexicon the request is as before', async () => {
  await run('es-MX-Mia', 'Hola, SQL.', undefined);
  expect(audioRequests()[0]).toMatchObject({ TextType: 'text', Text: 'Hola, SQL.' });
});
