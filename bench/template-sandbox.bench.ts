// The factura template rendered in the sandbox (isolated-vm: one pooled isolate, a fresh context per render, the
// engine re-evaluated in it, the template compiled in it) against in-process nunjucks on the same template and data
// (the trusted node:vm realm with the same filters, compiled template cached, as built-in templates render).
// Also prints the cold start (new isolate + engine compile) and the in-process cost without the compile cache.
// Run: npm run bench -- template-sandbox   (NODE_OPTIONS=--no-node-snapshot, as isolated-vm asks on Node ≥ 20)
import { loadSource, builtInPartials, findTemplate } from '../lambdas/documents/domain/template-registry';
import { TemplateSandbox } from '../lambdas/documents/templating/sandbox';
import { renderTrusted } from '../lambdas/documents/templating/trusted';

const REPS = 60;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main(): Promise<void> {
  const t = findTemplate('factura')!;
  const view = t.view(t.schema.parse(t.sample) as never);
  const { source, hash } = loadSource('factura');
  const partials = builtInPartials();

  // Cold start: a new isolate, engine scripts compiled, first render.
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) {
    const sb = new TemplateSandbox();
    cold.push(await time(() => sb.warm()));
    sb.dispose();
  }

  const sandbox = new TemplateSandbox();
  sandbox.warm();
  const key = `factura@${hash}`;
  // Warm-up (JIT, compile caches), not measured.
  for (let i = 0; i < 10; i++) {
    await sandbox.render(source, view, { partials });
    renderTrusted(source, view, partials, key);
  }
  const a = await sandbox.render(source, view, { partials });
  const b = renderTrusted(source, view, partials, key);
  if (a !== b) throw new Error('sandbox and in-process renders differ');

  const sandboxed: number[] = [];
  const inProcess: number[] = [];
  const inProcessNoCache: number[] = [];
  for (let i = 0; i < REPS; i++) {
    sandboxed.push(await time(() => sandbox.render(source, view, { partials })));
    inProcess.push(await time(() => renderTrusted(source, view, partials, key)));
    inProcessNoCache.push(await time(() => renderTrusted(source, view, partials)));
  }
  const emptyCtx: number[] = [];
  for (let i = 0; i < REPS; i++) emptyCtx.push(await time(() => sandbox.render('', {}, {})));
  sandbox.dispose();

  const s = median(sandboxed);
  const p = median(inProcess);
  const pn = median(inProcessNoCache);
  console.log(
    `factura html, sandboxed: ${s.toFixed(2)} ms vs baseline in-process ${p.toFixed(2)} ms → ratio ${(s / p).toFixed(2)}×`,
  );
  console.log(
    `factura html, in-process compiling every time: ${pn.toFixed(2)} ms vs baseline cached ${p.toFixed(2)} ms → ratio ${(pn / p).toFixed(2)}×`,
  );
  console.log(
    `sandbox fixed cost (fresh context + engine, empty template): ${median(emptyCtx).toFixed(2)} ms vs baseline factura sandboxed ${s.toFixed(2)} ms → ratio ${(median(emptyCtx) / s).toFixed(2)}×`,
  );
  console.log(
    `sandbox cold start (new isolate + engine compile): ${median(cold).toFixed(1)} ms vs baseline one warm render ${s.toFixed(2)} ms → ratio ${(median(cold) / s).toFixed(1)}×`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
