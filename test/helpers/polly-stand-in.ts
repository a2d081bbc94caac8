// A stand-in for Amazon Polly's SynthesizeSpeech on loopback (HTTP/2 cleartext, as the Polly client speaks HTTP/2),
// for tests and benchmarks that run the real Polly adapter and AWS SDK (lambdas/narration/adapters/polly.ts). It
// checks requests the way Polly does (POST /v1/speech, JSON body, a known voice, the sample rates each format and
// engine allows: PCM 8/16 kHz, MP3/OGG up to 24 kHz for neural voices and 22.05 kHz for standard ones, speech marks
// only as OutputFormat json) and answers with real audio:
//  - speech: espeak-ng (the program, else its WASM build) reads each sentence of the text, the sentences are joined,
//    resampled to the rate asked for and encoded with the project's own encoders (Ogg Vorbis, CBR MP3) or sent raw;
//  - speech marks (`sentence`, `word`): JSON lines {time, type, start, end, value} with UTF-8 byte offsets into the
//    text, as Polly sends them. STAND-IN TIMES: a sentence's time is exactly where its espeak speech starts in the
//    audio the same text gets; a word's time is interpolated by characters inside its sentence (espeak gives no word
//    timings).
// Options simulate the cloud: per-request latency and a transactions-per-second limit answered with Polly's
// ThrottlingException; `intercept` lets a test answer a given request itself (errors, malformed replies), `hold`
// keeps one waiting until the test lets it go.
// `speech: 'canned'` (benchmarks): instead of speaking each request, the stand-in cuts speech it made and encoded
// (Ogg Vorbis and CBR MP3) once at start-up to the length the request's text takes (espeak's own pace, ~15 characters a second); marks are
// spread over it by characters. Real Polly synthesizes on AWS's machines: in a benchmark of our pipeline the
// stand-in's espeak and Vorbis encoding would otherwise compete with the code under test for the same cores.
// Request checks, latency, TPS limit and throttling stay the same.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import {
  createServer,
  type Http2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type ServerHttp2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PollyClient, PollyClientConfig } from '@aws-sdk/client-polly';
import { pollyClient } from '../../lambdas/narration/adapters/polly';
import { encodeToFile } from '../../lambdas/narration/audio/encode';
import { VOICES, type Voice } from '../../lambdas/narration/core/voices';
import type { Synthesizer } from '../../lambdas/narration/ports';
import { createSynthesizer } from '../../lambdas/narration/speech';
import { cannedSpeech, cutMp3, cutOgg, makeCanned, resample, sentencesOf, type Spoken } from './polly-audio';

export interface PollyRequestSeen {
  method: string;
  url: string;
  headers: Http2ServerRequest['headers'];
  body: Record<string, unknown>;
  at: number;
}

export interface PollyReply {
  status: number;
  headers?: Record<string, string>;
  body: Buffer;
}

export interface PollyStandInOptions {
  /** Added to every answer (ms), to overlap concurrent calls or mimic the cloud. */
  latencyMs?: number;
  /** Requests allowed per rolling second; more get 400 ThrottlingException (Polly neural: 8). */
  tps?: number;
  /** Answer request n (0-based) yourself; return undefined to let the stand-in answer. */
  intercept?: (n: number, body: Record<string, unknown>) => PollyReply | undefined;
  /** Hold request n until the promise returned settles (undefined: answer as usual), e.g. to keep a job running. */
  hold?: (n: number, body: Record<string, unknown>) => Promise<void> | undefined;
  /** 'espeak' (default): speak every request; 'canned': cut speech encoded once at start (see the header). */
  speech?: 'espeak' | 'canned';
  /**
   * Characters of canned speech made at start (default: the most Polly accepts, 6,000): a test whose requests are
   * shorter makes less (our adapter sends at most 3,000).
   */
  cannedChars?: number;
  /**
   * Formats of the canned speech encoded at start, at the neural voices' rate (default both, so a benchmark times
   * no request's encoding): a test whose narrations are all MP3 skips the Vorbis encode. Any other format or rate
   * is encoded at its first request.
   */
  cannedFormats?: ('ogg' | 'mp3')[];
}

export interface PollyStandIn {
  endpoint: string;
  readonly seen: PollyRequestSeen[];
  /** Most requests being answered at once. */
  readonly maxInFlight: number;
  readonly throttled: number;
  reset(): void;
  setOptions(opts: PollyStandInOptions): void;
  stop(): Promise<void>;
}

/**
 * Polly's Spanish voices and the engines each is offered with (Polly voice list, 2026), written out here rather
 * than read from our catalogue, so a wrong voice/engine pair in our code is refused as Polly would refuse it.
 */
const POLLY_VOICES: Record<string, { lang: string; engines: string[] }> = {
  Mia: { lang: 'es-MX', engines: ['standard', 'neural', 'generative'] },
  Andres: { lang: 'es-MX', engines: ['neural', 'generative'] },
  Lucia: { lang: 'es-ES', engines: ['standard', 'neural', 'generative'] },
  Sergio: { lang: 'es-ES', engines: ['neural', 'generative'] },
  Alba: { lang: 'es-ES', engines: ['long-form'] },
  Raul: { lang: 'es-ES', engines: ['long-form'] },
  Conchita: { lang: 'es-ES', engines: ['standard'] },
  Enrique: { lang: 'es-ES', engines: ['standard'] },
};
/** SynthesizeSpeech: 3,000 billed characters (SSML tags are not billed), 6,000 characters in all. */
const MAX_BILLED_CHARS = 3000;
const MAX_TOTAL_CHARS = 6000;

const RATES: Record<string, { neural: string[]; standard: string[] }> = {
  pcm: { neural: ['8000', '16000'], standard: ['8000', '16000'] },
  mp3: { neural: ['8000', '16000', '22050', '24000'], standard: ['8000', '16000', '22050'] },
  ogg_vorbis: { neural: ['8000', '16000', '22050', '24000'], standard: ['8000', '16000', '22050'] },
};
const DEFAULT_RATE: Record<string, { neural: string; standard: string }> = {
  pcm: { neural: '16000', standard: '16000' },
  mp3: { neural: '24000', standard: '22050' },
  ogg_vorbis: { neural: '24000', standard: '22050' },
};

const error = (status: number, type: string, message: string): PollyReply => ({
  status,
  headers: { 'content-type': 'application/json', 'x-amzn-errortype': type },
  body: Buffer.from(JSON.stringify({ message })),
});

const utf8Len = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * The client the worker uses (adapters/polly.ts pollyClient: its retries, timeouts and throttle metric) pointed at
 * a stand-in, signing with test credentials; `overrides` as pollyClient takes them (e.g. maxAttempts).
 */
export function standInClient(
  standIn: Pick<PollyStandIn, 'endpoint'>,
  overrides: PollyClientConfig = {},
): PollyClient {
  return pollyClient({
    endpoint: standIn.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
    ...overrides,
  });
}

/**
 * `n` characters of Spanish prose (test/fixtures/texto-2000.txt) in paragraphs, with a heading ("Capítulo 1")
 * before every copy of it (~2,000 characters), ending at a sentence's end: a long text as an article reads.
 */
export function textOf(n: number): string {
  const fixture = readFileSync(join(__dirname, '../fixtures/texto-2000.txt'), 'utf8').trim();
  let t = '';
  for (let i = 1; t.length < n; i++) t += `Capítulo ${i}\n\n${fixture}\n\n`;
  return t.slice(0, n).replace(/\s+\S*$/, '.');
}

export async function startPollyStandIn(options: PollyStandInOptions = {}): Promise<PollyStandIn> {
  let opts = options;
  let engine: Synthesizer | undefined;
  const seen: PollyRequestSeen[] = [];
  const sessions = new Set<ServerHttp2Session>();
  const recent: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let throttled = 0;
  const workDir = await mkdtemp(join(tmpdir(), 'polly-stand-in-'));
  let files = 0;
  // The same text is often asked twice (audio, then marks): speak it once.
  const cache = new Map<string, Promise<Spoken>>();
  const encode = async (fmt: 'ogg' | 'mp3', pcm: Int16Array, rate: number): Promise<Buffer> => {
    const path = join(workDir, `${files++}.${fmt}`);
    await encodeToFile(
      fmt,
      rate,
      (async function* () {
        yield pcm;
      })(),
      path,
    );
    const bytes = await readFile(path);
    await rm(path, { force: true });
    return bytes;
  };
  const canned = opts.speech === 'canned' ? makeCanned(opts.cannedChars ?? MAX_TOTAL_CHARS) : undefined;
  const encodedCanned = new Map<string, Promise<Buffer>>();
  const cannedAudio = (fmt: 'ogg' | 'mp3', rate: number): Promise<Buffer> => {
    let hit = encodedCanned.get(`${fmt}/${rate}`);
    if (!hit) {
      hit = canned!.then((c) => encode(fmt, resample(c.samples, c.rate, rate), rate));
      encodedCanned.set(`${fmt}/${rate}`, hit);
    }
    return hit;
  };
  // Neural voices' rate in both formats (or those asked for), made before any request is timed.
  if (canned) await Promise.all((opts.cannedFormats ?? ['ogg', 'mp3']).map((f) => cannedAudio(f, 24000)));

  async function speak(text: string, voice: Voice, ssml: boolean): Promise<Spoken> {
    if (canned) return cannedSpeech(await canned, text, ssml);
    const key = `${voice.id}\n${ssml}\n${text}`;
    let hit = cache.get(key);
    if (!hit) {
      hit = (async () => {
        engine ??= await createSynthesizer('espeak');
        // SSML is spoken whole by espeak's own SSML reader (marks then cover it as one sentence).
        const spans = ssml ? [{ start: 0, end: text.length }] : sentencesOf(text);
        const parts = await Promise.all(
          spans.map((s) =>
            engine!.synthesize(text.slice(s.start, s.end), voice, ssml ? { ssml } : undefined),
          ),
        );
        const rate = parts[0]?.sampleRate ?? 22050;
        let at = 0;
        const sentences = spans.map((s, i) => {
          const r = { ...s, at, length: parts[i]!.samples.length };
          at += parts[i]!.samples.length;
          return r;
        });
        const samples = new Int16Array(at);
        parts.forEach((p, i) => samples.set(p.samples, sentences[i]!.at));
        return { samples, rate, sentences };
      })();
      cache.set(key, hit);
      if (cache.size > 64) cache.delete(cache.keys().next().value!);
    }
    return hit;
  }

  async function answer(body: Record<string, unknown>): Promise<PollyReply> {
    const text = body.Text;
    if (typeof text !== 'string' || text.length === 0)
      return error(400, 'ValidationException', 'Text is required');
    const billed = body.TextType === 'ssml' ? text.replace(/<[^>]*>/g, '').length : text.length;
    if (text.length > MAX_TOTAL_CHARS || billed > MAX_BILLED_CHARS)
      return error(400, 'TextLengthExceededException', 'Maximum text length has been exceeded');
    const polly = POLLY_VOICES[String(body.VoiceId)];
    const voice = VOICES.find((v) => v.polly.voiceId === body.VoiceId) ?? VOICES[0]!;
    if (!polly) return error(400, 'ValidationException', `Unknown VoiceId ${String(body.VoiceId)}`);
    const engineName = body.Engine === undefined ? 'standard' : String(body.Engine);
    if (!polly.engines.includes(engineName))
      return error(
        400,
        'EngineNotSupportedException',
        `This voice does not support the selected engine: ${String(body.VoiceId)} with ${engineName}`,
      );
    if (body.LanguageCode !== undefined && body.LanguageCode !== polly.lang)
      return error(
        400,
        'ValidationException',
        `LanguageCode ${String(body.LanguageCode)} is not ${polly.lang}`,
      );
    const kind = engineName === 'standard' ? 'standard' : 'neural';
    const format = String(body.OutputFormat);
    if (format === 'json') {
      if (engineName === 'generative')
        return error(400, 'ValidationException', 'Speech marks are not supported by generative voices');
      const types = body.SpeechMarkTypes;
      if (!Array.isArray(types) || types.length === 0 || types.some((t) => !['sentence', 'word'].includes(t)))
        return error(400, 'ValidationException', 'SpeechMarkTypes must be sentence and/or word here');
      if (body.SampleRate !== undefined)
        return error(400, 'ValidationException', 'SampleRate is not used with speech marks');
      const spoken = await speak(text, voice, body.TextType === 'ssml');
      const lines: string[] = [];
      for (const s of spoken.sentences) {
        const ms = (samples: number) => Math.round((samples / spoken.rate) * 1000);
        const mark = (type: string, start: number, end: number, atSamples: number) =>
          JSON.stringify({
            time: ms(atSamples),
            type,
            start: utf8Len(text.slice(0, start)),
            end: utf8Len(text.slice(0, end)),
            value: text.slice(start, end),
          });
        if (types.includes('sentence')) lines.push(mark('sentence', s.start, s.end, s.at));
        if (types.includes('word'))
          for (const w of text
            .slice(s.start, s.end)
            .matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.,:/-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu)) {
            const ws = s.start + w.index;
            lines.push(
              mark('word', ws, ws + w[0].length, s.at + (s.length * (ws - s.start)) / (s.end - s.start)),
            );
          }
      }
      return {
        status: 200,
        headers: {
          'content-type': 'application/x-json-stream',
          'x-amzn-requestcharacters': String(text.length),
        },
        body: Buffer.from(lines.map((l) => `${l}\n`).join('')),
      };
    }
    const allowed = RATES[format];
    if (!allowed) return error(400, 'ValidationException', `Unknown OutputFormat ${format}`);
    if (body.SpeechMarkTypes !== undefined)
      return error(400, 'MarksNotSupportedForFormatException', 'Speech marks need OutputFormat json');
    const rate = body.SampleRate === undefined ? DEFAULT_RATE[format]![kind] : String(body.SampleRate);
    if (!allowed[kind].includes(rate))
      return error(400, 'ValidationException', `SampleRate ${rate} is not supported for ${format} (${kind})`);
    const spoken = await speak(text, voice, body.TextType === 'ssml');
    if (canned && format !== 'pcm') {
      const mp3 = format === 'mp3';
      const audio = await cannedAudio(mp3 ? 'mp3' : 'ogg', Number(rate));
      const samples = Math.round((spoken.samples.length * Number(rate)) / spoken.rate);
      return {
        status: 200,
        headers: {
          'content-type': mp3 ? 'audio/mpeg' : 'audio/ogg',
          'x-amzn-requestcharacters': String(text.length),
        },
        body: mp3 ? cutMp3(audio, samples) : cutOgg(audio, samples),
      };
    }
    const pcm = resample(spoken.samples, spoken.rate, Number(rate));
    let audio: Buffer;
    if (format === 'pcm') audio = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    else {
      const path = join(workDir, `${files++}.${format}`);
      await encodeToFile(
        format === 'mp3' ? 'mp3' : 'ogg',
        Number(rate),
        (async function* () {
          yield pcm;
        })(),
        path,
      );
      audio = await readFile(path);
      await rm(path, { force: true });
    }
    const type = format === 'pcm' ? 'audio/pcm' : format === 'mp3' ? 'audio/mpeg' : 'audio/ogg';
    return {
      status: 200,
      headers: { 'content-type': type, 'x-amzn-requestcharacters': String(text.length) },
      body: audio,
    };
  }

  const server: Http2Server = createServer((req: Http2ServerRequest, res: Http2ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const n = seen.length;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        /* answered below */
      }
      const now = Date.now();
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: now });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      while (recent.length && recent[0]! <= now - 1000) recent.shift();
      const overLimit = opts.tps !== undefined && recent.length >= opts.tps;
      if (!overLimit) recent.push(now);
      const reply = (async (): Promise<PollyReply> => {
        if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
        await opts.hold?.(n, body);
        const own = opts.intercept?.(n, body);
        if (own) return own;
        if (overLimit) {
          throttled++;
          return error(400, 'ThrottlingException', 'Rate exceeded');
        }
        if (req.method !== 'POST' || req.url !== '/v1/speech')
          return error(404, 'UnknownOperationException', `unexpected ${req.method} ${req.url}`);
        return answer(body);
      })().catch((err: unknown) => error(500, 'ServiceFailureException', String(err)));
      void reply.then((r) => {
        inFlight--;
        if (res.closed) return;
        res.writeHead(r.status, { 'content-length': String(r.body.length), ...r.headers });
        res.end(r.body);
      });
    });
  });
  server.on('session', (s: ServerHttp2Session) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    get maxInFlight() {
      return maxInFlight;
    },
    get throttled() {
      return throttled;
    },
    reset() {
      seen.length = 0;
      recent.length = 0;
      maxInFlight = inFlight;
      throttled = 0;
    },
    setOptions(o) {
      opts = o;
    },
    async stop() {
      for (const s of sessions) s.destroy();
      await new Promise((resolve) => server.close(resolve));
      await rm(workDir, { recursive: true, force: true });
    },
  };
}
