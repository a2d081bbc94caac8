// balance end to end through the real Chromium renderer (renderDocument with a Renderer, no HTTP), read back with
// qpdf, pdfinfo and pdftotext: the comparative sample on one A4 page with its totals and ratios; the single-period
// balance in account form (both grand totals on one line); a long balance that runs over pages with the header
// repeated and "Página x de y"; and its XLSX opened by LibreOffice headless.
import { execFileSync } from 'node:child_process';
import { findTemplate } from '../../lambdas/documents/domain/template-registry';
import { balanceLargo, balanceSinComparativo } from '../../templates/balance/examples';
import { requireSoffice, sofficeConvert } from '../helpers/office';
import { flat, pdfInfo, pdfTextPages as pages, templateRenderer } from '../helpers/template-render';

jest.setTimeout(240_000);

const balance = findTemplate('balance')!;
const tpl = templateRenderer('balance');

test('the comparative sample: one A4 page, totals of both periods, variation, ratios', async () => {
  const file = await tpl.renderFile(balance.sample);
  execFileSync('qpdf', ['--check', file]);
  const [words, ...rest] = pages(file).map(flat);
  expect(rest).toEqual([]);
  for (const w of [
    'BALANCE GENERAL',
    'al 31 de diciembre de 2023',
    'comparativo con el 31 de diciembre de 2022',
    'CAPITAL DE TRABAJO',
    '$1,059,531.00', // 1,490,581.30 − 431,050.30
    'RAZÓN CIRCULANTE',
    '3.46',
    'ENDEUDAMIENTO',
    '36.7 %',
    'Depreciación acumulada',
    'C.P. Laura Méndez Ochoa',
    'Página 1 de 1',
  ])
    expect(words).toContain(w);
  const [rows] = pages(file, true);
  for (const line of [
    // 147,710.65 / 2,663,170.65 = 5.546 %
    'Total activo $2,810,881.30 100.0 % $2,663,170.65 100.0 % $147,710.65 5.5 %',
    'Depreciación acumulada -$386,500.00 -13.8 % -$262,000.00 -9.8 % -$124,500.00 -47.5 %',
    'Total pasivo $1,031,050.30 36.7 % $1,150,839.65 43.2 % -$119,789.35 -10.4 %',
    'Total capital contable $1,779,831.00 63.3 % $1,512,331.00 56.8 % $267,500.00 17.7 %',
    'Total pasivo + capital $2,810,881.30 100.0 % $2,663,170.65 100.0 % $147,710.65 5.5 %',
  ])
    expect(rows).toContain(line);
});

test('single period on Letter: account form, both grand totals on the same line', async () => {
  const file = await tpl.renderFile(balanceSinComparativo(), 'pdf', { page_size: 'Letter' });
  expect(pdfInfo(file).size).toBe('612 x 792');
  const all = pages(file, true);
  expect(all).toHaveLength(1);
  const line = all[0]!
    .split('\n')
    .find((l) => l.includes('Total activo') && l.includes('Total pasivo + capital'));
  expect(line).toBeDefined();
  expect(line!.match(/\$2,810,881\.30/g)).toHaveLength(2);
});

test('a long balance: header repeated, "Página x de y", every account once', async () => {
  const file = await tpl.renderFile(balanceLargo(60));
  const all = pages(file).map(flat);
  const n = all.length;
  expect(n).toBeGreaterThanOrEqual(2);
  all.forEach((p, i) => {
    expect(p).toContain(`Página ${i + 1} de ${n}`);
    if (p.includes('Cliente ')) expect(p).toContain('CONCEPTO'); // every page of the table has its header
  });
  const text = all.join(' ');
  for (let i = 1; i <= 60; i++)
    expect(text.split(`Cliente ${String(i).padStart(3, '0')} `).length - 1).toBe(1);
  expect(text).toContain('Total pasivo + capital $3,113,389.00');
  expect(all[n - 1]).toContain('Ing. Ricardo Arellano Gómez'); // the signatures close the document
});

test('the XLSX opens in LibreOffice with its subtotals and totals', async () => {
  requireSoffice();
  const xlsx = await tpl.renderFile(balance.sample, 'xlsx');
  const [pdf] = sofficeConvert([xlsx], 'pdf', tpl.dir);
  const rows = pages(pdf!, true).join('\n');
  expect(rows).toContain('Total activo circulante $1,490,581.30 53.0% $1,346,670.65 50.6% $143,910.65 10.7%');
  expect(rows).toContain('Total pasivo + capital $2,810,881.30 100.0% $2,663,170.65 100.0% $147,710.65 5.5%');
  expect(rows).toMatch(/Diferencia: activo − \(pasivo \+ capital\) \$0\.00 \$0\.00/);
});
