// Runs a command on Node 22, the Node that Lambda runs (nodejs22.x), whatever Node launched it:
//   node scripts/node22.cjs [--system] <command> [args…]
// 1. On Node < 22 it installs the npm package node-${platform}-${arch}@22 (the official binary and its headers)
//    into .cache/node22 once, then re-runs itself on that binary with PATH starting at its bin/ (so `npm`, `tsx`,
//    `jest` and every `#!/usr/bin/env node` script run on it too) and npm_config_nodedir at the package folder (so
//    node-gyp builds native addons against its headers, offline).
// 2. On Node ≥ 22 it runs scripts/ensure-install.cjs (npm dependencies, native addons rebuilt for this Node's ABI,
//    and with --system the Debian tools the tests use), then the command, and exits with the command's status.
// Plain CommonJS: it runs before anything is installed.
const { existsSync } = require('node:fs');
const { spawnSync, spawn } = require('node:child_process');
const { join, delimiter } = require('node:path');

const MAJOR = 22;
const root = join(__dirname, '..');
const cacheDir = join(root, '.cache', `node${MAJOR}`);
const pkgName = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const pkgDir = join(cacheDir, 'node_modules', pkgName);
const binDir = join(pkgDir, 'bin');
const nodeBin = join(binDir, process.platform === 'win32' ? 'node.exe' : 'node');

function fail(message) {
  console.error(`node22: ${message}`);
  process.exit(1);
}

function installNode() {
  if (existsSync(nodeBin)) return;
  console.log(`Installing Node ${MAJOR} (${pkgName}@${MAJOR} from npm) into ${cacheDir}…`);
  const r = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      cacheDir,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      `${pkgName}@${MAJOR}`,
    ],
    { stdio: 'inherit', shell: process.platform === 'win32' },
  );
  if (r.status !== 0 || !existsSync(nodeBin))
    fail(`could not install ${pkgName}@${MAJOR} (npm exited ${r.status}).`);
}

/** Runs `cmd args` with inherited stdio; forwards Ctrl-C/termination to it and exits with its status. */
function run(cmd, args, env) {
  const child = spawn(cmd, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  const forward = (signal) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  child.on('error', (err) => fail(`${cmd}: ${err.message}`));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}

const args = process.argv.slice(2);
const system = args[0] === '--system';
if (system) args.shift();
if (args.length === 0) fail('usage: node scripts/node22.cjs [--system] <command> [args…]');

if (Number(process.versions.node.split('.')[0]) < MAJOR) {
  installNode();
  const env = {
    ...process.env,
    PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: pkgDir,
    npm_node_execpath: nodeBin,
    NODE: nodeBin,
  };
  run(nodeBin, [__filename, ...process.argv.slice(2)], env);
} else {
  require('./ensure-install.cjs')
    .ensureInstall({ system })
    .then(() => run(args[0], args.slice(1), process.env));
}
