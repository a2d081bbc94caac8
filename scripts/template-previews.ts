// Regenerates the PNG previews of the built-in templates' samples in docs/templates/ (issue #6): each preview is
// rendered exactly as POST /v1/render would (renderDocument + the warm Chromium renderer, no watermark), then
// `pdftoppm -png -r 60 -singlefile` writes page 1 to `<name>.png` and page 2 (when there is one) to `<name>-2.png`.
//
//   NODE_OPTIONS=--no-node-snapshot npx tsx scripts/template-previews.ts [slug ...]
//
// Without arguments every entry below is rendered; with slugs, only theirs. To add a template, add entries to
// PREVIEWS (one per sample/page size worth showing). Needs pdftoppm (Debian poppler-utils).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderDocument, validateRenderRequest } from '../lambdas/documents/use-cases/render-request';
import { findTemplate } from '../lambdas/documents/domain/template-registry';
import { Renderer } from '../lambdas/documents/render/chromium';
import { balanceLargo, balanceSinComparativo } from '../templates/balance/examples';
import { largeVentas } from '../templates/ventas/examples';
import { borradorUsd, largeFactura, marcaEjemplo } from '../templates/factura/examples';

export interface Preview {
  /** Template slug. */
  slug: string;
  /** File name without extension in docs/templates/ (default: the slug). */
  name?: string;
  /** Data (default: the template's sample). */
  data?: unknown;
  /** Instead of data: a CFDI XML file under test/fixtures/cfdi (the printed representation of a stamped CFDI). */
  cfdiXml?: string;
  /** Render options (page_size, landscape…). */
  options?: Record<string, unknown>;
  /** Also write page 2 as `<name>-2.png` when the PDF has one (default true). */
  secondPage?: boolean;
}

export const PREVIEWS: Preview[] = [
  { slug: 'factura' },
  { slug: 'factura', name: 'factura-a4', options: { page_size: 'A4' }, secondPage: false },
  { slug: 'factura', name: 'factura-borrador', data: borradorUsd },
  { slug: 'factura', name: 'factura-60', data: largeFactura(findTemplate('factura')!.sample as never, 60) },
  // options.marca: logo, colour, notes, footer legend (issue #25).
  { slug: 'factura', name: 'factura-marca', options: { marca: marcaEjemplo } },
  // The same brand on a stamped CFDI printed from its XML: a freight invoice with its Carta Porte 3.1 (page 2).
  {
    slug: 'factura',
    name: 'factura-marca-cfdi',
    cfdiXml: 'complementos/carta-porte-31-ingreso.xml',
    options: { marca: marcaEjemplo },
  },
  { slug: 'certificado' },
  { slug: 'certificado', name: 'certificado-letter', options: { page_size: 'Letter' } },
  { slug: 'cotizacion' },
  { slug: 'cotizacion', name: 'cotizacion-a4', options: { page_size: 'A4' } },
  { slug: 'cotizacion', name: 'cotizacion-larga', data: cotizacionLarga() },
  { slug: 'nomina' },
  { slug: 'nomina', name: 'nomina-a4', options: { page_size: 'A4' } },
  { slug: 'ventas' },
  { slug: 'ventas', name: 'ventas-letter', options: { page_size: 'Letter' }, secondPage: false },
  { slug: 'ventas', name: 'ventas-300', data: largeVentas(300) },
  { slug: 'balance' },
  {
    slug: 'balance',
    name: 'balance-letter',
    data: balanceSinComparativo(),
    options: { page_size: 'Letter' },
  },
  { slug: 'balance', name: 'balance-largo', data: balanceLargo(60) },
];

/** cotizacion: a 60-line quote, to show the repeated table header and "Página x de y" (page 2 too). */
function cotizacionLarga(): unknown {
  const sample = findTemplate('cotizacion')!.sample as { items: Record<string, unknown>[] };
  const items = Array.from({ length: 60 }, (_, i) => {
    const { descripcion, ...it } = sample.items[i % sample.items.length]!;
    return { ...it, ...(i % 5 === 0 ? { descripcion } : {}), cantidad: 1 + ((i * 7) % 23) };
  });
  return { ...sample, folio: 'COT-2024-113', items };
}

const OUT = join(__dirname, '..', 'docs', 'templates');
const MAX_BYTES = 250 * 1024;

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const todo = PREVIEWS.filter((p) => only.length === 0 || only.includes(p.slug));
  if (todo.length === 0) throw new Error(`no preview for ${only.join(', ')}`);
  mkdirSync(OUT, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'previews-'));
  const renderer = new Renderer();
  try {
    for (const p of todo) {
      const t = findTemplate(p.slug);
      if (!t) throw new Error(`unknown template ${p.slug}`);
      const check = validateRenderRequest({
        template: p.slug,
        format: 'pdf',
        ...(p.cfdiXml
          ? { cfdi_xml: readFileSync(join(__dirname, '..', 'test', 'fixtures', 'cfdi', p.cfdiXml), 'utf8') }
          : { data: p.data ?? t.sample }),
        options: p.options,
      });
      if (!check.ok) throw new Error(`${p.slug}: ${JSON.stringify(check.problems)}`);
      const started = performance.now();
      const doc = await renderDocument(check.request, {
        renderPdf: (html, o) => renderer.renderPdf(html, o),
        renderPng: (html, o) => renderer.renderPng(html, o),
      });
      const ms = performance.now() - started;
      const name = p.name ?? p.slug;
      const pdf = join(tmp, `${name}.pdf`);
      writeFileSync(pdf, doc.bytes);
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]);
      const written: string[] = [];
      for (const page of p.secondPage === false ? [1] : [1, 2].filter((n) => n <= pages)) {
        const base = join(OUT, page === 1 ? name : `${name}-${page}`);
        execFileSync('pdftoppm', [
          '-png',
          '-r',
          '60',
          '-singlefile',
          '-f',
          String(page),
          '-l',
          String(page),
          pdf,
          base,
        ]);
        const size = statSync(`${base}.png`).size;
        if (size > MAX_BYTES) throw new Error(`${base}.png is ${size} bytes (> ${MAX_BYTES})`);
        written.push(`${base}.png (${Math.round(size / 1024)} KB)`);
      }
      console.log(`${name}: ${pages} page(s), ${ms.toFixed(0)} ms → ${written.join(', ')}`);
    }
  } finally {
    await renderer.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
