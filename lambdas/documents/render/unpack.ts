// Chromium unpacked from @sparticuz/chromium's brotli files into the temp dir, never torn. The library's own
// executablePath() writes /tmp/chromium in place and afterwards only checks that the file exists: a process killed
// while it wrote (a Lambda timing out in a cold start, the runtime restarting in the same sandbox; `npm start`
// killed) leaves a truncated binary that every later launch runs and fails on ("Chromium did not start") until the
// file is removed by hand. Measured: a crash test killed in a cold temp dir left 65 of 197 MB, and the rest of its
// renders failed; two processes starting at once can also run the file the other is still writing.
// So each process writes under names of its own and renames into place (a rename is atomic), and a marker written
// last says the set is complete for this package version: without the marker nothing found is trusted.
// What is unpacked: the binary, SwiftShader's GL libraries beside it (Chromium does not start without them, WebGL or
// not), and in Amazon Linux 2023 (Lambda) the libraries it needs, where the library's import already pointed
// LD_LIBRARY_PATH (<tmp>/al2023/lib). Not its fonts: ours come through fontconfig (fonts.ts). tar-fs is what the
// library itself unpacks its tarballs with.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { extract } from 'tar-fs';

export interface UnpackOptions {
  /** Where the binary goes (as the library's): default the temp dir. */
  dir?: string;
  /** The library's bin folder (chromium.br, swiftshader.tar.br, al2023.tar.br). */
  binDir?: string;
  /** Unpack the Amazon Linux 2023 libraries too. Default: when the library set LD_LIBRARY_PATH to them. */
  libraries?: boolean;
}

/** @sparticuz/chromium's bin folder (its package exports only its entry point, so found beside it). */
export const chromiumBinDir = () => join(dirname(require.resolve('@sparticuz/chromium')), '..', '..', 'bin');

/** Names of this process's unpacks in flight: under its pid, so never taken for a killed process's leftovers. */
const ours = new Set<string>();

/** A name of this process's own in `dir` for `name` (`.<name>.<pid>-<random>`), until `release`. */
function own(dir: string, name: string) {
  const base = `.${name}.${process.pid}-${randomBytes(4).toString('hex')}`;
  ours.add(base);
  return { path: join(dir, base), release: () => ours.delete(base) };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes what killed unpacks left behind (~200 MB each, and Lambda's /tmp is bounded): the files of processes no
 * longer running, and those under this process's pid that are not its own (a Lambda runtime restarted in its sandbox
 * may get the pid of the one that was killed).
 */
async function sweep(dir: string): Promise<void> {
  const left = (await readdir(dir)).filter((n) =>
    /^\.(chromium|chromium\.unpacked|al2023|al2023\.old|swiftshader)\.\d+-[0-9a-f]{8}$/.test(n),
  );
  await Promise.all(
    left.map(async (n) => {
      const pid = Number(/\.(\d+)-[0-9a-f]{8}$/.exec(n)![1]);
      if (ours.has(n) || (pid !== process.pid && alive(pid))) return;
      await rm(join(dir, n), { recursive: true, force: true });
    }),
  );
}

/** The marker's text: the package version and the binary's size (a binary of another size is not this one). */
async function expected(binDir: string, bytes: number): Promise<string> {
  const pkg = JSON.parse(await readFile(join(binDir, '..', 'package.json'), 'utf8')) as { version: string };
  return `@sparticuz/chromium ${pkg.version} ${bytes}\n`;
}

async function complete(dir: string, binDir: string): Promise<boolean> {
  try {
    const [marker, binary] = await Promise.all([
      readFile(join(dir, 'chromium.unpacked'), 'utf8'),
      stat(join(dir, 'chromium')),
    ]);
    return marker === (await expected(binDir, binary.size));
  } catch {
    return false; // no marker, no binary
  }
}

/** Writes `name` in `dir` through a file of this process's own, renamed into place. */
async function unpackFile(source: string, dir: string, name: string): Promise<void> {
  const temp = own(dir, name);
  try {
    await pipeline(
      createReadStream(source),
      createBrotliDecompress(),
      createWriteStream(temp.path, { mode: 0o700 }),
    );
    await rename(temp.path, join(dir, name));
  } finally {
    await rm(temp.path, { force: true });
    temp.release();
  }
}

/** Extracts a tarball into `dir`/`name` through a folder of this process's own, swapped into place. */
async function unpackFolder(source: string, dir: string, name: string): Promise<void> {
  const temp = own(dir, name);
  const old = own(dir, `${name}.old`);
  try {
    await pipeline(createReadStream(source), createBrotliDecompress(), extract(temp.path));
    // What is there was written without the marker (maybe torn): set aside, then replaced.
    await rename(join(dir, name), old.path).catch(() => undefined);
    await rename(temp.path, join(dir, name));
  } finally {
    await Promise.all([
      rm(temp.path, { recursive: true, force: true }),
      rm(old.path, { recursive: true, force: true }),
    ]);
    temp.release();
    old.release();
  }
}

/** Extracts a tarball's files into `dir` through a folder of this process's own, each renamed into place. */
async function unpackFiles(source: string, dir: string, name: string): Promise<void> {
  const temp = own(dir, name);
  try {
    await pipeline(createReadStream(source), createBrotliDecompress(), extract(temp.path));
    for (const file of await readdir(temp.path)) await rename(join(temp.path, file), join(dir, file));
  } finally {
    await rm(temp.path, { recursive: true, force: true });
    temp.release();
  }
}

async function unpack(options: UnpackOptions): Promise<string> {
  const dir = options.dir ?? tmpdir();
  const binDir = options.binDir ?? chromiumBinDir();
  const binary = join(dir, 'chromium');
  if (await complete(dir, binDir)) return binary;
  const libraries =
    options.libraries ??
    (process.env.LD_LIBRARY_PATH ?? '').split(':').includes(join(tmpdir(), 'al2023', 'lib'));
  await sweep(dir);
  await Promise.all([
    unpackFile(join(binDir, 'chromium.br'), dir, 'chromium'),
    // SwiftShader's GL libraries, which Chromium loads from beside itself even without WebGL: it does not start
    // without them ("Target closed").
    unpackFiles(join(binDir, 'swiftshader.tar.br'), dir, 'swiftshader'),
    libraries ? unpackFolder(join(binDir, 'al2023.tar.br'), dir, 'al2023') : undefined,
  ]);
  const marker = own(dir, 'chromium.unpacked');
  try {
    await writeFile(marker.path, await expected(binDir, (await stat(binary)).size));
    await rename(marker.path, join(dir, 'chromium.unpacked'));
  } finally {
    marker.release();
  }
  return binary;
}

let unpacked: Promise<string> | undefined;

/**
 * The path of a complete Chromium binary, unpacked on first use (3.4 s measured here) and then reused by this process and by
 * later processes on the same temp dir. A failed unpack is tried again by the next call.
 */
export function unpackedChromium(options: UnpackOptions = {}): Promise<string> {
  // Only the defaults are memoized for the process: any option asked (the tests') unpacks as asked.
  if (options.dir || options.binDir || options.libraries !== undefined) return unpack(options);
  unpacked ??= unpack(options);
  unpacked.catch(() => (unpacked = undefined));
  return unpacked;
}
