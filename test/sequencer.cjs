// Jest's test order: the slowest files first, so that no worker is left with a long file at the end
// of the run. Jest's default sequencer knows durations only from its cache of earlier runs on the same machine; on a
// clean clone (CI) it falls back to file size, which put long files last. Here a file jest has no time for takes the
// time committed in test/timings.json (seconds per repository-relative path, written from a run's JSON report by
// `node scripts/test-report.cjs <report.json> --write-timings`); a file in neither counts as quick.
// The artifact files wait for the background `cdk synth` (test/artifact/prepare.ts) before their first test: they go
// after the two slowest other files, so that both workers have other work while esbuild bundles.
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = join(__dirname, '..');
let committed = {};
try {
  committed = JSON.parse(readFileSync(join(__dirname, 'timings.json'), 'utf8'));
} catch {
  // No timings file: jest's own cache and file sizes decide, as by default.
}

const isArtifact = (test) => relative(ROOT, test.path).startsWith('test/artifact/');

class SlowestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const others = sorted.filter((t) => !isArtifact(t));
    return [...others.slice(0, 2), ...sorted.filter(isArtifact), ...others.slice(2)];
  }

  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const seconds = committed[relative(ROOT, test.path)];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

module.exports = SlowestFirst;
