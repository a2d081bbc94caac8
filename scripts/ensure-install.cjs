// Runs before `npm start` and `npm test`, so a fresh clone needs only those two commands:
// 1. installs npm dependencies when node_modules is missing or older than the lockfile;
// 2. installs the Debian tools the tests use as independent checks (pdftotext, qpdf, LibreOffice Calc) and the
//    faster local speech engine (espeak-ng) when they are missing and this is a root Debian machine; otherwise says
//    what to install.
// Plain CommonJS: it must run before anything is installed.
const { existsSync, statSync } = require('node:fs');
const { execSync, spawnSync } = require('node:child_process');
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

const wantTools = process.argv.includes('--system');
if (wantTools) {
  // command → Debian package
  // soffice: the ventas XLSX must open in LibreOffice (converted to PDF in test/e2e/templates-ventas.test.ts);
  // the Calc-only, no-GUI package is the smallest that converts (~24 MB, ~25 s to install here).
  const tools = {
    pdftotext: 'poppler-utils',
    qpdf: 'qpdf',
    'espeak-ng': 'espeak-ng',
    soffice: 'libreoffice-calc-nogui',
  };
  const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  const missing = Object.entries(tools).filter(([cmd]) => !has(cmd));
  if (missing.length) {
    const pkgs = [...new Set(missing.map(([, pkg]) => pkg))].join(' ');
    const canApt = process.getuid?.() === 0 && has('apt-get');
    if (canApt) {
      console.log(`Installing ${pkgs} (apt-get)…`);
      const r = spawnSync(
        'sh',
        ['-c', `apt-get update -qq && apt-get install -y -qq --no-install-recommends ${pkgs}`],
        {
          stdio: 'inherit',
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        },
      );
      if (r.status !== 0)
        console.error(`Could not install ${pkgs}; install them yourself: apt-get install ${pkgs}`);
    } else {
      console.error(`Missing tools for the tests: ${pkgs}. Install them: sudo apt-get install ${pkgs}`);
    }
  }
}
