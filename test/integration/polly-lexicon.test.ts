// Lexicons and SSML reach Polly: narrate() with the real Polly adapter and AWS SDK against a stand-in Polly on
// 127.0.0.1 (HTTP/2, as the SDK speaks), checking the SynthesizeSpeech request bodies the SDK really sends.
import {
  createServer,
  type Http2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type ServerHttp2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PollyClient } from '@aws-sdk/client-polly';
import { narrate } from '../../lambdas/narration/use-cases/narrate';
import { findVoice } from '../../lambdas/narration/core/voices';
import { entriesFor, type Lexicon } from '../../lambdas/narration/core/lexicon';
import { PollySynthesizer, pollyClient } from '../../lambdas/narration/adapters/polly';

let server: Http2Server;
const sessions = new Set<ServerHttp2Session>();
let seen: Record<string, unknown>[] = [];
let client: PollyClient;
let dir: string;

beforeAll(async () => {
  server = createServer((req: Http2ServerRequest, res: Http2ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      seen.push(JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>);
      const pcm = Buffer.from(new Int16Array(1600).buffer);
      res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': String(pcm.length) });
      res.end(pcm);
    });
  });
  server.on('session', (s: ServerHttp2Session) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = pollyClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
  });
  dir = await mkdtemp(join(tmpdir(), 'polly-lexicon-'));
});
afterAll(async () => {
  client.destroy();
  for (const s of sessions) s.destroy();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  seen = [];
});

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
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      TextType: 'ssml',
      Text: '<speak>Abre <phoneme alphabet="ipa" ph="ˈsi.kwel">sicuel</phoneme> y el guaifai, tres veces.</speak>',
      VoiceId: voice.polly.voiceId,
      LanguageCode: voice.lang,
    });
  },
);

test('an alias-only lexicon needs no markup: plain text with the alias', async () => {
  await run('es-MX-Mia', 'El Wi-Fi.', { lexicon: [{ grapheme: 'Wi-Fi', alias: 'guaifai' }] });
  expect(seen[0]).toMatchObject({ TextType: 'text', Text: 'El guaifai.' });
});

test('SSML reaches Polly in its dialect: break and lang kept, emphasis dropped for a neural voice', async () => {
  await run(
    'es-MX-Mia',
    '<speak>Hola <break time="2s"/><emphasis>muy</emphasis> bien, <lang xml:lang="en-US">okay</lang>.</speak>',
    { textType: 'ssml' },
  );
  expect(seen[0]).toMatchObject({
    TextType: 'ssml',
    Text: '<speak>Hola <break time="2000ms"/>muy bien, <lang xml:lang="en-US">okay</lang>.</speak>',
  });
});

test('without SSML or lexicon the request is as before', async () => {
  await run('es-MX-Mia', 'Hola, SQL.', undefined);
  expect(seen[0]).toMatchObject({ TextType: 'text', Text: 'Hola, SQL.' });
});
