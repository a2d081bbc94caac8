// Reads Jest's JSON report (`jest --json --outputFile=<file>`) and prints where the suite's time went: seconds per
// project (the sum of its files' times, and their count) and the 15 slowest files, then the one closing line CI reads:
// `N passed, M failed, K skipped` (K counts skipped and todo tests; a missing or unreadable report counts as a failure).
//   node scripts/test-report.cjs <report.json> [--top N] [--write-timings]
// --write-timings also writes each file's seconds to test/timings.json, the order test/sequencer.cjs runs files in on
// a clean clone (slowest first).
// Plain CommonJS: it runs on whatever Node launched CI.
const { readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const [file, ...rest] = process.argv.slice(2);
const topIndex = rest.indexOf('--top');
const top = topIndex >= 0 ? Number(rest[topIndex + 1]) : 15;
const writeTimings = rest.includes('--write-timings');

let report = {};
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  // No report: jest did not run (install, type check or lint failed); the closing line says so.
}

const root = process.cwd();
/** The repository-relative path (`test/<project>/…`), also for a report written by another checkout. */
const repoPath = (path) => /(?:^|\/)(test\/.*)$/.exec(path)?.[1] ?? relative(root, path);
/** test/<project>/… → project (the jest projects are the folders under test/). */
const projectOf = (path) => repoPath(path).split('/')[1] ?? 'other';
const files = (report.testResults ?? []).map((r) => ({
  path: repoPath(r.name),
  project: projectOf(r.name),
  seconds: Math.max(0, (r.endTime - r.startTime) / 1000) || 0,
  tests: (r.assertionResults ?? []).length,
  failed: r.status === 'failed',
}));

if (files.length) {
  const projects = new Map();
  for (const f of files) {
    const p = projects.get(f.project) ?? { seconds: 0, files: 0, tests: 0 };
    p.seconds += f.seconds;
    p.files += 1;
    p.tests += f.tests;
    projects.set(f.project, p);
  }
  const lastEnd = Math.max(...(report.testResults ?? []).map((r) => r.endTime ?? 0));
  const wall = report.startTime && lastEnd > 0 ? (lastEnd - report.startTime) / 1000 : undefined;
  console.log(
    '\nTime per project (sum of its files; files run side by side, so the sum exceeds the wall time):',
  );
  for (const [name, p] of [...projects].sort((a, b) => b[1].seconds - a[1].seconds))
    console.log(
      `  ${name.padEnd(12)} ${p.seconds.toFixed(1).padStart(8)} s  ${String(p.files).padStart(4)} files  ${String(p.tests).padStart(5)} tests`,
    );
  if (wall !== undefined)
    console.log(`  jest wall time ${wall.toFixed(1)} s (from its start to the end of its last file)`);
  console.log(`\n${Math.min(top, files.length)} slowest files:`);
  for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, top))
    console.log(`  ${f.seconds.toFixed(1).padStart(8)} s  ${f.path}${f.failed ? '  (failed)' : ''}`);
  console.log('');
}

if (writeTimings && files.length) {
  const timings = Object.fromEntries(
    [...files]
      .sort((a, b) => a.path.localeCompare(b.path))
      .map((f) => [f.path, Math.round(f.seconds * 10) / 10]),
  );
  writeFileSync(join(root, 'test', 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
  console.log(`test/timings.json: ${files.length} files`);
}

const passed = report.numPassedTests ?? 0;
const failed =
  (report.numFailedTests ?? 0) +
  (report.numRuntimeErrorTestSuites ?? 0) +
  (report.numTotalTests === undefined ? 1 : 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
