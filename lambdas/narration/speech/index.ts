// Picks the speech engine named by SPEECH_ENGINE. Engines load lazily so a Lambda bundle using Polly never
// evaluates the espeak code (and the espeak-ng WASM package is never bundled: see espeak-wasm.ts).
import type { Synthesizer } from '../ports';

export type SpeechEngineKind = 'polly' | 'espeak' | 'espeak-cli' | 'espeak-wasm';

/** 'espeak' means the espeak-ng program when it is installed, else its WASM build. */
export async function createSynthesizer(
  kind: SpeechEngineKind,
  opts: { espeakBin?: string } = {},
): Promise<Synthesizer> {
  const bin = opts.espeakBin ?? 'espeak-ng';
  switch (kind) {
    case 'polly': {
      const { PollySynthesizer, pollyClient } = await import('../adapters/polly');
      return new PollySynthesizer(pollyClient());
    }
    case 'espeak-cli': {
      const { EspeakCliSynthesizer, espeakCliAvailable } = await import('./espeak-cli');
      if (!(await espeakCliAvailable(bin))) {
        throw new Error(
          `SPEECH_ENGINE=espeak-cli but \`${bin}\` does not run: apt-get install espeak-ng, or use espeak`,
        );
      }
      return new EspeakCliSynthesizer({ bin });
    }
    case 'espeak-wasm': {
      const { EspeakWasmSynthesizer } = await import('./espeak-wasm');
      return new EspeakWasmSynthesizer();
    }
    case 'espeak': {
      const { espeakCliAvailable } = await import('./espeak-cli');
      return createSynthesizer((await espeakCliAvailable(bin)) ? 'espeak-cli' : 'espeak-wasm', opts);
    }
    default:
      throw new Error(`unknown speech engine ${String(kind)}`);
  }
}
