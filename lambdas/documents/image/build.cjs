#!/usr/bin/env node
// The ONE list of build steps of the documents container image (lambdas/documents/Dockerfile), run by the Dockerfile
// and by the artifact tests (test/artifact/image.test.ts), so what is tested is built the way the image is:
//
//   node lambdas/documents/image/build.cjs bundle <outDir> [entries...]
//       One esbuild bundle per image handler, repository layout kept (<outDir>/lambdas/documents/handlers/render.js,
//       whose CMD is lambdas/documents/handlers/render.handler), the EXTERNALS left out. Entries default to
//       $HANDLER_ENTRIES (CDK passes the manifest's image handlers as that build arg). FILES_BESIDE_BUNDLES are
//       copied into each bundle's folder.
//   node lambdas/documents/image/build.cjs externals <outDir>
//       <outDir>/package.json listing only the EXTERNALS, at the versions package-lock.json resolves, and
//       <outDir>/package-lock.json: the repository lockfile cut to them and their dependencies, so `npm ci` installs
//       exactly the tested versions (and nothing else) into the runtime image.
//   node lambdas/documents/image/build.cjs check <dir>
//       Loads every external (and the files read from them at run time) as installed under <dir>/node_modules:
//       a native addon built for another Node, or a missing file, fails here rather than in Lambda.
//   node lambdas/documents/image/build.cjs runtime-files
//       Prints "<source> <destination>" lines: what the runtime stage copies next to the bundles.
//
// Plain CommonJS with no dependencies but Node and esbuild: it runs in the Docker builder stage before any install.
'use strict';

const { spawnSync } = require('node:child_process');
const { copyFileSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { basename, dirname, join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..', '..', '..');

/**
 * Packages left out of the bundle and installed in the image instead: Chromium and puppeteer read files next to
 * their own code, isolated-vm is a native addon, and nunjucks/decimal.js sources are read from node_modules at run
 * time (lambdas/documents/templating/realm-sources.ts: require.resolve('nunjucks/browser/nunjucks.js'), ...).
 */
const EXTERNALS = ['@sparticuz/chromium', 'puppeteer-core', 'isolated-vm', 'nunjucks', 'decimal.js'];

/** Install scripts the runtime install may run (npm >= 11 asks): isolated-vm builds its addon. */
const ALLOW_SCRIPTS = { 'isolated-vm': true };

/**
 * esbuild flags. --outbase=. keeps the repository layout; --keep-names: error classes set
 * `this.name = new.target.name` (lambdas/shared/http/errors.ts); Node 22 is Lambda's runtime.
 */
function esbuildArgs(entries, outDir) {
  return [
    ...entries,
    '--bundle',
    '--platform=node',
    '--target=node22',
    '--format=cjs',
    '--minify',
    '--keep-names',
    '--sourcemap',
    '--sources-content=false',
    '--outbase=.',
    `--outdir=${outDir}`,
    '--log-level=warning',
    ...EXTERNALS.map((p) => `--external:${p}`),
  ];
}

/** Files the code resolves inside the externals at run time (realm-sources.ts). */
const RUNTIME_RESOLVES = ['nunjucks/browser/nunjucks.js', 'decimal.js/decimal.js'];

/**
 * Read at run time from beside the running code, so copied into each handler bundle's folder: the template realm's
 * scripts (REALM_SCRIPT_FILES of lambdas/documents/templating/realm-sources.ts).
 */
const FILES_BESIDE_BUNDLES = [
  'lambdas/documents/templating/realm-format.js',
  'lambdas/documents/templating/realm-bootstrap.js',
];

/** Read at run time, copied next to the bundles: template sources and partials, the fonts (with their licence). */
const RUNTIME_FILES = [
  ['templates', 'templates'],
  ['lambdas/documents/fonts', 'fonts'],
];

function esbuildBinary() {
  try {
    return require.resolve('esbuild/bin/esbuild', { paths: [ROOT] });
  } catch {
    return 'esbuild'; // the Dockerfile installs the lockfile's version globally
  }
}

function bundle(outDir, entries) {
  if (entries.length === 0) entries = (process.env.HANDLER_ENTRIES || '').split(/\s+/).filter(Boolean);
  if (entries.length === 0) throw new Error('bundle: no entries (pass them or set HANDLER_ENTRIES)');
  const result = spawnSync(esbuildBinary(), esbuildArgs(entries, resolve(outDir)), {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`esbuild failed (${result.status ?? result.error})`);
  for (const entry of entries)
    for (const file of FILES_BESIDE_BUNDLES)
      copyFileSync(join(ROOT, file), join(resolve(outDir), dirname(entry), basename(file)));
}

/** Lockfile path of the package `name` as seen from the package at `from` (Node's lookup, nearest first). */
function lookup(packages, from, name) {
  for (let dir = from; ;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

/** The externals' closure in the lockfile: { rootDependencies, packages } (paths → lock entries). */
function cutLockfile(lock, externals = EXTERNALS) {
  const packages = lock.packages;
  const dependencies = {};
  const keep = new Map();
  const queue = [];
  for (const name of externals) {
    const path = `node_modules/${name}`;
    if (!packages[path]) throw new Error(`${name} is not in package-lock.json`);
    dependencies[name] = packages[path].version;
    queue.push(path);
  }
  while (queue.length) {
    const path = queue.shift();
    if (keep.has(path)) continue;
    const entry = packages[path];
    keep.set(path, entry);
    const deps = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const name of Object.keys(deps)) {
      const found = lookup(packages, path, name);
      if (found) queue.push(found);
      else if (
        !(entry.optionalDependencies && name in entry.optionalDependencies) &&
        !entry.peerDependenciesMeta?.[name]?.optional
      )
        throw new Error(`${path} needs ${name}, which package-lock.json does not hold`);
    }
  }
  const kept = {};
  for (const path of [...keep.keys()].sort()) {
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = keep.get(path);
    kept[path] = entry;
  }
  return { dependencies, packages: kept };
}

function externals(outDir) {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const cut = cutLockfile(lock);
  const pkg = {
    name: 'documents-image',
    version: '1.0.0',
    private: true,
    dependencies: cut.dependencies,
    allowScripts: ALLOW_SCRIPTS,
  };
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const cutLock = {
    name: pkg.name,
    version: pkg.version,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: pkg.name, version: pkg.version, dependencies: cut.dependencies },
      ...cut.packages,
    },
  };
  writeFileSync(join(outDir, 'package-lock.json'), `${JSON.stringify(cutLock, null, 2)}\n`);
}

function check(dir) {
  const paths = [resolve(dir)];
  for (const name of EXTERNALS) require(require.resolve(name, { paths }));
  for (const file of RUNTIME_RESOLVES) require.resolve(file, { paths });
  console.log(
    `build.cjs check: ${EXTERNALS.length} externals and ${RUNTIME_RESOLVES.length} files load from ${dir}`,
  );
}

module.exports = {
  EXTERNALS,
  FILES_BESIDE_BUNDLES,
  RUNTIME_FILES,
  RUNTIME_RESOLVES,
  esbuildArgs,
  cutLockfile,
  bundle,
  externals,
  check,
};

if (require.main === module) {
  const [command, outDir, ...rest] = process.argv.slice(2);
  try {
    if (command === 'bundle' && outDir) bundle(outDir, rest);
    else if (command === 'externals' && outDir) externals(outDir);
    else if (command === 'check' && outDir) check(outDir);
    else if (command === 'runtime-files')
      for (const [from, to] of RUNTIME_FILES) console.log(`${from} ${to}`);
    else {
      console.error(
        'usage: build.cjs bundle <outDir> [entries...] | externals <outDir> | check <dir> | runtime-files',
      );
      process.exit(2);
    }
  } catch (err) {
    console.error(`build.cjs ${command}: ${err.message}`);
    process.exit(1);
  }
}
