// Local speech engine that needs nothing installed: the npm `espeak-ng` package (espeak-ng 1.52 compiled to WASM
// with Emscripten, voices embedded), 70-380× realtime, single-threaded.
// The build runs the espeak-ng program's main() once per module instance and exports no callMain, so every call
// instantiates a fresh module (~100-150 ms: the 18 MB binary is compiled once per process and reused). The text is
// written into the instance's in-memory FS and read with `-f` (no quoting, no argv limits); the WAV comes back
// with `-w` from the same FS, with correct header sizes.
import { readFile } from 'node:fs/promises';
import type { EspeakModule, EspeakModuleOptions } from 'espeak-ng';
import type { Pcm, Synthesizer } from '../ports';
import type { Voice } from '../core/voices';
import { parseWavHeader } from '../audio/wav';
import { espeakVoiceName } from './espeak-cli';

type Factory = (options?: EspeakModuleOptions) => Promise<EspeakModule>;

// The project compiles without the DOM lib, where TypeScript declares WebAssembly: the two calls used here.
interface Wasm {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
}
const wasmApi = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

export interface EspeakWasmOptions {
  /** Characters per call (default 3,000: fewer, larger calls amortise the instance start-up). */
  maxChars?: number;
}

export class EspeakWasmSynthesizer implements Synthesizer {
  readonly engine = 'espeak-wasm';
  readonly maxChars: number;
  // One JS thread runs every instance: parallel calls would only interleave.
  readonly concurrency = 1;

  constructor(opts: EspeakWasmOptions = {}) {
    this.maxChars = opts.maxChars ?? 3000;
  }

  async synthesize(text: string, voice: Voice, opts: { ssml?: boolean } = {}): Promise<Pcm> {
    const [factory, wasm] = await load();
    const messages: string[] = [];
    const mod = await factory({
      arguments: [
        '-b',
        '1',
        ...(opts.ssml ? ['-m'] : []), // espeak's own SSML
        '-v',
        espeakVoiceName(voice),
        '-f',
        '/input.txt',
        '-w',
        '/output.wav',
      ],
      preRun: [(m) => m.FS.writeFile('/input.txt', text)],
      instantiateWasm(imports, done) {
        wasmApi.instantiate(wasm, imports).then(
          (instance: object) => done(instance, wasm),
          (err: unknown) => messages.push(`instantiate: ${String(err)}`),
        );
        return {}; // Emscripten: "instantiation is asynchronous"
      },
      print: (line) => messages.push(line),
      printErr: (line) => messages.push(line),
    });
    let wav: Uint8Array;
    try {
      wav = mod.FS.readFile('/output.wav');
    } catch {
      throw new Error(`espeak-ng (wasm) wrote no audio: ${messages.join(' ').slice(0, 300)}`);
    }
    const h = parseWavHeader(wav);
    if (h.audioFormat !== 1 || h.bitsPerSample !== 16 || h.channels !== 1)
      throw new Error('espeak-ng (wasm): unexpected WAV format');
    const end = Math.min(wav.length, h.dataOffset + h.dataBytes);
    const bytes = end - h.dataOffset - ((end - h.dataOffset) % 2);
    return {
      samples: new Int16Array(
        wav.buffer.slice(wav.byteOffset + h.dataOffset, wav.byteOffset + h.dataOffset + bytes),
      ),
      sampleRate: h.sampleRate,
    };
  }
}

let loaded: Promise<[Factory, object]> | undefined;

function load(): Promise<[Factory, object]> {
  loaded ??= (async () => {
    // A specifier in a variable keeps bundlers (esbuild for Lambda) from pulling the package into Polly bundles.
    const specifier = 'espeak-ng';
    const lib = (await import(specifier)) as { default: Factory };
    const jsPath = require.resolve(specifier);
    const wasm = await wasmApi.compile(await readFile(jsPath.replace(/espeak-ng\.js$/, 'espeak-ng.wasm')));
    return [lib.default, wasm];
  })();
  loaded.catch(() => (loaded = undefined)); // let a later call retry
  return loaded;
}
