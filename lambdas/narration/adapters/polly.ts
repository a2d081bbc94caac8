// Amazon Polly as the narration Synthesizer. Per chunk, two SynthesizeSpeech calls run side by side:
//  - the speech at 24 kHz (neural voices' best: PCM is capped at 16 kHz, audibly duller). For an MP3 narration,
//    Polly's own MP3 (`synthesizeMp3`): narrate() joins its frames as they come (audio/mp3-join.ts), so the worker
//    neither decodes nor encodes, and the duration is the frame count. For WAV and OGG, Ogg Vorbis (`synthesize`),
//    decoded in-process (WASM, exact sample counts) to the mono 16-bit PCM our encoders join into one file;
//  - its speech marks (OutputFormat json, `sentence` + `word`: JSON lines with `time` in ms and UTF-8 *byte*
//    offsets into the text sent), returned as `marks` with UTF-16 offsets into that same text, from which the
//    pipeline maps them back to the caller's original text.
// Limits (Polly docs): 3,000 billed characters per SynthesizeSpeech call (speech marks are billed too); neural
// voices 8 transactions/s per account. Each chunk costs two calls, so 4 chunks at once by default, and the SDK's
// adaptive retry mode backs off on ThrottlingException.
import {
  PollyClient,
  SynthesizeSpeechCommand,
  type PollyClientConfig,
  type SynthesizeSpeechCommandInput,
  type VoiceId,
} from '@aws-sdk/client-polly';
import { OggVorbisDecoder } from '@wasm-audio-decoders/ogg-vorbis';
import { observeAwsClient } from '../../shared/observability/aws-clients';
import type { Mp3Synthesis, SpeechMark, Synthesis, Synthesizer } from '../ports';
import type { Voice } from '../core/voices';

/** Neural (and generative) voices' best MP3/OGG rate; standard voices stop at 22.05 kHz. */
export const POLLY_NEURAL_RATE = 24000;
export const POLLY_STANDARD_RATE = 22050;

export function pollySampleRate(voice: Voice): number {
  return voice.polly.engine === 'standard' ? POLLY_STANDARD_RATE : POLLY_NEURAL_RATE;
}

/**
 * A Polly client for narration: adaptive retries (client-side rate limiting plus backoff on throttling),
 * up to 6 attempts. `overrides` (endpoint, credentials, region) win; tests point it at a local stand-in.
 */
export function pollyClient(overrides: PollyClientConfig = {}): PollyClient {
  // Each throttled attempt (also those the SDK retries) counts in PollyThrottles, which an alarm watches.
  const client = new PollyClient({
    retryMode: 'adaptive',
    maxAttempts: 6,
    // The Polly client speaks HTTP/2 (its default handler; one session per request, as the SDK sets it up).
    // A 3,000-character call streams a few MB in a few seconds: a stream idle for a minute is stuck, and
    // should not eat the worker's 15 minutes.
    requestHandler: { requestTimeout: 60_000, disableConcurrentStreams: true },
    ...overrides,
  });
  return observeAwsClient(client, { throttleMetric: { service: 'narration', name: 'PollyThrottles' } });
}

export interface PollySynthesizerOptions {
  /** Chunks at once (default 4: two calls each, 8 in flight, the neural voices' 8 TPS). */
  concurrency?: number;
  /** Ask for word and sentence speech marks too (default true). */
  speechMarks?: boolean;
}

export class PollySynthesizer implements Synthesizer {
  readonly engine = 'polly';
  readonly maxChars = 3000;
  readonly concurrency: number;
  /** Chunks started per second (narrate's token bucket): two requests each, within the neural voices' 8 TPS. */
  readonly maxPerSecond: number;
  private readonly speechMarks: boolean;

  constructor(
    private readonly client: PollyClient,
    opts: PollySynthesizerOptions = {},
  ) {
    this.concurrency = opts.concurrency ?? 4;
    this.speechMarks = opts.speechMarks ?? true;
    this.maxPerSecond = this.speechMarks ? 4 : 8;
  }

  /** Generative voices return no speech marks (Polly docs): narrate() reads them a sentence per call. */
  marksFor(voice: Voice): boolean {
    return voice.polly.engine !== 'generative';
  }

  async synthesize(text: string, voice: Voice, opts: { ssml?: boolean } = {}): Promise<Synthesis> {
    const { audio, marks } = await this.call('ogg_vorbis', text, voice, opts);
    const rate = pollySampleRate(voice);
    const pcm = await decodeOggVorbis(audio);
    if (pcm.sampleRate !== rate)
      throw new Error(`Polly returned ${pcm.sampleRate} Hz audio, ${rate} Hz was asked for`);
    return marks ? { ...pcm, marks } : pcm;
  }

  /** Polly's own MP3 (24 kHz for neural voices), as it comes: narrate() joins its frames without decoding. */
  async synthesizeMp3(text: string, voice: Voice, opts: { ssml?: boolean } = {}): Promise<Mp3Synthesis> {
    const { audio, marks } = await this.call('mp3', text, voice, opts);
    return marks ? { mp3: audio, marks } : { mp3: audio };
  }

  /** The audio call and, side by side, the speech-marks call for the same text. */
  private async call(
    format: 'ogg_vorbis' | 'mp3',
    text: string,
    voice: Voice,
    opts: { ssml?: boolean },
  ): Promise<{ audio: Uint8Array; marks?: SpeechMark[] }> {
    const base: SynthesizeSpeechCommandInput = {
      Text: text,
      // SSML (core/speech.ts): the caller's markup, and lexicon phonemes as inline <phoneme alphabet="ipa">.
      // Speech-mark offsets then point into this SSML string, as Polly documents.
      TextType: opts.ssml ? 'ssml' : 'text',
      OutputFormat: format,
      VoiceId: voice.polly.voiceId as VoiceId,
      Engine: voice.polly.engine,
      LanguageCode: voice.lang,
    };
    const [audio, marks] = await Promise.all([
      this.client.send(new SynthesizeSpeechCommand({ ...base, SampleRate: String(pollySampleRate(voice)) })),
      this.speechMarks && this.marksFor(voice)
        ? this.client.send(
            new SynthesizeSpeechCommand({
              ...base,
              OutputFormat: 'json',
              SpeechMarkTypes: ['sentence', 'word'],
            }),
          )
        : undefined,
    ]);
    if (!audio.AudioStream) throw new Error('Polly returned no audio stream');
    const bytes = await audio.AudioStream.transformToByteArray();
    if (!marks) return { audio: bytes };
    if (!marks.AudioStream) throw new Error('Polly returned no speech marks');
    return {
      audio: bytes,
      marks: parseSpeechMarks(await marks.AudioStream.transformToString('utf8'), text),
    };
  }
}

/** Decodes a whole mono Ogg Vorbis stream to 16-bit PCM (every sample the granule positions declare). */
export async function decodeOggVorbis(ogg: Uint8Array): Promise<{ samples: Int16Array; sampleRate: number }> {
  const decoder = new OggVorbisDecoder();
  try {
    await decoder.ready;
    const out = await decoder.decodeFile(ogg);
    if (out.errors.length) throw new Error(`Polly's Ogg Vorbis did not decode: ${out.errors[0]!.message}`);
    const ch = out.channelData[0];
    if (!ch || out.samplesDecoded === 0) throw new Error('Polly returned Ogg Vorbis with no samples');
    const samples = new Int16Array(out.samplesDecoded);
    for (let i = 0; i < samples.length; i++) {
      const v = Math.max(-1, Math.min(1, ch[i]!));
      samples[i] = Math.round(v < 0 ? v * 0x8000 : v * 0x7fff);
    }
    return { samples, sampleRate: out.sampleRate };
  } finally {
    decoder.free();
  }
}

/**
 * Polly speech marks (one JSON object per line: `{time, type, start, end, value}`, start/end UTF-8 byte offsets
 * into `text`) as marks with UTF-16 offsets into `text`, in time order; other mark types are ignored.
 */
export function parseSpeechMarks(jsonLines: string, text: string): SpeechMark[] {
  // UTF-8 byte offset → UTF-16 index, for every character boundary of `text`.
  const byteToIndex = new Map<number, number>();
  let bytes = 0;
  for (let i = 0; i < text.length;) {
    byteToIndex.set(bytes, i);
    const cp = text.codePointAt(i)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp > 0xffff ? 2 : 1;
  }
  byteToIndex.set(bytes, text.length);
  const at = (b: unknown): number => {
    const i = typeof b === 'number' ? byteToIndex.get(b) : undefined;
    if (i === undefined) throw new Error(`Polly speech mark offset ${String(b)} is not a character boundary`);
    return i;
  };
  const marks: SpeechMark[] = [];
  for (const line of jsonLines.split('\n')) {
    if (!line.trim()) continue;
    const m = JSON.parse(line) as { time?: unknown; type?: unknown; start?: unknown; end?: unknown };
    if (m.type !== 'word' && m.type !== 'sentence') continue;
    if (typeof m.time !== 'number') throw new Error('Polly speech mark without a time');
    marks.push({ type: m.type, time_s: m.time / 1000, start: at(m.start), end: at(m.end) });
  }
  return marks.sort((a, b) => a.time_s - b.time_s);
}
