// ventas end to end through the real Chromium renderer (no HTTP: renderDocument with a Renderer), read back with
// independent tools: qpdf (valid PDF), pdffonts (embedded fonts), pdfinfo (page size), pdftotext (golden figures,
// "Página x de y" on every page, the table header repeated, every product printed exactly once); and the XLSX
// opened by LibreOffice headless (convert to PDF), whose output shows the cells and both native charts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findTemplate } from '../../lambdas/documents/domain/template-registry';
import { largeVentas } from '../../templates/ventas/examples';
import { requireSoffice, sofficeConvert } from '../helpers/office';
import { pdftotext } from '../helpers/pdftotext';
import { flat, pdfInfo, pdfTextPages, templateRenderer } from '../helpers/template-render';

jest.setTimeout(240_000);

const ventas = findTemplate('ventas')!;
const tpl = templateRenderer('ventas');

/** pdftotext's pages, whitespace collapsed; `layout` keeps table rows on a line. */
const pages = (file: string, layout = false) => pdfTextPages(file, layout).map((p) => (layout ? p : flat(p)));

/** "$1,234.56" from integer centavos, formatted independently of the template's Intl path. */
function pesos(cents: bigint): string {
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `$${whole}.${String(cents % 100n).padStart(2, '0')}`;
}

test('the sample: one A4 page with the right figures, fonts embedded, footer', async () => {
  const file = await tpl.renderFile(ventas.sample);
  execFileSync('qpdf', ['--check', file]);
  expect(pdfInfo(file).size).toMatch(/^595\.\d+ x 841\.\d+$/);
  const [page, ...rest] = pages(file);
  expect(rest).toEqual([]);
  for (const words of [
    'INGRESOS TOTALES',
    '$731,804.50',
    'UNIDADES VENDIDAS',
    '3,561',
    'PRECIO PROMEDIO',
    '$205.51', // 731,804.50 / 3,561
    'Espresso Chiapas 1 kg',
    '32.8 % de los ingresos',
    '101.2 % de la meta de',
    'PARTICIPACIÓN POR CATEGORÍA',
    'Cápsulas compatibles (caja 20)',
    'Suscripción mensual',
    'Página 1 de 1',
  ])
    expect(page).toContain(words);
  // Table rows, one per line in layout mode: the leader and the totals (units, revenue, average price, share,
  // the products' targets and the attainment over them).
  const [lines] = pages(file, true);
  expect(lines).toContain(
    '1 Espresso Chiapas 1 kg Café 615 $239,850.00 $390.00 32.8 % 32.8 % $225,000.00 106.6 %',
  );
  expect(lines).toContain('Total 3,561 $731,804.50 $205.51 100.0 % $723,000.00 101.2 %');
  const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
  expect(fonts).toMatch(/NotoSans-Regular/);
  for (const line of fonts.split('\n').slice(2).filter(Boolean)) expect(line).toMatch(/\syes\s+yes\s/); // emb, sub
});

test('Letter: the same report fits the other paper', async () => {
  const file = await tpl.renderFile(ventas.sample, 'pdf', { page_size: 'Letter' });
  expect(pdfInfo(file).size).toBe('612 x 792');
  expect(pages(file)).toHaveLength(1);
});

test('300 products paginate cleanly: header repeated, "Página x de y", every row once, totals at the end', async () => {
  const data = largeVentas(300);
  const file = await tpl.renderFile(data);
  execFileSync('qpdf', ['--check', file]);
  const all = pages(file);
  const n = all.length;
  expect(n).toBeGreaterThanOrEqual(6);
  all.forEach((p, i) => expect(p).toContain(`Página ${i + 1} de ${n}`));
  // The detail table starts on page 2 here; from there on every page has its header row.
  const laid = pages(file, true);
  for (const p of laid.slice(1))
    expect(p).toMatch(/# PRODUCTO REGIÓN UNIDADES INGRESOS PROMEDIO PART\. ACUM\. META/);
  // Each product's SKU (only printed in the table) appears exactly once: no row lost or repeated at a break.
  const text = all.join(' ');
  for (const r of data.rows) expect(text.split(r.sku!).length - 1).toBe(1);
  const total = data.rows.reduce((s, r) => s + BigInt(Math.round(r.revenue * 100)), 0n);
  const units = data.rows.reduce((s, r) => s + r.units, 0).toLocaleString('en-US');
  expect(laid[n - 1]).toContain(`Total ${units} ${pesos(total)}`);
  expect(all[0]).toContain(pesos(total));
  expect(all[0]).toMatch(/El 80 % de los ingresos proviene de \d+ productos/);
});

test('the XLSX opens in LibreOffice: its PDF shows the table, the totals and both native charts', async () => {
  requireSoffice();
  const xlsx = await tpl.renderFile(ventas.sample, 'xlsx');
  const [pdf] = sofficeConvert([xlsx], 'pdf', tpl.dir);
  expect(existsSync(pdf!)).toBe(true);
  const text = flat(pdftotext(pdf!));
  expect(text).toContain('Reporte de ventas del primer trimestre');
  expect(text).toContain('$731,804.50'); // the SUM total, as LibreOffice computed or cached it
  // The charts' titles exist only in the chart parts: LibreOffice read and drew them.
  expect(text).toContain('Ingresos por producto');
  expect(text).toContain('Ingresos por categoría');
  expect(text).toContain('74.3%'); // the doughnut's data label for Café (543,450 / 731,804.50)
});
