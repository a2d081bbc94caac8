// The Polly adapter with the real AWS SDK against a stand-in Polly on 127.0.0.1: checks the request the SDK really
// sends (POST /v1/speech, JSON body), answers raw PCM, throttles to prove the adaptive retries, and runs narrate()
// over several 3,000-character chunks to check concurrency and the joined output.
import { execFileSync } from 'node:child_process';
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
import { narrate, PAUSE_S } from '../../lambdas/narration/use-cases/narrate';
import { findVoice } from '../../lambdas/narration/core/voices';
import { PollySynthesizer, pollyClient } from '../../lambdas/narration/adapters/polly';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const FFPROBE: string = require('@ffprobe-installer/ffprobe').path;

interface Seen {
  method: string;
  url: string;
  headers: Http2ServerRequest['headers'];
  body: Record<string, unknown>;
}

/** What the stand-in does with the n-th request (0-based): answer PCM, or an error. */
type Behaviour = (
  n: number,
  body: Record<string, unknown>,
) => { status: number; headers?: Record<string, string>; body: Buffer };

let server: Http2Server;
const sessions = new Set<ServerHttp2Session>();
let endpoint: string;
let seen: Seen[] = [];
let behaviour: Behaviour;
let inFlight = 0;
let maxInFlight = 0;

/** One sample per character of text, all equal to the text length mod 1000: checkable after joining. */
function pcmFor(text: string): Buffer {
  const samples = new Int16Array(text.length * 10).fill(text.length % 1000);
  return Buffer.from(samples.buffer);
}

beforeAll(async () => {
  // The Polly client talks HTTP/2 (cleartext here, TLS in AWS), so the stand-in is an HTTP/2 server.
  server = createServer((req: Http2ServerRequest, res: Http2ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
      const n = seen.length;
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // A little latency so concurrent calls overlap.
      setTimeout(() => {
        inFlight--;
        const r = behaviour(n, body);
        res.writeHead(r.status, { 'content-length': String(r.body.length), ...r.headers });
        res.end(r.body);
      }, 30);
    });
  });
  server.on('session', (s: ServerHttp2Session) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sessions) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

let client: PollyClient;
let dir: string;
beforeEach(async () => {
  seen = [];
  inFlight = maxInFlight = 0;
  behaviour = (_n, body) => ({
    status: 200,
    headers: { 'content-type': 'audio/pcm', 'x-amzn-requestcharacters': String(String(body.Text).length) },
    body: pcmFor(String(body.Text)),
  });
  client = pollyClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
  });
  dir = await mkdtemp(join(tmpdir(), 'polly-'));
});
afterEach(async () => {
  client.destroy();
  await rm(dir, { recursive: true, force: true });
});

const mia = findVoice('es-MX-Mia')!;
const sergio = findVoice('es-ES-Sergio')!;

describe('PollySynthesizer', () => {
  it('sends SynthesizeSpeech as the Polly API defines it and returns the PCM', async () => {
    const polly = new PollySynthesizer(client);
    expect(polly).toMatchObject({ engine: 'polly', maxChars: 3000, concurrency: 6 });
    const pcm = await polly.synthesize('Hola, ¿qué tal?', sergio);

    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/speech');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-1\/polly\/aws4_request/,
    );
    expect(req.body).toEqual({
      Engine: 'neural',
      LanguageCode: 'es-ES',
      OutputFormat: 'pcm',
      SampleRate: '16000',
      Text: 'Hola, ¿qué tal?',
      TextType: 'text',
      VoiceId: 'Sergio',
    });
    expect(pcm.sampleRate).toBe(16000);
    expect(Array.from(pcm.samples)).toEqual(new Array(150).fill(15));
  });

  it('retries a ThrottlingException with backoff (adaptive mode, 6 attempts) and then succeeds', async () => {
    behaviour = (n, body): ReturnType<Behaviour> =>
      n === 0
        ? {
            status: 400,
            headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ThrottlingException' },
            body: Buffer.from('{"message":"Rate exceeded"}'),
          }
        : { status: 200, headers: { 'content-type': 'audio/pcm' }, body: pcmFor(String(body.Text)) };
    const pcm = await new PollySynthesizer(client).synthesize('Reintento.', mia);
    expect(pcm.samples.length).toBe(100);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.headers['amz-sdk-request']).toBe('attempt=1; max=6');
    expect(seen[1]!.headers['amz-sdk-request']).toBe('attempt=2; max=6');
    expect(seen[1]!.body).toEqual(seen[0]!.body);
    // Adaptive mode: client-side rate limiting on top of the backoff.
    const strategy = await client.config.retryStrategy();
    expect(strategy.constructor.name).toBe('AdaptiveRetryStrategy');
  });

  it('does not retry a request Polly refuses (TextLengthExceededException)', async () => {
    behaviour = () => ({
      status: 400,
      headers: { 'x-amzn-errortype': 'TextLengthExceededException' },
      body: Buffer.from('{"message":"too long"}'),
    });
    await expect(new PollySynthesizer(client).synthesize('x', mia)).rejects.toMatchObject({
      name: 'TextLengthExceededException',
    });
    expect(seen).toHaveLength(1);
  });
});

describe('narrate() with Polly', () => {
  // Paragraphs of ~900 characters: chunks of ≤ 3,000 → several Polly calls.
  const paragraph =
    'La narración con Polly divide el texto en partes de hasta tres mil caracteres, siempre en un final de frase. '.repeat(
      8,
    );
  const text = Array.from({ length: 12 }, () => paragraph.trim()).join('\n\n');

  it.each(['wav', 'mp3'] as const)(
    'joins the chunks in order into one 16 kHz %s file, at most 6 calls at once',
    async (fmt) => {
      const polly = new PollySynthesizer(client);
      const outPath = join(dir, `polly.${fmt}`);
      const result = await narrate({ text, voice: mia, fmt, synthesizer: polly, outPath });

      const texts = seen.map((s) => String(s.body.Text));
      expect(texts.length).toBeGreaterThanOrEqual(4);
      for (const t of texts) expect(t.length).toBeLessThanOrEqual(3000);
      expect(texts.join(' ').replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' '));
      expect(maxInFlight).toBeGreaterThan(1);
      expect(maxInFlight).toBeLessThanOrEqual(6);

      const expectedS =
        (texts.reduce((n, t) => n + t.length * 10, 0) + (texts.length - 1) * 16000 * PAUSE_S) / 16000;
      const probe = JSON.parse(
        execFileSync(
          FFPROBE,
          [
            '-v',
            'error',
            '-show_entries',
            'stream=codec_name,sample_rate:format=duration',
            '-of',
            'json',
            outPath,
          ],
          { encoding: 'utf8' },
        ),
      ) as { streams: { codec_name: string; sample_rate: string }[]; format: { duration: string } };
      expect(probe.streams[0]).toEqual({
        codec_name: fmt === 'wav' ? 'pcm_s16le' : 'mp3',
        sample_rate: '16000',
      });
      if (fmt === 'wav') expect(result.durationS).toBeCloseTo(expectedS, 6);
      // MP3 adds the encoder delay and pads the last frame: a few frames of 36 ms at most.
      else expect(result.durationS - expectedS).toBeGreaterThanOrEqual(0);
      expect(Math.abs(result.durationS - expectedS)).toBeLessThan(0.2);
      expect(Math.abs(result.durationS - Number(probe.format.duration)) / result.durationS).toBeLessThan(
        0.02,
      );
    },
  );
});
