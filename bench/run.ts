// Runs every bench/*.bench.ts in sequence, each in its own Node process (no JIT or heap carried over), and
// fails if any of them fails. Each bench prints lines like `name: X ms vs baseline Y ms → ratio Z.ZZ×`,
// both measured in the same run on the same machine. Starts with the machine (CPU model, cores, Node) and ends with
// a summary of every ratio line, ready for docs/performance.md. Usage: npm run bench [-- filter]
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';

const filter = process.argv[2] ?? '';
const files = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no bench/*.bench.ts matches "${filter}"`);
  process.exit(1);
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    return line?.split(':')[1]?.trim() ?? 'unknown CPU';
  } catch {
    return 'unknown CPU';
  }
}

/** Runs one bench, echoing its output as it comes, and returns its exit code and the ratio lines it printed. */
function runOne(file: string): Promise<{ code: number | null; ratios: string[] }> {
  return new Promise((resolve) => {
    // --no-node-snapshot: isolated-vm (template sandbox, documents runtime) on Node >= 20.
    const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', join(__dirname, file)], {
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    const ratios: string[] = [];
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      ratios.push(...lines.filter((l) => l.includes('→ ratio') && !l.startsWith('#')));
    });
    child.on('close', (code) => {
      if (partial.includes('→ ratio')) ratios.push(partial);
      resolve({ code, ratios });
    });
  });
}

(async () => {
  console.log(
    `# machine: ${cpuModel()}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
      `Node ${process.version}, ${new Date().toISOString()}`,
  );
  let failed = 0;
  const summary: string[] = [];
  for (const file of files) {
    console.log(`\n== ${file}`);
    const t = performance.now();
    const { code, ratios } = await runOne(file);
    console.log(`# ${file}: ${((performance.now() - t) / 1000).toFixed(0)} s`);
    summary.push(`${file}:`, ...ratios.map((r) => `  ${r}`));
    if (code !== 0) {
      failed++;
      summary.push(`  FAILED (exit ${code})`);
      console.error(`${file} failed (exit ${code})`);
    }
  }
  console.log(`\n== summary (${files.length} benchmarks, ${failed} failed)`);
  for (const line of summary) console.log(line);
  process.exit(failed ? 1 : 0);
})();
