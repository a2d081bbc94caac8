// The narration pipeline: text → chunks the engine accepts → speech (a few chunks at once) → one encoded file.
// Chunks are synthesized with bounded concurrency but fed to the encoder strictly in order, separated by a short
// pause; the engine runs at most a small window ahead of the encoder, so memory stays flat for 100,000-character
// texts (~2 h of audio) whatever the engine's speed.
// Before chunking, the text is rewritten for the voice's locale (normalize/: dates, money, numbers, abbreviations
// ... become words), so every input (text, PDF, URL) and every engine gets the same reading. Only the engine
// sees the rewritten text: callers are billed and limited on the characters they sent.
import { encodeToFile, type EncodedFile } from '../audio/encode';
import { engineInputs, type SpeechOptions } from '../core/speech';
import type { AudioFormat } from '../core/formats';
import type { Pcm, Synthesizer } from '../ports';
import type { Voice } from '../core/voices';

/** Silence between chunks: a natural pause where the text was split (chunks end at paragraphs or sentences). */
export const PAUSE_S = 0.25;

export interface NarrateOptions {
  text: string;
  voice: Voice;
  fmt: AudioFormat;
  synthesizer: Synthesizer;
  /** Written (created or truncated); removed again if narration fails. */
  outPath: string;
  /**
   * Called with the fraction of chunks encoded so far (0 < f < 1, increasing), then with 1 once the file is
   * complete. Awaited: a slow callback slows the pipeline; a throwing one fails the narration.
   */
  onProgress?: (fraction: number) => void | Promise<void>;
  /** SSML (`text_type: "ssml"`) and the lexicon entries to apply (core/speech.ts); default plain text. */
  speech?: SpeechOptions;
}

export class NothingToNarrateError extends Error {
  constructor() {
    super('The text has nothing to narrate (it is empty or only whitespace).');
    this.name = 'NothingToNarrateError';
  }
}

export async function narrate(opts: NarrateOptions): Promise<EncodedFile> {
  const { synthesizer, voice, onProgress } = opts;
  // Reading rules, then the lexicon; chunks as the engine receives them (plain text, or SSML where needed).
  const chunks = engineInputs(opts.text, voice, synthesizer.engine, synthesizer.maxChars, opts.speech, {
    // A reading rule that fails is skipped (the text is still narrated); say so in the logs.
    onRuleError: (rule, error) =>
      console.warn(
        JSON.stringify({ level: 'WARN', message: 'reading rule skipped', rule, error: String(error) }),
      ),
  });
  if (chunks.length === 0) throw new NothingToNarrateError();
  const speech = new OrderedSynthesis(
    chunks,
    (c) => synthesizer.synthesize(c.text, voice, c.ssml ? { ssml: true } : undefined),
    synthesizer.concurrency,
  );
  try {
    // The encoder needs the sample rate up front: it is the engine's, known from the first chunk.
    const first = await speech.take(0);
    const rate = first.sampleRate;
    async function* pcm(): AsyncGenerator<Int16Array> {
      const pause = new Int16Array(Math.round(rate * PAUSE_S));
      for (let i = 0; i < chunks.length; i++) {
        const part = i === 0 ? first : await speech.take(i);
        if (part.sampleRate !== rate) {
          throw new Error(
            `${synthesizer.engine} changed sample rate mid-text (${rate} → ${part.sampleRate} Hz)`,
          );
        }
        if (i > 0) yield pause;
        yield part.samples;
        // The encoder asked for more: chunk i is encoded.
        if (onProgress && i < chunks.length - 1) await onProgress((i + 1) / chunks.length);
      }
    }
    const result = await encodeToFile(opts.fmt, rate, pcm(), opts.outPath);
    if (onProgress) await onProgress(1);
    return result;
  } finally {
    speech.stop();
  }
}

/**
 * Runs `synthesize` over `texts` with at most `concurrency` calls in flight and at most `window` results held
 * ahead of the consumer, who takes results in order with take(0), take(1), ...
 */
class OrderedSynthesis<T> {
  private readonly results = new Map<number, Promise<Pcm>>();
  private readonly window: number;
  private nextToStart = 0;
  private nextToTake = 0;
  private inFlight = 0;
  private stopped = false;

  constructor(
    private readonly texts: T[],
    private readonly synthesize: (text: T) => Promise<Pcm>,
    private readonly concurrency: number,
  ) {
    this.concurrency = Math.max(1, Math.floor(concurrency) || 1);
    // Enough lookahead to keep every slot busy while the encoder works on the current chunk, no more.
    this.window = this.concurrency + 1;
    this.pump();
  }

  take(i: number): Promise<Pcm> {
    if (i !== this.nextToTake)
      throw new Error(`chunks are taken in order: expected ${this.nextToTake}, got ${i}`);
    const result = this.results.get(i);
    if (!result) throw new Error(`chunk ${i} was never started`);
    this.results.delete(i); // the consumer holds it now; nothing else keeps its samples alive
    this.nextToTake++;
    this.pump();
    return result;
  }

  /** Starts nothing more (in-flight calls finish on their own; their results are dropped). */
  stop(): void {
    this.stopped = true;
    this.results.clear();
  }

  private pump(): void {
    while (
      !this.stopped &&
      this.nextToStart < this.texts.length &&
      this.inFlight < this.concurrency &&
      this.nextToStart < this.nextToTake + this.window
    ) {
      const i = this.nextToStart++;
      this.inFlight++;
      const text = this.texts[i]!;
      const p = (async () => this.synthesize(text))(); // a synchronous throw becomes a rejection
      const settled = () => {
        this.inFlight--;
        this.pump();
      };
      p.then(settled, () => {
        this.stopped = true; // a failed chunk fails the narration: start nothing more
        settled();
      });
      this.results.set(i, p);
    }
  }
}
