// Every built-in template's sample.pdf through renderDocument with a warm Chromium renderer (what GET
// /templates/{slug}/sample.pdf and POST /v1/render do), per page, against a baseline measured in the same run: a
// one-page HTML document with a small table rendered by the same renderer (the floor of any PDF). The target (issue
// #6) is under one page-second for every sample. Then a 300-row ventas report per page, and the XLSX: the ventas
// workbook with its native charts against the same sheets without charts (what the chart post-processing adds).
// Usage: npm run bench -- templates
import { parseRenderRequest, renderDocument } from '../lambdas/documents/use-cases/render-request';
import { TEMPLATES } from '../lambdas/documents/domain/template-registry';
import { renderXlsx } from '../lambdas/documents/formats/xlsx';
import { largeVentas } from '../templates/ventas/examples';

import { ratioLine, time, warmRenderer } from './measure';

const REPS = 15;

/** Page objects in a PDF (Chromium writes one `/Type /Page` per page). */
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

const line = (name: string, ms: number, base: number) => ratioLine(name, ms, base, 1);

async function main(): Promise<void> {
  const { renderer, deps, close } = warmRenderer();
  const sample = (slug: string) => TEMPLATES.find((t) => t.meta.slug === slug)!.sample;
  const pdf = (slug: string, data: unknown) => () =>
    renderDocument(parseRenderRequest({ template: slug, format: 'pdf', data }), deps);
  try {
    const rows = Array.from(
      { length: 12 },
      (_, i) => `<tr><td>Producto ${i}</td><td>${i * 100}.00</td></tr>`,
    );
    const plain = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>x</title></head><body>
      <h1>Reporte</h1><table>${rows.join('')}</table></body></html>`;
    const base = await time(REPS, () => renderer.renderPdf(plain, { pageSize: 'A4' }));

    let worst = 0;
    for (const t of TEMPLATES) {
      const slug = t.meta.slug;
      const first = await pdf(slug, sample(slug))();
      const n = pageCount(first.bytes);
      const ms = await time(REPS, pdf(slug, sample(slug)));
      worst = Math.max(worst, ms / n);
      line(`${slug} sample.pdf per page (${n} page${n === 1 ? '' : 's'})`, ms / n, base);
    }
    console.log(`slowest sample: ${worst.toFixed(1)} ms per page (target: under 1,000 ms per page)`);
    if (worst >= 1000) process.exitCode = 1;
    const large = largeVentas(300);
    const one = await pdf('ventas', large)();
    const pages = pageCount(one.bytes);
    const ms = await time(5, pdf('ventas', large));
    line(`ventas 300 rows, per page (${pages} pages, ${ms.toFixed(0)} ms in all)`, ms / pages, base);

    // XLSX: the same sheets with and without native charts.
    const ventas = TEMPLATES.find((t) => t.meta.slug === 'ventas')!;
    const data = ventas.schema.parse(large);
    const sheets = ventas.sheets!(data as never);
    const model = { title: 't', baseName: 'ventas', html: '', data, sheets };
    const bare = { ...model, sheets: sheets.map((s) => ({ ...s, charts: [] })) };
    const noCharts = await time(REPS, () => renderXlsx(bare));
    line('ventas 300 rows xlsx with native charts', await time(REPS, () => renderXlsx(model)), noCharts);
  } finally {
    await close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
