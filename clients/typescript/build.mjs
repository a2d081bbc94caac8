// Builds the package: dist/index.js (the clients, ESM, any runtime with fetch), dist/cli.js (the `voz` bin, Node)
// with esbuild, and dist/*.d.ts with tsc. `node build.mjs [outDir]` (default dist). The tests build into a temp dir.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
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
// The sources import without extensions (esbuild bundles them); Node's ESM resolution (TypeScript's NodeNext, what
// an ESM consumer uses) needs them in the declarations.
for (const file of readdirSync(out, { recursive: true })) {
  if (!String(file).endsWith('.d.ts')) continue;
  const path = join(out, String(file));
  const text = readFileSync(path, 'utf8').replace(
    /(from\s+'|import\(')(\.{1,2}\/[^']+?)(?<!\.js)'/g,
    "$1$2.js'",
  );
  writeFileSync(path, text);
}
