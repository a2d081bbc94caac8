// The factura template without Chromium: its schema (contract shape, CFDI 4.0 fields, per-field 400s), the SAT
// arithmetic (exact decimals), the verification QR (drawn SVG decoded back with jsQR), the cadena original, the
// unsigned CFDI XML (parsed with fast-xml-parser) and the zip that carries it.
import { unzipSync } from 'fflate';
import jsQR from 'jsqr';
import { calcularCfdi } from '../../templates/kit/cfdi/calc';
import { cadenaOriginalTimbre, totalQr, verificacionUrl } from '../../templates/kit/cfdi/timbre';
import { Dec } from '../../templates/kit/money';
import { qrSvg } from '../../templates/kit/qr';
import {
  renderDocument,
  validateRenderRequest,
  type ValidRenderRequest,
} from '../../lambdas/documents/use-cases/render-request';
import { calcFactura } from '../../templates/factura/calc';
import { facturaXml } from '../../templates/factura/xml';
import { SAMPLE, MINIMAL, parse, html, text } from './templates-factura/data';

import { schemaCases } from './templates-factura/schema.cases';
import { xmlCases } from './templates-factura/xml.cases';

schemaCases();

describe('arithmetic (exact decimals, SAT rounding)', () => {
  it('keeps the invoice figures of the sample', () => {
    const c = calcFactura(parse(SAMPLE));
    // 18,500 + 3,600 + 6.5 × 450.50 + 12 × 89.90 = 26,107.05; IVA 4,177.128 → 4,177.13
    expect([c.subtotal, c.iva, c.total]).toEqual(['26107.05', '4177.13', '30284.18']);
    expect(c.con_letra).toBe('TREINTA MIL DOSCIENTOS OCHENTA Y CUATRO PESOS 18/100 M.N.');
  });

  it('descuentos, IEPS inside the IVA base, exento, retenciones and a foreign currency', () => {
    const d = parse({
      ...MINIMAL,
      moneda: 'USD',
      tipo_cambio: 17.0512,
      retenciones: [
        { impuesto: 'ISR', tasa_o_cuota: 0.1 },
        { impuesto: 'IVA', tasa_o_cuota: 0.106667 },
      ],
      items: [
        { concepto: 'Honorarios', cantidad: 1, precio: 2500, descuento: 250 },
        {
          concepto: 'Bebida',
          cantidad: 24,
          precio: 1.25,
          traslados: [
            { impuesto: 'IEPS', tasa_o_cuota: 0.265 },
            { impuesto: 'IVA', tasa_o_cuota: 0.16 },
          ],
          retenciones: [],
        },
        { concepto: 'Libro', cantidad: 2, precio: 35, tasa_iva: 'exento', retenciones: [] },
      ],
    });
    const c = calcFactura(d);
    // IVA: 2,250 × 0.16 = 360 plus (30 + IEPS 7.95) × 0.16 = 6.072 → 366.07; IVA retenido 2,250 × 0.106667 = 240.00075
    expect(c.totales).toEqual([
      { etiqueta: 'Subtotal', importe: '2600.00' },
      { etiqueta: 'Descuento', importe: '-250.00' },
      { etiqueta: 'IVA 16 %', importe: '366.07' },
      { etiqueta: 'IVA exento', importe: null, nota: 'base USD\u00a070.00' },
      { etiqueta: 'IEPS 26.5 %', importe: '7.95' },
      { etiqueta: 'Retención ISR 10 %', importe: '-225.00' },
      { etiqueta: 'Retención IVA 10.6667 %', importe: '-240.00' },
    ]);
    expect(c.total).toBe('2259.02'); // 2,600 − 250 + 366.07 + 7.95 − 225 − 240
    expect(c.total_mxn).toBe('38519.00'); // 2,259.02 × 17.0512 = 38,519.0018
    expect(c.con_letra).toBe('DOS MIL DOSCIENTOS CINCUENTA Y NUEVE DÓLARES 02/100 USD');
    expect(c.items[1]!.impuestos.map((t) => [t.etiqueta, t.base, t.importe])).toEqual([
      ['IEPS 26.5 %', '30', '7.95'],
      ['IVA 16 %', '37.95', '6.072'],
    ]);
  });

  it('rounds taxes per concept to 6 decimals and the totals to the centavo (no per-line drift)', () => {
    // Three lines of 0.05 at 16 %: 0.008 each. Rounding each line to centavos would give 0.03; SAT's sum is 0.024.
    const calc = calcularCfdi(
      [1, 2, 3].map(() => ({
        cantidad: '1',
        valorUnitario: '0.05',
        objetoImp: '02',
        traslados: [{ impuesto: '002' as const, tipoFactor: 'Tasa' as const, tasaOCuota: '0.16' }],
        retenciones: [],
      })),
      'MXN',
    );
    expect(calc.traslados[0]!.importe!.toFixed(2)).toBe('0.02');
    expect(calc.total.toFixed(2)).toBe('0.17');
  });

  it('IEPS cuota is charged per unit (base = cantidad)', () => {
    const calc = calcularCfdi(
      [
        {
          cantidad: '40',
          valorUnitario: '22.5',
          objetoImp: '02',
          traslados: [{ impuesto: '003', tipoFactor: 'Cuota', tasaOCuota: '6.4555' }],
          retenciones: [],
        },
      ],
      'MXN',
    );
    expect(calc.conceptos[0]!.traslados[0]!.base.toString()).toBe('40');
    expect(calc.totalTrasladados!.toFixed(2)).toBe('258.22'); // 40 × 6.4555 = 258.22
  });

  it('objeto de impuesto 01 carries no taxes', () => {
    const c = calcFactura(parse({ ...MINIMAL, items: [{ ...MINIMAL.items[0], objeto_imp: '01' }] }));
    expect(c.total).toBe('1234.56');
    expect(c.total_impuestos_trasladados).toBeNull();
  });
});

describe('SAT verification QR and cadena original', () => {
  const d = () => parse(SAMPLE);

  it('tt has 6 decimals without non-significant zeros (Anexo 20, as phpcfdi writes it)', () => {
    expect(totalQr('2320.00')).toBe('2320.0');
    expect(totalQr('30284.18')).toBe('30284.18');
    expect(totalQr(0)).toBe('0.0');
    expect(totalQr('0.1234565')).toBe('0.123457');
    expect(totalQr(new Dec('1000.000001'))).toBe('1000.000001');
  });

  it('builds the URL from UUID, RFCs, total and the last 8 characters of the sello', () => {
    expect(
      verificacionUrl({
        uuid: '66933dff-5507-5460-9ef0-9d0bb068a54a',
        rfcEmisor: 'EKU9003173C9',
        rfcReceptor: 'Ñ&A010101AAA',
        total: '2320.00',
        selloCfdi: 'b+uizgcjbs6xsyiI/yl2MKg==',
      }),
    ).toBe(
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=66933DFF-5507-5460-9EF0-9D0BB068A54A' +
        '&re=EKU9003173C9&rr=Ñ&amp;A010101AAA&tt=2320.0&fe=yl2MKg==',
    );
  });

  it('the sample prints the QR, whose drawn modules decode to the exact URL', () => {
    const t = calcFactura(d()).timbre!;
    const sello = SAMPLE.sello_cfdi as string;
    expect(t.url).toBe(
      `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=5F3A9C1E-7B2D-4E8F-A6C4-19D0B7E2F835` +
        `&re=SDB180315KJ2&rr=CHU110921AB7&tt=30284.18&fe=${sello.slice(-8)}`,
    );
    expect(decodeSvgQr(t.qr_svg)).toBe(t.url);
  });

  it('QR SVG: one path on a white square with a quiet zone; its text escaped in the title', () => {
    const svg = qrSvg('hola', { label: 'a <b> & c' });
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 29 29"/); // version 1 (21 modules) + 2 × 4
    expect(svg).toContain('<title>a &#60;b&#62; &#38; c</title>');
    expect(svg.match(/<path /g)).toHaveLength(1);
    expect(decodeSvgQr(svg)).toBe('hola');
  });

  it('cadena original del complemento de certificación: ||1.1|UUID|Fecha|PAC|SelloCFD|NoCertificadoSAT||', () => {
    expect(
      cadenaOriginalTimbre({
        uuid: 'ad662d33-6934-459c-a128-bdf0393e0f44',
        fechaTimbrado: '2022-06-24T15:37:19',
        rfcProvCertif: 'CVD110412TF6',
        selloCfd: 'abc/+=',
        noCertificadoSat: '30001000000400002495',
      }),
    ).toBe(
      // As written, like SAT's XSLT: a lower-case UUID stays lower case.
      '||1.1|ad662d33-6934-459c-a128-bdf0393e0f44|2022-06-24T15:37:19|CVD110412TF6|abc/+=|30001000000400002495||',
    );
    expect(calcFactura(d()).timbre!.cadena_original).toMatch(
      /^\|\|1\.1\|5F3A9C1E-7B2D-4E8F-A6C4-19D0B7E2F835\|2024-03-15T10:42:11\|PAC151027QX5\|bE\+XBHRw.*==\|30001000000500003456\|\|$/,
    );
  });
});

/** Rasterises our QR SVG (a path of `M x y h w v 1 h -w z` runs) at 4 px per module and decodes it with jsQR. */
function decodeSvgQr(svg: string): string | undefined {
  const dim = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const scale = 4;
  const w = dim * scale;
  const px = new Uint8ClampedArray(w * w * 4).fill(255);
  const d = /<path [^>]*d="([^"]+)"/.exec(svg)![1]!;
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const [x, y, len] = [Number(m[1]), Number(m[2]), Number(m[3])];
    for (let yy = y * scale; yy < (y + 1) * scale; yy++)
      for (let xx = x * scale; xx < (x + len) * scale; xx++)
        px.fill(0, (yy * w + xx) * 4, (yy * w + xx) * 4 + 3);
  }
  return jsQR(px, w, w)?.data;
}

describe('printed representation (HTML)', () => {
  it('stamped: totals, con letra, folio fiscal, sellos, cadena and the CFDI legend', () => {
    const page = text(html(SAMPLE));
    expect(page).toContain('Subtotal $26,107.05');
    expect(page).toContain('IVA 16 % $4,177.13');
    expect(page).toContain('Total $30,284.18');
    expect(page).toContain('TREINTA MIL DOSCIENTOS OCHENTA Y CUATRO PESOS 18/100 M.N.');
    expect(page).toContain('Folio fiscal 5F3A9C1E-7B2D-4E8F-A6C4-19D0B7E2F835');
    expect(page).toContain('Régimen fiscal 601 — General de Ley Personas Morales');
    expect(page).toContain('Uso del CFDI G03 — Gastos en general');
    expect(page).toContain('Forma de pago 03 — Transferencia electrónica de fondos');
    expect(page).toContain('Cadena original del complemento de certificación digital del SAT ||1.1|5F3A9C1E');
    expect(page).toContain('Este documento es una representación impresa de un CFDI');
    expect(page).not.toContain('no es un CFDI timbrado');
    expect(html(SAMPLE)).toContain('<svg class="qr" xmlns="http://www.w3.org/2000/svg" width="31mm"');
  });

  it('not stamped: says so plainly and draws no QR', () => {
    const page = html(MINIMAL);
    expect(text(page)).toContain('Este documento no es un CFDI timbrado');
    expect(text(page)).toContain('MIL CUATROCIENTOS TREINTA Y DOS PESOS 09/100 M.N.'); // 1,234.56 × 1.16
    expect(page).not.toContain('class="qr"');
    expect(text(page)).not.toContain('representación impresa de un CFDI.');
  });

  it('caller text is escaped in the page and cannot leave the CSS footer string', () => {
    const page = html({ ...MINIMAL, empresa: 'A "B" </style><script>alert(1)</script> \\ C', serie: 'x";}' });
    expect(page).not.toContain('<script>alert');
    const style = /<style>\s*@page[\s\S]*?<\/style>/.exec(page)![0];
    const footer = /@bottom-left \{ content: ("(?:[^"\\<>{};]|\\[0-9a-f]{1,6} )*");/.exec(style);
    expect(footer).not.toBeNull(); // one CSS string: only letters, punctuation and hex escapes inside
    expect(footer![1]).toContain('\\22 B\\22 '); // the quotes, escaped
    expect(style.match(/<\/style>/g)).toHaveLength(1);
  });

  it('prints quantities and unit prices with all their decimals', () => {
    const page = text(
      html({
        ...MINIMAL,
        items: [{ concepto: 'Tornillo', cantidad: 1234.125, precio: 0.125, unidad: 'pieza' }],
      }),
    );
    expect(page).toContain('1,234.125 H87 pieza Tornillo $0.125 $154.27'); // 154.265625 → 154.27
  });
});

xmlCases();

describe('zip', () => {
  it('holds the PDF, the HTML, the CFDI XML, data.json and LEEME.txt', async () => {
    const r = validateRenderRequest({ template: 'factura', format: 'zip', data: SAMPLE });
    expect(r.ok).toBe(true);
    const doc = await renderDocument((r as { request: ValidRenderRequest }).request, {
      renderPdf: async () => Buffer.from('%PDF-1.7 stand-in'),
      renderPng: async () => Buffer.alloc(0),
    });
    const files = unzipSync(new Uint8Array(doc.bytes));
    expect(Object.keys(files)).toEqual([
      'factura.pdf',
      'factura.html',
      'factura.xml',
      'data.json',
      'LEEME.txt',
    ]);
    const xml = Buffer.from(files['factura.xml']!).toString('utf8');
    expect(xml).toBe(facturaXml(parse(SAMPLE)));
    const leeme = Buffer.from(files['LEEME.txt']!).toString('utf8');
    expect(leeme).toMatch(/factura\.xml\s+el CFDI 4\.0 sin sellar/);
  });
});
