// Cold start and size of every Lambda (both manifests, routes and workers), bundled exactly as the stacks bundle them
// (scripts/bundle-report.ts): bytes raw and gzip, and cold-start time = a fresh `node` process requiring the bundle
// (start + module initialisation + exit, median of RUNS) against the same process requiring an empty module, measured
// right after each function; the module-init part alone (the require inside the process) is printed beside it.
// Flags light API functions (≤ 256 MB) whose bundle is over LIGHT_MAX_BYTES, and lists the heavy packages each bundle
// carries (bundled is not evaluated: lazily required modules cost parse time and bytes only). Ends with a memory floor
// per function from the measured resident set after init.
// Run: npm run bench -- cold-start   (COLD_START_FILTER=narration/ to narrow; COLD_START_RUNS=5)
import { availableParallelism } from 'node:os';
import {
  HEAVY_PACKAGES,
  bundle,
  emptyModule,
  makeOutDir,
  measureInit,
  targets,
  type Target,
} from '../scripts/bundle-report';

const RUNS = Number(process.env.COLD_START_RUNS ?? 3);
const FILTER = process.env.COLD_START_FILTER ?? '';
/** A light API function (≤ 256 MB: no synthesis, no rendering) should ship well under this. */
const LIGHT_MAX_BYTES = 1024 * 1024;
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

/**
 * Memory floor from measurement: twice the resident set after init (room for the request's own work), rounded up to
 * 64 MB, at least 128 MB. Lambda gives CPU in proportion to memory, so a floor below the manifest is not a reason to
 * lower it (latency); a floor above it is a reason to raise it. Functions whose work dwarfs their init (synthesis,
 * PDF, Chromium: WORK_SIZED) are sized by that work; for them the floor only says what init alone takes.
 */
function floorMb(rssMb: number): number {
  return Math.max(128, Math.ceil((2 * rssMb) / 64) * 64);
}
const WORK_SIZED = /ConvertText|ConvertPdf|ConvertUrl|DemoTry|Worker|Render|TemplateSample/;

async function main(): Promise<void> {
  const out = makeOutDir();
  try {
    const emptyFile = emptyModule(out.path);
    const rows: { t: Target; rssMb: number }[] = [];
    let flagged = 0;
    for (const t of targets().filter((x) => `${x.service}/${x.id}`.includes(FILTER))) {
      const b = await bundle(t, out.path);
      const init = measureInit(b.file, RUNS, t.nodeOptions, out.path, t.env);
      // The baseline is measured right after each function, so load from elsewhere on the machine hits both alike.
      const empty = measureInit(emptyFile, RUNS, t.nodeOptions, out.path);
      const light = t.memoryMb <= 256 && t.kind === 'route';
      const over = light && b.bytes > LIGHT_MAX_BYTES;
      if (over) flagged++;
      const heavy = b.packages.filter(([p]) => HEAVY_PACKAGES.includes(p)).map(([p, n]) => `${p} ${kb(n)}`);
      console.log(
        `cold-start ${t.service}/${t.id} (${t.packaging}, ${t.memoryMb} MB, ${kb(b.bytes)}, gzip ${kb(b.gzipBytes)}): ` +
          `${init.processMs.toFixed(0)} ms vs baseline empty module ${empty.processMs.toFixed(0)} ms → ratio ` +
          `${(init.processMs / empty.processMs).toFixed(1)}× (module init ${init.requireMs.toFixed(0)} ms, rss ` +
          `${init.rssMb.toFixed(0)} MB)${over ? ' FLAG: light function over ' + kb(LIGHT_MAX_BYTES) : ''}`,
      );
      if (heavy.length) console.log(`#   bundled heavy packages: ${heavy.join(', ')}`);
      rows.push({ t, rssMb: init.rssMb });
    }
    console.log(
      `# memory floor = 2 × rss after init, rounded up to 64 MB (* = sized by its work, see header):`,
    );
    let raise = 0;
    for (const { t, rssMb } of rows) {
      const floor = floorMb(rssMb);
      const low = t.memoryMb < floor;
      if (low) raise++;
      console.log(
        `#   ${t.service}/${t.id}${WORK_SIZED.test(t.id) ? ' *' : ''}: init rss ${rssMb.toFixed(0)} MB, floor ${floor} MB, ` +
          `manifest ${t.memoryMb} MB → ${low ? `RAISE to ≥ ${floor} MB` : 'ok'}`,
      );
    }
    if (raise) console.log(`# ${raise} function(s) below their memory floor`);
    console.log(
      `# ${flagged} light function(s) over ${kb(LIGHT_MAX_BYTES)}; median of ${RUNS} fresh processes each; ` +
        `${availableParallelism()} cores shared with other work (absolute ms vary; ratios within a run compare)`,
    );
  } finally {
    out.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
