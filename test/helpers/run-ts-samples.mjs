// Runs the compiled TypeScript samples of GET /api one after another in this one process (used by
// test/e2e/api-snippets.test.ts): `node run-ts-samples.mjs <plan.json> <report.json>`. The plan lists
// {name, file, env}; each sample gets its env (VOZ_API, VOZ_API_KEY, AUDIO_ID…) in process.env, then is imported,
// so its top-level await runs to the end or throws. The report names what ran and what failed (with the error).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [planFile, reportFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const report = { ran: [], failures: [] };
for (const { name, file, env } of plan) {
  Object.assign(process.env, env);
  try {
    await import(pathToFileURL(file).href);
    report.ran.push(name);
  } catch (err) {
    report.failures.push(`${name}: ${String(err?.stack ?? err).slice(0, 300)}`);
  }
}
writeFileSync(reportFile, JSON.stringify(report));
