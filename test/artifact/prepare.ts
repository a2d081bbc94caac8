// What the artifact tests run, built in the background (started by global-setup.ts, run by tsx): `cdk synth` into
// .cache/artifact/cdk.out (reused while its inputs are unchanged), then the zip assets copied into the run folder.
// It ends by writing <runDir>/ready.json, or <runDir>/prepare-failed.txt with the reason; the tests wait for either
// (artifactReady() in global-setup.ts). In the background, so that the other projects' tests run while esbuild
// bundles the ~50 functions, instead of the whole run waiting for the synth before its first test.
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAssembly } from './assembly';
import { synthesize } from './global-setup';

function main(): void {
  const runDir = process.argv[2];
  if (!runDir) throw new Error('usage: prepare.ts <runDir>');
  try {
    const cdkOut = synthesize((line) => process.stderr.write(`${line}\n`));
    for (const fn of readAssembly(cdkOut).functions)
      if (fn.packaging === 'zip' && !existsSync(join(runDir, fn.assetPath)))
        cpSync(join(cdkOut, fn.assetPath), join(runDir, fn.assetPath), { recursive: true });
    writeFileSync(join(runDir, 'ready.json'), JSON.stringify({ cdkOut }));
  } catch (err) {
    writeFileSync(join(runDir, 'prepare-failed.txt'), (err as Error).stack ?? String(err));
    process.exitCode = 1;
  }
}

main();
