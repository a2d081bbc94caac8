// The factura through real Chromium, checked with independent tools: the PDF passes `qpdf --check`; pdftotext
// finds the totals, the importe con letra and the timbre; the QR printed on the page, rasterised by pdftoppm, decodes
// (jsQR) to the exact SAT verification URL; the zip's CFDI XML parses (fast-xml-parser, and Python's xml.etree as a
// second, independent parser) and carries the same SubTotal, TotalImpuestosTrasladados and Total as the PDF's text;
// a 60-item invoice paginates with the table header and "Página x de y" on every page.
// A direct renderer (no HTTP runtime): the route itself is covered by test/e2e/documents.test.ts.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { Dec } from '../../templates/kit/money';
import { findTemplate } from '../../lambdas/documents/domain/template-registry';
import { calcFactura } from '../../templates/factura/calc';
import { schema } from '../../templates/factura/schema';
import { pdftotext } from '../helpers/pdftotext';
import { flat, pdfInfo, pdfTextPages, templateRenderer } from '../helpers/template-render';

jest.setTimeout(120_000);

const factura = findTemplate('factura')!;
const SAMPLE = factura.sample as Record<string, unknown>;
const tpl = templateRenderer('factura');
const { render } = tpl;
const pages = (file: string) => pdfInfo(file).pages;
/** The QR jsQR finds on `page`, in the left 40 % of the page (the timbre's QR sits in its left column). */
const qrOnPage = (file: string, page = 1) =>
  tpl.qrInPdf(file, { page, region: { x: 0, y: 0, w: 0.4, h: 1 } });

describe('stamped sample (Letter)', () => {
  let file: string;
  beforeAll(async () => {
    ({ file } = await render(SAMPLE));
  });

  it('is a valid one-page PDF', () => {
    execFileSync('qpdf', ['--check', file]);
    expect(pages(file)).toBe(1);
  });

  it('prints the totals, the importe con letra and the timbre', () => {
    const t = flat(pdftotext(file));
    expect(t).toMatch(/Subtotal \$26,107\.05/);
    expect(t).toMatch(/IVA 16 % \$4,177\.13/);
    expect(t).toMatch(/Total \$30,284\.18/);
    expect(t).toContain('TREINTA MIL DOSCIENTOS OCHENTA Y CUATRO PESOS 18/100 M.N.');
    expect(t).toContain('5F3A9C1E-7B2D-4E8F-A6C4-19D0B7E2F835');
    expect(t).toContain('CADENA ORIGINAL DEL COMPLEMENTO DE CERTIFICACIÓN DIGITAL DEL SAT');
    expect(t).toContain('Este documento es una representación impresa de un CFDI');
    expect(t).toContain('Página 1 de 1');
    expect(t).not.toContain('no es un CFDI timbrado');
  });

  it('its QR, read off the rendered page, is the SAT verification URL', () => {
    const url = calcFactura(schema.parse(SAMPLE)).timbre!.url;
    expect(url).toMatch(
      /^https:\/\/verificacfdi\.facturaelectronica\.sat\.gob\.mx\/default\.aspx\?id=5F3A9C1E-/,
    );
    expect(qrOnPage(file)).toBe(url);
  });

  it('fits one A4 page as well', async () => {
    const a4 = await render(SAMPLE, 'pdf', { page_size: 'A4' });
    expect(pages(a4.file)).toBe(1);
    expect(qrOnPage(a4.file)).toBe(calcFactura(schema.parse(SAMPLE)).timbre!.url);
  });
});

describe('zip', () => {
  it("holds a PDF and a CFDI XML whose SubTotal, TotalImpuestosTrasladados and Total are the PDF's", async () => {
    const { file } = await render(SAMPLE, 'zip');
    const zip = unzipSync(new Uint8Array(readFileSync(file)));
    expect(Object.keys(zip)).toEqual([
      'factura.pdf',
      'factura.html',
      'factura.xml',
      'data.json',
      'LEEME.txt',
    ]);
    const pdf = join(tpl.dir, 'in-zip.pdf');
    writeFileSync(pdf, zip['factura.pdf']!);
    const text = flat(pdftotext(pdf));
    const printed = (label: string) => {
      const m = new RegExp(`${label} \\$([\\d,]+\\.\\d{2})`).exec(text);
      if (!m) throw new Error(`${label} not in the PDF text`);
      return m[1]!.replace(/,/g, '');
    };

    const xmlFile = join(tpl.dir, 'factura.xml');
    writeFileSync(xmlFile, zip['factura.xml']!);
    const xml = Buffer.from(zip['factura.xml']!).toString('utf8');
    const c = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml)[
      'cfdi:Comprobante'
    ];
    expect(c.SubTotal).toBe(printed('Subtotal'));
    expect(c['cfdi:Impuestos'].TotalImpuestosTrasladados).toBe(printed('IVA 16 %'));
    expect(c.Total).toBe(printed('Total'));
    expect(new Dec(c.SubTotal).plus(c['cfdi:Impuestos'].TotalImpuestosTrasladados).toFixed(2)).toBe(c.Total);

    // A second, independent parser (Python's expat): well-formed, namespaced root, same Total.
    const py = execFileSync(
      'python3',
      [
        '-c',
        'import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print(r.tag, r.get("Total"), len(r.find("{http://www.sat.gob.mx/cfd/4}Conceptos")))',
        xmlFile,
      ],
      { encoding: 'utf8' },
    ).trim();
    expect(py).toBe(`{http://www.sat.gob.mx/cfd/4}Comprobante ${printed('Total')} 4`);
  });
});

describe('not stamped, contract shape', () => {
  it('says it is not a CFDI, prints con letra, and has no QR', async () => {
    const { file } = await render({
      empresa: 'Taller Núñez',
      cliente: 'José Ángel Muñoz',
      items: [{ concepto: 'Reparación de bomba', cantidad: 1, precio: 1234.56 }],
      moneda: 'MXN',
    });
    const t = flat(pdftotext(file));
    expect(t).toContain('SIN TIMBRAR');
    expect(t).toContain('Este documento no es un CFDI timbrado');
    expect(t).toMatch(/Total \$1,432\.09/);
    expect(t).toContain('MIL CUATROCIENTOS TREINTA Y DOS PESOS 09/100 M.N.');
    expect(t).toContain('José Ángel Muñoz');
    expect(qrOnPage(file)).toBeUndefined();
  });
});

describe('long invoice', () => {
  it('paginates: header row and "Página x de y" on every page, totals once at the end', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({
      concepto: `Refacción industrial modelo RX-${String(i + 1).padStart(3, '0')} con garantía extendida`,
      cantidad: (i % 7) + 1,
      precio: 100 + i,
      unidad: 'pieza',
    }));
    const { file } = await render({
      ...SAMPLE,
      items,
      subtotal: undefined,
      total_impuestos_trasladados: undefined,
      total: undefined,
    });
    const count = pages(file);
    expect(count).toBeGreaterThan(1);
    const calc = calcFactura(
      schema.parse({
        ...SAMPLE,
        items,
        subtotal: undefined,
        total_impuestos_trasladados: undefined,
        total: undefined,
      }),
    );
    const byPage = pdfTextPages(file).map(flat);
    expect(byPage).toHaveLength(count);
    for (let p = 1; p <= count; p++) {
      const t = byPage[p - 1]!;
      expect(t).toContain('CLAVE SAT');
      expect(t).toContain(`Página ${p} de ${count}`);
      expect(t.includes('Total $')).toBe(p === count);
    }
    const all = flat(pdftotext(file));
    for (const it of items) expect(all).toContain(it.concepto); // no row lost at a page break
    // Expected total computed here, independently: Σ cantidad × precio, plus IVA 16 % rounded to the centavo.
    const subtotal = items.reduce((s, it) => s.plus(new Dec(it.cantidad).times(it.precio)), new Dec(0));
    const total = subtotal.plus(subtotal.times('0.16').toDecimalPlaces(2, Dec.ROUND_HALF_UP)).toFixed(2);
    expect(calc.total).toBe(total);
    expect(all).toContain(`Total $${total.replace(/\B(?=(\d{3})+\.)/g, ',')}`);
    expect(qrOnPage(file, count)).toBe(calc.timbre!.url);
  });
});
