// Tests by layer (docs/design-notes.md): unit (pure), integration (adapters vs emulators), infra (CDK), e2e (HTTP vs local runtime).
// TypeScript is transformed with swc (fast, no type check: `npm run typecheck` does that).
// @middy/* ship ESM only, so they are transformed too.
const transform = {
  '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
};
const transformIgnorePatterns = [
  '/node_modules/(?!(@middy|espeak-ng|fauxqs|valibot|toad-cache|@wasm-audio-decoders|mpg123-decoder|codec-parser|simple-yenc|@eshaz)/)',
];
// fauxqs publishes only an `import` export condition; point jest's CommonJS resolver at its entry file.
const moduleNameMapper = { '^fauxqs$': '<rootDir>/node_modules/fauxqs/dist/app.js' };
const common = {
  // cdk synth stages asset copies (with their own package.json) under cdk.out.
  modulePathIgnorePatterns: ['<rootDir>/cdk.out/', '<rootDir>/.cache/'],
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns,
  moduleNameMapper,
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json', 'node'],
};

module.exports = {
  // Chromium and isolated-vm keep native handles alive in warm containers by design; do not let them hold the run.
  forceExit: true,
  // Four workers on the two cores (jest's default is cores − 1: one worker here). Many files spend part of their time
  // waiting (a queue's poll, a worker's lease, a browser's page load), so more files than cores keep both cores busy:
  // measured on clean clones, jest took 686 s with 3 workers against 756 s with 2 (same tests), and later 760 s with 4
  // against 807 s with 3 (ci22 vs ci21, same commit, nothing else running; user CPU 20.7 vs 21.6 min). Files are
  // isolated from each other: each starts its own emulators and runtime on ephemeral ports in its own temp dir, and no
  // test relies on what another left behind (quota windows, DLQ contents, keys). JEST_WORKERS overrides it (e.g. 1 to
  // measure a file alone).
  maxWorkers: Number(process.env.JEST_WORKERS) || 4,
  // Four files run side by side, so a test's CPU is shared: jest's 5 s default timed out quick tests on a loaded
  // machine. Files with long work set their own (jest.setTimeout).
  testTimeout: 30_000,
  // Slowest files first, also on a clean clone (test/sequencer.cjs reads test/timings.json).
  testSequencer: '<rootDir>/test/sequencer.cjs',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
    // Property and fuzz tests (fast-check); FUZZ_SEED / FUZZ_RUNS replay or lengthen them (`npm run fuzz`).
    { ...common, displayName: 'fuzz', testMatch: ['<rootDir>/test/fuzz/**/*.test.ts'] },
    // What is deployed, run under Node 22 (test/artifact): `cdk synth` once, every zip bundle invoked from cdk.out,
    // the documents image rebuilt without Docker (lambdas/documents/image/build.cjs) and invoked.
    {
      ...common,
      displayName: 'artifact',
      testMatch: ['<rootDir>/test/artifact/**/*.test.ts'],
      globalSetup: '<rootDir>/test/artifact/global-setup.ts',
      globalTeardown: '<rootDir>/test/artifact/global-teardown.ts',
    },
  ],
};
