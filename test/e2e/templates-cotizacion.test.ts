// cotizacion through real Chromium (direct renderer, no HTTP), read back with pdftotext: the sample's totals and
// importe con letra on one Letter page; a 120-item quote paginates with the table header and "Página x de y" on
// every page, no row split across pages, and the totals, terms and signatures at the end; HTML is self-contained.
import { readFileSync } from 'node:fs';
import { cotizacion } from '../../templates/cotizacion/meta';
import { pdftotext } from '../helpers/pdftotext';
import { flat, pdfInfo, pdfTextPages, templateRenderer } from '../helpers/template-render';

jest.setTimeout(120_000);

const tpl = templateRenderer('cotizacion');
const render = (data: unknown, format = 'pdf', options?: Record<string, unknown>) =>
  tpl.renderFile(data, format, options);
const pages = (file: string) => pdfInfo(file).pages;

test('the sample: one Letter page with the totals, the importe con letra and both signatures', async () => {
  const file = await render(cotizacion.sample);
  expect(pages(file)).toBe(1);
  const t = flat(pdftotext(file));
  for (const s of [
    'COTIZACIÓN',
    'COT-2024-112',
    'Soluciones Solares del Norte',
    'Hotel Boutique Casa Azul, S.A. de C.V.',
    'Válida hasta 5 de junio de 2024',
    'Panel solar monocristalino 550 W',
    '$97,812.00',
    '−$600.00',
    '$218,624.00',
    '−$6,558.72',
    '$212,065.28',
    '$33,930.44',
    '$245,995.72',
    'DOSCIENTOS CUARENTA Y CINCO MIL NOVECIENTOS NOVENTA Y CINCO PESOS 72/100 M.N.',
    'TÉRMINOS Y CONDICIONES',
    'Ing. Ana Treviño Salinas',
    'Lic. Mariana Garza Villarreal',
    'Página 1 de 1',
  ])
    expect([s, t.includes(s)]).toEqual([s, true]);
});

test('120 items paginate: header and page numbers on every page, rows whole, totals at the end', async () => {
  const items = Array.from({ length: 120 }, (_, i) => ({
    concepto: `Partida ${i + 1} — refacción de línea`,
    descripcion: i % 7 === 0 ? 'Incluye instalación, pruebas y garantía de doce meses en sitio.' : undefined,
    cantidad: i + 1,
    precio: 10.01,
    unidad: 'pieza',
  }));
  const file = await render({
    empresa: 'Refacciones Núñez',
    cliente: 'Industrias del Golfo',
    folio: 'COT-LARGA',
    fecha: '2026-11-21',
    dias_vigencia: 15,
    items,
    condiciones: ['Precios sujetos a existencia.'],
  });
  const total = pages(file);
  expect(total).toBeGreaterThanOrEqual(3);
  const byPage = pdfTextPages(file).map(flat);
  expect(byPage).toHaveLength(total);
  byPage.forEach((t, i) => {
    expect([i + 1, t.includes('CONCEPTO'), t.includes('PRECIO UNITARIO')]).toEqual([i + 1, true, true]);
    expect(t).toContain(`Página ${i + 1} de ${total}`);
    expect(t).toContain('Cotización COT-LARGA · Refacciones Núñez para Industrias del Golfo');
  });
  // Every row once, with its amount on the same page (rows are not split): importe = (i + 1) × 10.01.
  for (let i = 0; i < 120; i++) {
    const name = `Partida ${i + 1} — refacción`;
    const where = byPage.flatMap((t, p) => (t.includes(`${name} `) || t.includes(`${name}`) ? [p] : []));
    expect([name, where.length]).toEqual([name, 1]);
    const importe = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(
      ((i + 1) * 1001) / 100,
    );
    expect([name, byPage[where[0]!]!.includes(importe)]).toEqual([name, true]);
  }
  // Σ (1..120) × 10.01 = 7,260 × 10.01 = 72,672.60; IVA 11,627.616 → 11,627.62; total 84,300.22.
  const last = byPage[total - 1]!;
  expect(last).toContain('$72,672.60');
  expect(last).toContain('$11,627.62');
  expect(last).toContain('$84,300.22');
  expect(last).toContain('OCHENTA Y CUATRO MIL TRESCIENTOS PESOS 22/100 M.N.');
  expect(last).toContain('ACEPTACIÓN DEL CLIENTE');
  expect(byPage[0]).toContain('Válida hasta 6 de diciembre de 2026');
});

test('USD quote with retenciones prints the currency in figures and words', async () => {
  const file = await render({
    empresa: 'Consultores Ávila',
    cliente: 'Grupo Norte',
    fecha: '2026-11-21',
    moneda: 'USD',
    items: [{ concepto: 'Honorarios de consultoría', cantidad: 1, precio: 10000 }],
    retenciones: { iva: 0.106667, isr: 0.1 },
  });
  const t = flat(pdftotext(file));
  expect(t).toContain('USD 1,600.00');
  expect(t).toContain('Retención IVA 10.6667 %');
  expect(t).toContain('−USD 1,066.67');
  expect(t).toContain('Retención ISR 10 %');
  expect(t).toContain('USD 9,533.33');
  expect(t).toContain('NUEVE MIL QUINIENTOS TREINTA Y TRES DÓLARES 33/100 USD');
});

test('html: self-contained, same figures', async () => {
  const h = readFileSync(await render(cotizacion.sample, 'html'), 'utf8');
  expect(h).not.toMatch(/<script|<link|src="http/i);
  expect(h).toContain('$245,995.72');
  expect(h).toContain('DOSCIENTOS CUARENTA Y CINCO MIL NOVECIENTOS NOVENTA Y CINCO PESOS 72/100 M.N.');
});
