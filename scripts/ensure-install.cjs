// Runs (through scripts/node22.cjs) before `npm start` and `npm test`, so a fresh clone needs only those two commands:
// 1. installs npm dependencies when node_modules is missing or older than the lockfile;
// 2. when the Node ABI recorded in node_modules/.native-abi is not the running Node's, rebuilds the native addons
//    (allowScripts packages with a binding.gyp: isolated-vm) that this Node cannot load, then records it;
// 3. with --system: installs the Debian tools the tests use as independent checks when they are missing and this is
//    a root Debian machine (an apt failure stops the run); otherwise says what to install, and in CI stops.
// Plain CommonJS: it must run before anything is installed.
const {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const { execFileSync, execSync, spawn, spawnSync } = require('node:child_process');
const { dirname, join } = require('node:path');

const root = join(__dirname, '..');
const inCi = !!process.env.CI && !/^(0|false)$/i.test(process.env.CI);

// What the tests need → how to check it is there, and the Debian packages that provide it.
const onPath = (cmd) => `command -v ${cmd}`;
const TOOLS = {
  python3: { check: onPath('python3'), pkgs: 'python3' }, // test helpers spawn python3 (three test files)
  // the Python client's type check (test/e2e/clients-python.test.ts): Debian's mypy for Debian's python3
  mypy: { check: '/usr/bin/python3 -m mypy --version', pkgs: 'python3-mypy' },
  openssl: { check: onPath('openssl'), pkgs: 'openssl' }, // the safe-fetch test makes its TLS certificates
  xmllint: { check: onPath('xmllint'), pkgs: 'libxml2-utils' }, // CFDI XML checked against its schema
  xsltproc: { check: onPath('xsltproc'), pkgs: 'xsltproc' }, // SAT's XSLT gives the reference cadena original in the CFDI tests
  // PDF text, fonts and attachments (pdftotext, pdffonts, pdfdetach, pdftoppm)
  pdftotext: { check: onPath('pdftotext'), pkgs: 'poppler-utils' },
  qpdf: { check: onPath('qpdf'), pkgs: 'qpdf' }, // PDF structure check
  zbarimg: { check: onPath('zbarimg'), pkgs: 'zbar-tools' }, // reads the QR codes of rendered CFDI pages
  'espeak-ng': { check: onPath('espeak-ng'), pkgs: 'espeak-ng' }, // the local speech engine's CLI
  // EBU R128 loudness (loudnorm/ebur128 filters) of narrations, decoded at the joins, as an independent meter
  ffmpeg: { check: onPath('ffmpeg'), pkgs: 'ffmpeg' },
  // LibreOffice opens the XLSX (Calc) and DOCX (Writer) outputs; the no-GUI packages are the smallest that convert.
  'LibreOffice Calc': {
    check: `${onPath('soffice')} && test -e /usr/lib/libreoffice/program/libsclo.so`,
    pkgs: 'libreoffice-calc-nogui',
  },
  'LibreOffice Writer': {
    check: `${onPath('soffice')} && test -e /usr/lib/libreoffice/program/libswlo.so`,
    pkgs: 'libreoffice-writer-nogui',
  },
};

function die(message) {
  console.error(`ensure-install: ${message}`);
  process.exit(1);
}

// Native addons compiled from source by their install script: isolated-vm's prebuilt binaries are on GitHub, which
// the CI machine cannot reach, so node-gyp compiles it (about a minute of both cores). `npm install` runs install
// scripts only once it has unpacked all ~1,250 packages (about as long again, mostly disk), so the two would add up.
// Instead each is compiled beside the unpacking, from the lockfile's version of its tarball (npm pack, npm's cache)
// in .cache/native/<name>; npm install runs with --ignore-scripts, then the other allowed packages' scripts run (npm
// rebuild) and the compiled files are copied in. If the early build fails, npm rebuild runs the package's own script.
const COMPILED_EARLY = ['isolated-vm'];

function nodeGyp() {
  const npm = realpathSync(execSync('command -v npm', { encoding: 'utf8' }).trim());
  return join(dirname(npm), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
}

/** Compiles `name` (the lockfile's version) in .cache/native; resolves to the built package folder, or undefined. */
function compileEarly(name, lockfile) {
  const version = lockfile.packages?.[`node_modules/${name}`]?.version;
  const dir = join(root, '.cache', 'native', name);
  const failed = (why) => {
    console.log(`${name}: not compiled early (${why}); npm rebuild compiles it after the install.`);
    return undefined;
  };
  if (!version) return Promise.resolve(failed('not in package-lock.json'));
  let pkg;
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const out = execFileSync(
      'npm',
      ['pack', `${name}@${version}`, '--prefer-offline', '--silent', '--pack-destination', dir],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    execFileSync('tar', ['xzf', join(dir, out.trim().split('\n').pop()), '-C', dir]);
    pkg = join(dir, 'package');
  } catch (err) {
    return Promise.resolve(failed(err.message));
  }
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(process.execPath, [nodeGyp(), 'rebuild', '--release', '-j', 'max'], {
      cwd: pkg,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (b) => (stderr = (stderr + b).slice(-4000)));
    child.on('error', (err) => resolve(failed(err.message)));
    child.on('exit', (code) => {
      if (code !== 0) return resolve(failed(`node-gyp exited ${code}:\n${stderr}`));
      rmSync(join(pkg, 'build'), { recursive: true, force: true }); // what the script's `node-gyp clean` removes
      resolve(pkg);
    });
  });
}

/** `cmd args` in the repository root, inheriting stdio; resolves with its exit status. */
function runInRoot(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (err) => die(`${cmd}: ${err.message}`));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function installDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  const stale =
    !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
  if (!stale) return;
  const lockfile = JSON.parse(readFileSync(lock, 'utf8'));
  const allowed = Object.entries(
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).allowScripts ?? {},
  )
    .filter(
      ([name, allow]) => allow === true && lockfile.packages?.[`node_modules/${name}`]?.hasInstallScript,
    )
    .map(([name]) => name);
  const early = allowed.filter((name) => COMPILED_EARLY.includes(name));
  const builds = early.map((name) => compileEarly(name, lockfile));
  // `npm install`, not `npm ci`: the lockfile pins every version, but npm 11 leaves other platforms' optional
  // binaries (@swc/core-darwin-*, …) out of it, which `npm ci` then rejects as "out of sync".
  console.log('Installing dependencies (npm install, versions from package-lock.json)…');
  const status = await runInRoot('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts']);
  if (status !== 0) die(`npm install failed (exit ${status}).`);
  const built = await Promise.all(builds);
  // Only the compiled files are new: the rest of the folder is the same tarball npm unpacked.
  early.forEach((name, i) => {
    if (!built[i]) return;
    cpSync(built[i], join(root, 'node_modules', name), { recursive: true, force: false });
    rmSync(join(built[i], '..'), { recursive: true, force: true });
  });
  const compiled = new Set(early.filter((_, i) => built[i]));
  const scripts = allowed.filter((name) => !compiled.has(name));
  if (scripts.length) {
    const r = await runInRoot('npm', ['rebuild', ...scripts]);
    if (r !== 0) die(`npm rebuild ${scripts.join(' ')} failed (exit ${r}).`);
  }
}

/** Packages allowed to run install scripts that build a native addon with node-gyp. */
function nativeAddons() {
  const { allowScripts = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys(allowScripts).filter(
    (name) => allowScripts[name] === true && existsSync(join(root, 'node_modules', name, 'binding.gyp')),
  );
}

function rebuildForThisNode() {
  const abiFile = join(root, 'node_modules', '.native-abi');
  const abi = `${process.versions.modules}-${process.platform}-${process.arch}`;
  const recorded = existsSync(abiFile) ? readFileSync(abiFile, 'utf8').trim() : '';
  if (recorded === abi) return;
  // No record or another ABI: rebuild the addons this Node cannot load (a fresh `npm install` on this Node built
  // them already, so they load and are only recorded).
  const loads = (name) =>
    spawnSync(process.execPath, ['-e', `require(${JSON.stringify(name)})`], { cwd: root, stdio: 'ignore' })
      .status === 0;
  const broken = nativeAddons().filter((name) => !loads(name));
  if (broken.length) {
    console.log(
      `Rebuilding ${broken.join(', ')} for Node ${process.version} (ABI ${process.versions.modules})…`,
    );
    const r = spawnSync('npm', ['rebuild', ...broken], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) die(`npm rebuild ${broken.join(' ')} failed (exit ${r.status}).`);
    const still = broken.filter((name) => !loads(name));
    if (still.length)
      die(`${still.join(', ')} still cannot be loaded by Node ${process.version} after a rebuild.`);
  }
  writeFileSync(abiFile, `${abi}\n`);
}

function installTools() {
  const has = (check) => spawnSync('sh', ['-c', check], { stdio: 'ignore' }).status === 0;
  const missing = Object.keys(TOOLS).filter((name) => !has(TOOLS[name].check));
  if (!missing.length) return;
  const pkgs = [...new Set(missing.flatMap((name) => TOOLS[name].pkgs.split(' ')))].join(' ');
  const canApt = process.getuid?.() === 0 && has(onPath('apt-get'));
  if (!canApt) {
    const message = `missing tools for the tests: ${missing.join(', ')}. Install them: sudo apt-get install ${pkgs}`;
    if (inCi) die(message);
    console.error(message);
    return;
  }
  console.log(`Installing ${pkgs} (apt-get)…`);
  const r = spawnSync(
    'sh',
    ['-c', `apt-get update -qq && apt-get install -y -qq --no-install-recommends ${pkgs}`],
    { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
  );
  if (r.status !== 0) die(`apt-get install ${pkgs} failed (exit ${r.status}); the tests need them.`);
  const still = missing.filter((name) => !has(TOOLS[name].check));
  if (still.length) die(`still missing after apt-get: ${still.join(', ')}.`);
}

async function ensureInstall({ system = false } = {}) {
  await installDependencies();
  rebuildForThisNode();
  if (system) installTools();
}

module.exports = { ensureInstall };
if (require.main === module) void ensureInstall({ system: process.argv.includes('--system') });
