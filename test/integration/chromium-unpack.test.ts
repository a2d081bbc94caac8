// Chromium unpacked from @sparticuz/chromium's package (lambdas/documents/render/unpack.ts) is never torn: a process
// killed while it unpacks leaves nothing that a later process would run, a torn binary left by the library's own
// in-place write is replaced, two processes unpacking at once both get a whole binary, and a complete set is reused.
// "Whole" is checked by running the binary (`--version`) and by its size against the library's brotli file unpacked
// here independently, and by a renderer in a process of its own printing a PDF from the unpacked set. Bounded: one
// kill, two concurrent children, one render of local HTML (nothing leaves the machine).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { chromiumBinDir, unpackedChromium } from '../../lambdas/documents/render/unpack';
import { tempDir } from '../helpers/env';

jest.setTimeout(180_000); // each unpack is ~200 MB written (seconds; more on a loaded machine)

const ROOT = join(__dirname, '..', '..');
const BIN = chromiumBinDir();
/** The binary's size, from the package's brotli file (not through the code under test). */
const SIZE = brotliDecompressSync(readFileSync(join(BIN, 'chromium.br'))).length;
/** What a complete unpack leaves: the binary, its marker, SwiftShader's GL libraries, the AL2023 libraries. */
const UNPACKED = [
  'al2023',
  'chromium',
  'chromium.unpacked',
  'libEGL.so',
  'libGLESv2.so',
  'libvk_swiftshader.so',
  'libvulkan.so.1',
  'vk_swiftshader_icd.json',
];
const dirs: { cleanup(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));
const dir = () => {
  const d = tempDir('chromium-unpack-');
  dirs.push(d);
  return d.path;
};

/** Runs the binary: a whole one prints its version. */
const version = (path: string) => execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();

/** A child process that unpacks into `into` and prints the binary's path (what a Lambda or `npm start` does). */
function child(into: string) {
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `require('./lambdas/documents/render/unpack').unpackedChromium({ dir: ${JSON.stringify(into)}, libraries: true }).then((p) => console.log(p))`,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

test('killed while it unpacks, it leaves nothing a later process would run; the next unpack is whole', async () => {
  const into = dir();
  const proc = child(into);
  // Killed once its own file holds 20 MB of the ~200: mid-write.
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      const own = readdirSync(into).find((f) => f.startsWith('.chromium.'));
      if (own && statSync(join(into, own)).size > 20_000_000) {
        clearInterval(timer);
        proc.kill('SIGKILL');
        resolve();
      }
    }, 5);
    proc.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`the unpack ended (${code}) before it was killed`));
    });
  });
  await new Promise((r) => proc.once('exit', r));
  // The half-written file is under the child's own name: `chromium` and the marker are not there.
  expect(existsSync(join(into, 'chromium'))).toBe(false);
  expect(existsSync(join(into, 'chromium.unpacked'))).toBe(false);
  const path = await unpackedChromium({ dir: into, libraries: true });
  expect(statSync(path).size).toBe(SIZE);
  expect(version(path)).toMatch(/^Chromium \d+\./);
  expect(readdirSync(join(into, 'al2023', 'lib')).length).toBeGreaterThan(0);
  // The killed process's half-written file (~20 MB and more, of a process no longer running) was removed.
  expect(readdirSync(into).sort()).toEqual(UNPACKED);
});

test('a torn binary without the marker (the library writes in place) is replaced, not run', async () => {
  const into = dir();
  writeFileSync(join(into, 'chromium'), readFileSync(process.execPath).subarray(0, 1_000_000), {
    mode: 0o700,
  });
  const path = await unpackedChromium({ dir: into, libraries: false });
  expect(path).toBe(join(into, 'chromium'));
  expect(statSync(path).size).toBe(SIZE);
  expect(version(path)).toMatch(/^Chromium \d+\./);
});

test('two processes unpacking at once both get a whole binary; a complete set is then reused as it is', async () => {
  const into = dir();
  const run = (p: ReturnType<typeof child>) =>
    new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      p.stdout.on('data', (c: Buffer) => (out += c.toString()));
      p.stderr.on('data', (c: Buffer) => (err += c.toString()));
      p.once('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(err))));
    });
  const paths = await Promise.all([run(child(into)), run(child(into))]);
  expect(paths).toEqual([join(into, 'chromium'), join(into, 'chromium')]);
  expect(statSync(paths[0]!).size).toBe(SIZE);
  expect(version(paths[0]!)).toMatch(/^Chromium \d+\./);
  // No temporary file is left behind by either.
  expect(readdirSync(into).sort()).toEqual(UNPACKED);
  // And Chromium starts from it: a renderer whose temp dir is this one prints a PDF.
  const printed = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `const { Renderer } = require('./lambdas/documents/render/chromium'); const r = new Renderer();
       r.renderPdf('<p>Hola</p>').then((pdf) => { console.log(pdf.subarray(0, 5).toString('latin1')); process.exit(0); })`,
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TMPDIR: into }, timeout: 120_000 },
  );
  expect(printed.trim().split('\n').pop()).toBe('%PDF-'); // after the renderer's log lines
  // Complete: the next call writes nothing (the same file, untouched).
  const before = statSync(paths[0]!);
  await unpackedChromium({ dir: into, libraries: true });
  const after = statSync(paths[0]!);
  expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
});
