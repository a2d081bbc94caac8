// Runs before `npm start` and `npm test`: installs dependencies when node_modules is missing or older than the
// lockfile, so a fresh clone needs only those two commands. Plain CommonJS: it must run before anything installs.
const { existsSync, statSync } = require('node:fs');
const { execSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
const stale =
  !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
if (stale) {
  // `npm install`, not `npm ci`: the lockfile pins every version, but npm 11 leaves other platforms' optional
  // binaries (@swc/core-darwin-*, …) out of it, which `npm ci` then rejects as "out of sync".
  console.log('Installing dependencies (npm install, versions from package-lock.json)…');
  execSync('npm install --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}
