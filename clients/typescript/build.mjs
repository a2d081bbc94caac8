// Builds the package: dist/index.js (the clients, ESM, any runtime with fetch), dist/cli.js (the `voz` bin, Node)
// with esbuild, and dist/*.d.ts with tsc. `node build.mjs [outDir]` (default dist). The tests build into a temp dir.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, 'dist'));
const common = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning', legalComments: 'none' };
await build({
  ...common,
  entryPoints: [join(here, 'src/index.ts')],
  outfile: join(out, 'index.js'),
  platform: 'neutral',
});
await build({
  ...common,
  entryPoints: [join(here, 'src/cli.ts')],
  outfile: join(out, 'cli.js'),
  platform: 'node',
});
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json'), '--outDir', out], {
  stdio: 'inherit',
});
