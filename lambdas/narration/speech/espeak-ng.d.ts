// Types for the npm `espeak-ng` package (an Emscripten build of the espeak-ng program, ESM only, no types shipped).
declare module 'espeak-ng' {
  export interface EspeakFs {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
    readFile(path: string, opts: { encoding: 'utf8' }): string;
    unlink(path: string): void;
  }
  export interface EspeakModule {
    FS: EspeakFs;
  }
  export interface EspeakModuleOptions {
    /** argv after the program name; main() runs once with them. */
    arguments?: string[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    preRun?: ((module: EspeakModule) => void)[];
    /** Lets the caller instantiate a precompiled module (Emscripten's hook). */
    instantiateWasm?: (imports: object, done: (instance: object, module?: object) => void) => object;
    locateFile?: (path: string, scriptDirectory: string) => string;
  }
  const ESpeakNg: (options?: EspeakModuleOptions) => Promise<EspeakModule>;
  export default ESpeakNg;
}
