// The harness itself can fail: a bundle that leaves out a module it needs (marked external, as a wrong
// `externalModules` entry would) does not load in the isolated folder where bundles run, because no node_modules is
// reachable from there; the same source bundled whole loads and answers.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { artifactState, isolatedDir } from './global-setup';
import { LambdaProcess } from './lambda';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const ESBUILD = join(ROOT, 'node_modules', '.bin', 'esbuild');

function bundle(dir: string, externals: string[]): string {
  const out = join(dir, 'index.js');
  execFileSync(ESBUILD, [
    join(__dirname, 'fixtures', 'needs-a-package.ts'),
    '--bundle',
    '--platform=node',
    '--target=node22',
    '--format=cjs',
    `--outfile=${out}`,
    '--log-level=warning',
    ...externals.map((e) => `--external:${e}`),
  ]);
  return out;
}

let dir: string;
beforeAll(() => {
  dir = isolatedDir('artifact-break-');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (modulePath: string, cwd: string) =>
  LambdaProcess.start({
    node: artifactState().node22.bin,
    modulePath,
    cwd,
    env: { PATH: '/usr/bin:/bin', HOME: dir },
  });

test('a complete bundle loads and answers in the isolated folder', async () => {
  const whole = join(dir, 'whole');
  const fn = await start(bundle(whole, []), whole);
  try {
    const r = await fn.invoke({ text: 'hola' }, 10_000);
    expect(r.value).toEqual({ statusCode: 200, body: 'hola' });
  } finally {
    await fn.stop();
  }
});

test('the same bundle with a needed module marked external fails its cold start', async () => {
  const broken = join(dir, 'broken');
  await expect(start(bundle(broken, ['fflate']), broken)).rejects.toThrow(/Cannot find module 'fflate'/);
});
