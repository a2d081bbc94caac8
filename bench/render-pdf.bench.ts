// Invoice PDF through the Chromium renderer (warm: browser started, pages pooled) against the plain way in the same
// run: raw puppeteer setContent + pdf of the same HTML on a reused page of a browser started from the same binary
// with the same flags and fonts (a separate browser process: the renderer does not hand its own out), the HTML with
// the renderer's print-only stylesheet too (withoutScreenLayout). The ratio is what the containment (interception,
// CSP header, synthetic origin, navigation checks) costs per render.
// Then the free-tier watermark's cost, and throughput at concurrency 1/2/4 against concurrency 1, for the default
// single-process browser (what Lambda runs) and for a multi-process one.
import chromium from '@sparticuz/chromium';
import { unpackedChromium } from '../lambdas/documents/render/unpack';
import puppeteer from 'puppeteer-core';
import { Renderer } from '../lambdas/documents/render/chromium';
import { launchArgs, withoutScreenLayout } from '../lambdas/documents/render/containment';
import { resolveFontsDir, writeFontconfig } from '../lambdas/documents/render/fonts';

const REPS = 40;
const THROUGHPUT_RENDERS = 60;

const rows = Array.from(
  { length: 12 },
  (_, i) =>
    `<tr><td>${i + 1}</td><td>Servicio de consultoría nº ${i + 1} — diseño y revisión</td><td class="n">${(i % 3) + 1}</td>` +
    `<td class="n">$ ${(1250.5 * (i + 1)).toLocaleString('es-MX', { minimumFractionDigits: 2 })}</td></tr>`,
).join('');
const INVOICE = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Factura A-1043</title><style>
  body { font-family: 'Noto Sans', sans-serif; font-size: 10pt; color: #222; }
  header { display: flex; justify-content: space-between; border-bottom: 2px solid #1f4e79; }
  h1 { font-family: 'Noto Serif', serif; color: #1f4e79; }
  table { width: 100%; border-collapse: collapse; margin-top: 12px; }
  th { background: #1f4e79; color: #fff; text-align: left; padding: 4px; }
  td { padding: 4px; border-bottom: 1px solid #ddd; } td.n { text-align: right; }
  .sello { font-family: monospace; font-size: 7pt; word-break: break-all; color: #555; }
</style></head><body>
<header><div><h1>Factura</h1><p>Serie A · Folio 1043</p></div>
<div><p><b>Emisor:</b> Panadería Núñez, S.A. de C.V.<br>RFC PNU010101AB1<br>Régimen 601</p></div></header>
<p><b>Receptor:</b> José Ángel Muñoz · RFC MUJA800101XX1 · Uso CFDI G03</p>
<table><thead><tr><th>#</th><th>Concepto</th><th>Cant.</th><th>Importe</th></tr></thead><tbody>${rows}</tbody></table>
<p style="text-align:right"><b>Total: $ 97,539.00 MXN</b> (noventa y siete mil quinientos treinta y nueve pesos 00/100)</p>
<p class="sello">Sello digital: ${'A1b2C3d4E5f6G7h8I9j0'.repeat(12)}</p>
</body></html>`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeEach(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Renders per second with `concurrency` callers sharing THROUGHPUT_RENDERS renders; median of 3 runs. */
async function throughput(renderer: Renderer, concurrency: number): Promise<number> {
  const runs: number[] = [];
  for (let run = 0; run < 3; run++) {
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < THROUGHPUT_RENDERS) await renderer.renderPdf(INVOICE);
      }),
    );
    runs.push((THROUGHPUT_RENDERS * 1000) / (performance.now() - t));
  }
  return median(runs);
}

(async () => {
  // --- warm render vs raw puppeteer ---
  const renderer = new Renderer({ poolSize: 4 });
  const coldT = performance.now();
  await renderer.renderPdf(INVOICE);
  const cold = performance.now() - coldT;
  const unpack = renderer.stats().unpackMs;
  await timeEach(5, () => renderer.renderPdf(INVOICE)); // warm-up

  const raw = await puppeteer.launch({
    executablePath: await unpackedChromium(),
    headless: 'shell',
    pipe: true,
    args: launchArgs(chromium.args, { singleProcess: true }),
    env: { ...process.env, FONTCONFIG_FILE: writeFontconfig(resolveFontsDir()) },
  });
  const page = await raw.newPage();
  const rawHtml = withoutScreenLayout(INVOICE, false);
  const rawPdf = async () => {
    await page.setContent(rawHtml, { waitUntil: 'load' });
    return page.pdf({
      format: 'A4',
      printBackground: true,
      margin: { top: '10mm', bottom: '10mm', left: '10mm', right: '10mm' },
    });
  };
  await timeEach(5, rawPdf);

  // Interleave so drift (other load on the machine) hits both alike.
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < REPS; i++) {
    ours.push(...(await timeEach(1, () => renderer.renderPdf(INVOICE))));
    base.push(...(await timeEach(1, rawPdf)));
  }
  await raw.close();
  const o = median(ours);
  const b = median(base);
  console.log(
    `render-pdf warm invoice: ${o.toFixed(1)} ms vs baseline ${b.toFixed(1)} ms → ratio ${(o / b).toFixed(2)}×`,
  );
  console.log(
    `# first render in this process ${cold.toFixed(0)} ms (browser start${unpack ? `, Chromium unpacked in ${unpack} ms` : '; Chromium already unpacked in the temp dir'}); median of ${REPS}`,
  );

  // --- watermark cost ---
  const marked = median(
    await timeEach(REPS, () => renderer.renderPdf(INVOICE, { watermark: 'Plan gratuito' })),
  );
  const plain = median(await timeEach(REPS, () => renderer.renderPdf(INVOICE)));
  console.log(
    `render-pdf with watermark: ${marked.toFixed(1)} ms vs baseline ${plain.toFixed(1)} ms → ratio ${(marked / plain).toFixed(2)}×`,
  );

  // --- throughput at concurrency 1/2/4 ---
  for (const [label, r] of [
    ['single-process', renderer],
    ['multi-process', new Renderer({ poolSize: 4, singleProcess: false })],
  ] as const) {
    await throughput(r, 2); // warm the pages
    const one = await throughput(r, 1);
    for (const c of [2, 4]) {
      const rps = await throughput(r, c);
      console.log(
        `render-pdf throughput ${label} concurrency ${c}: ${(1000 / rps).toFixed(1)} ms per render vs baseline ${(1000 / one).toFixed(1)} ms at concurrency 1 → ratio ${(one / rps).toFixed(2)}× (${rps.toFixed(1)} vs ${one.toFixed(1)} renders/s)`,
      );
    }
    await r.close();
  }
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
