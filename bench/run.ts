// Runs every bench/*.bench.ts in sequence, each in its own Node process (no JIT or heap carried over), and
// fails if any of them fails. Each bench prints lines like `name: X ms vs baseline Y ms → ratio Z.ZZ×`,
// both measured in the same run on the same machine. Usage: npm run bench [-- filter]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const filter = process.argv[2] ?? '';
const files = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no bench/*.bench.ts matches "${filter}"`);
  process.exit(1);
}

let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`${file} failed (exit ${r.status ?? r.signal})`);
  }
}
process.exit(failed ? 1 : 0);
