// Amazon Polly as the narration Synthesizer: SynthesizeSpeech returning raw PCM (16-bit mono little-endian,
// 16 kHz: the best rate Polly offers for PCM), which our encoders turn into MP3/OGG/WAV in one continuous file.
// Limits (Polly docs): 3,000 billed characters per SynthesizeSpeech call; neural voices 8 transactions/s per
// account. We run ~6 calls at once and let the SDK's adaptive retry mode back off on ThrottlingException.
import {
  PollyClient,
  SynthesizeSpeechCommand,
  type PollyClientConfig,
  type VoiceId,
} from '@aws-sdk/client-polly';
import { observeAwsClient } from '../../shared/observability/aws-clients';
import type { Pcm, Synthesizer } from '../ports';
import type { Voice } from '../core/voices';

export const POLLY_PCM_RATE = 16000;

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
    // A 3,000-character call streams ~6 MB of PCM in a few seconds: a stream idle for a minute is stuck, and
    // should not eat the worker's 15 minutes.
    requestHandler: { requestTimeout: 60_000, disableConcurrentStreams: true },
    ...overrides,
  });
  return observeAwsClient(client, { throttleMetric: { service: 'narration', name: 'PollyThrottles' } });
}

export interface PollySynthesizerOptions {
  /** Parallel calls (default 6, under the 8 TPS neural quota). */
  concurrency?: number;
}

export class PollySynthesizer implements Synthesizer {
  readonly engine = 'polly';
  readonly maxChars = 3000;
  readonly concurrency: number;

  constructor(
    private readonly client: PollyClient,
    opts: PollySynthesizerOptions = {},
  ) {
    this.concurrency = opts.concurrency ?? 6;
  }

  async synthesize(text: string, voice: Voice, opts: { ssml?: boolean } = {}): Promise<Pcm> {
    const res = await this.client.send(
      new SynthesizeSpeechCommand({
        Text: text,
        // SSML (core/speech.ts): the caller's markup, and lexicon phonemes as inline <phoneme alphabet="ipa">.
        TextType: opts.ssml ? 'ssml' : 'text',
        OutputFormat: 'pcm',
        SampleRate: String(POLLY_PCM_RATE),
        VoiceId: voice.polly.voiceId as VoiceId,
        Engine: voice.polly.engine,
        LanguageCode: voice.lang,
      }),
    );
    if (!res.AudioStream) throw new Error('Polly returned no audio stream');
    const bytes = await res.AudioStream.transformToByteArray();
    const usable = bytes.byteLength - (bytes.byteLength % 2);
    // Copy into an aligned buffer; Polly's PCM is little-endian like the hosts we run on.
    const samples = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + usable));
    return { samples, sampleRate: POLLY_PCM_RATE };
  }
}
