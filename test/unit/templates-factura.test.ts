// The factura template without Chromium: its schema (contract shape, CFDI 4.0 fields, per-field 400s), the SAT
// arithmetic (exact decimals), the verification QR (drawn SVG decoded back with jsQR), the cadena original, the
// unsigned CFDI XML (parsed with fast-xml-parser) and the zip that carries it.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import jsQR from 'jsqr';
import { calcularCfdi } from '../../templates/kit/cfdi/calc';
import { checkRfc } from '../../templates/kit/cfdi/rfc';
import { cadenaOriginalTimbre, totalQr, verificacionUrl } from '../../templates/kit/cfdi/timbre';
import { Dec } from '../../templates/kit/money';
import { qrSvg } from '../../templates/kit/qr';
import {
  renderDocument,
  validateRenderRequest,
  type ValidRenderRequest,
} from '../../lambdas/documents/use-cases/render-request';
import { builtInPartials, findTemplate, loadSource } from '../../lambdas/documents/domain/template-registry';
import { renderTrusted } from '../../lambdas/documents/templating/trusted';
import { calcFactura } from '../../templates/factura/calc';
import { facturaCfdi, facturaXml } from '../../templates/factura/xml';
import { schema, type FacturaData } from '../../templates/factura/schema';

const factura = findTemplate('factura')!;
const SAMPLE = factura.sample as Record<string, unknown>;
const MINIMAL = {
  empresa: 'Taller Núñez',
  cliente: 'Cliente & Asociados',
  items: [{ concepto: 'Reparación', cantidad: 1, precio: 1234.56 }],
  moneda: 'MXN',
};

function parse(data: unknown): FacturaData {
  return schema.parse(data);
}

function problems(data: unknown) {
  const r = validateRenderRequest({ template: 'factura', format: 'pdf', data });
  return r.ok ? [] : r.problems;
}

/** The single problem of `data`, as the API reports it. */
function problem(data: unknown) {
  const p = problems(data);
  expect(p).toHaveLength(1);
  return p[0]!;
}

function html(data: unknown): string {
  const { source, hash } = loadSource('factura');
  return renderTrusted(source, factura.view(parse(data) as never), builtInPartials(), `factura@${hash}`);
}

function text(page: string): string {
  return page
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/[\s\u00a0]+/g, ' ');
}

describe('schema', () => {
  it('accepts the contract shape exactly, and the shape before CFDI 4.0 fields', () => {
    expect(problems(MINIMAL)).toEqual([]);
    const old = parse({
      ...MINIMAL,
      rfc_emisor: 'sdb180315kj2',
      tasa_iva: 0.08,
      forma_pago: '03 Transferencia electrónica de fondos',
      metodo_pago: 'PUE Pago en una sola exhibición',
      fecha: '2024-03-15',
      items: [{ concepto: 'x', cantidad: 1, precio: 10, unidad: 'hora' }],
    });
    expect(old.rfc_emisor).toBe('SDB180315KJ2');
    expect(old.forma_pago).toBe('03');
    expect(old.metodo_pago).toBe('PUE');
    expect(calcFactura(old).iva).toBe('0.80');
  });

  it('the sample carries every CFDI field and validates', () => {
    const d = parse(SAMPLE);
    expect(d.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(calcFactura(d).total).toBe('30284.18');
  });

  it.each<[string, unknown, (string | number)[], string]>([
    ['RFC too short', { rfc_emisor: 'ABC12345' }, ['rfc_emisor'], 'rfc_format'],
    ['RFC date not a day', { rfc_cliente: 'ABC991332AB1' }, ['rfc_cliente'], 'rfc_format'],
    ['RFC check character not digit/A', { rfc_emisor: 'ABC990101ABZ' }, ['rfc_emisor'], 'rfc_format'],
    [
      'régimen of a moral for a física',
      { rfc_emisor: 'PEGJ8001019Q8', regimen_fiscal_emisor: '601' },
      ['regimen_fiscal_emisor'],
      'regimen_rfc_mismatch',
    ],
    [
      'régimen of a física for a moral',
      { rfc_cliente: 'CHU110921AB7', regimen_fiscal_receptor: '612' },
      ['regimen_fiscal_receptor'],
      'regimen_rfc_mismatch',
    ],
    [
      'uso D01 for a persona moral',
      { rfc_cliente: 'CHU110921AB7', uso_cfdi: 'D01' },
      ['uso_cfdi'],
      'uso_cfdi_mismatch',
    ],
    [
      'generic RFC with uso G03',
      { rfc_cliente: 'XAXX010101000', uso_cfdi: 'G03' },
      ['uso_cfdi'],
      'rfc_generico',
    ],
    [
      'generic RFC with régimen 601',
      { rfc_cliente: 'XEXX010101000', regimen_fiscal_receptor: '601' },
      ['regimen_fiscal_receptor'],
      'rfc_generico',
    ],
    ['generic RFC as emisor', { rfc_emisor: 'XAXX010101000' }, ['rfc_emisor'], 'rfc_generico'],
    ['unknown régimen', { regimen_fiscal_emisor: '699' }, ['regimen_fiscal_emisor'], 'catalog_key'],
    ['unknown uso CFDI', { uso_cfdi: 'G99' }, ['uso_cfdi'], 'catalog_key'],
    ['unknown forma de pago', { forma_pago: '07' }, ['forma_pago'], 'catalog_key'],
    ['unknown método de pago', { metodo_pago: 'PPX' }, ['metodo_pago'], 'catalog_key'],
    ['unknown exportación', { exportacion: '05' }, ['exportacion'], 'catalog_key'],
    ['moneda XXX', { moneda: 'XXX' }, ['moneda'], 'catalog_key'],
    ['unknown moneda', { moneda: 'ABC' }, ['moneda'], 'catalog_key'],
    ['código postal', { lugar_expedicion: '7600' }, ['lugar_expedicion'], 'codigo_postal_format'],
    ['UUID', { uuid: '5F3A9C1E-7B2D-4E8F-A6C4-19D0B7E2F83' }, ['uuid'], 'uuid_format'],
    [
      'certificate number',
      { no_certificado: '3000100000050000341' },
      ['no_certificado'],
      'certificate_number_format',
    ],
    [
      'USD CFDI without tipo de cambio',
      { moneda: 'USD', rfc_emisor: 'EKU9003173C9' },
      ['tipo_cambio'],
      'missing',
    ],
    ['MXN with tipo de cambio', { tipo_cambio: 17.5 }, ['tipo_cambio'], 'tipo_cambio_invalido'],
    ['PPD with forma 03', { metodo_pago: 'PPD', forma_pago: '03' }, ['forma_pago'], 'forma_pago_metodo'],
    ['PUE with forma 99', { metodo_pago: 'PUE', forma_pago: '99' }, ['forma_pago'], 'forma_pago_metodo'],
    ['timbre data without UUID', { fecha_timbrado: '2024-03-15T10:00:00' }, ['uuid'], 'missing'],
    ['fecha not a day', { fecha: '2024-02-30' }, ['fecha'], 'date_format'],
    ['total off by a centavo', { total: 1432.1 }, ['total'], 'arithmetic_mismatch'],
    ['subtotal off', { subtotal: 1234.55 }, ['subtotal'], 'arithmetic_mismatch'],
    [
      'traslados total off',
      { total_impuestos_trasladados: 197.52 },
      ['total_impuestos_trasladados'],
      'arithmetic_mismatch',
    ],
    [
      'retenciones total sent without retenciones',
      { total_impuestos_retenidos: 1 },
      ['total_impuestos_retenidos'],
      'arithmetic_mismatch',
    ],
    [
      'ISR retenido above 35 %',
      { retenciones: [{ impuesto: 'ISR', tasa_o_cuota: 0.4 }] },
      ['retenciones', 0, 'tasa_o_cuota'],
      'tasa_o_cuota_invalida',
    ],
  ])('%s → 400 at its field', (_name, extra, loc, type) => {
    expect(problem({ ...MINIMAL, ...(extra as object) })).toMatchObject({
      loc: ['body', 'data', ...loc],
      type,
    });
  });

  it.each<[string, unknown, (string | number)[], string]>([
    [
      'IVA at 15 %',
      { traslados: [{ impuesto: 'IVA', tasa_o_cuota: 0.15 }] },
      ['traslados', 0, 'tasa_o_cuota'],
      'tasa_o_cuota_invalida',
    ],
    [
      'ISR transferred',
      { traslados: [{ impuesto: 'ISR', tasa_o_cuota: 0.1 }] },
      ['traslados', 0, 'impuesto'],
      'impuesto_invalido',
    ],
    [
      'IEPS tasa not in c_TasaOCuota',
      { traslados: [{ impuesto: 'IEPS', tasa_o_cuota: 0.2 }] },
      ['traslados', 0, 'tasa_o_cuota'],
      'tasa_o_cuota_invalida',
    ],
    [
      'Exento with a tasa',
      { traslados: [{ impuesto: 'IVA', tipo_factor: 'Exento', tasa_o_cuota: 0 }] },
      ['traslados', 0, 'tasa_o_cuota'],
      'tasa_o_cuota_invalida',
    ],
    [
      'unknown impuesto',
      { traslados: [{ impuesto: 'IVX', tasa_o_cuota: 0.16 }] },
      ['traslados', 0, 'impuesto'],
      'catalog_key',
    ],
    [
      'IVA retenido above 16 %',
      { retenciones: [{ impuesto: 'IVA', tasa_o_cuota: 0.2 }] },
      ['retenciones', 0, 'tasa_o_cuota'],
      'tasa_o_cuota_invalida',
    ],
    ['objeto 01 with taxes', { objeto_imp: '01', tasa_iva: 0.16 }, ['objeto_imp'], 'objeto_imp_conflict'],
    ['objeto 02 without taxes', { traslados: [] }, ['objeto_imp'], 'objeto_imp_conflict'],
    ['unknown objeto de impuesto', { objeto_imp: '09' }, ['objeto_imp'], 'catalog_key'],
    ['importe off', { importe: 1234.57 }, ['importe'], 'arithmetic_mismatch'],
    ['descuento above importe', { descuento: 2000 }, ['descuento'], 'descuento_too_large'],
    ['clave of 7 digits', { clave: '8111150' }, ['clave'], 'clave_format'],
    ['cantidad that rounds to 0 at 6 decimals', { cantidad: 1e-7 }, ['cantidad'], 'too_small'],
  ])('item: %s → 400 at its field', (_name, extra, loc, type) => {
    const data = { ...MINIMAL, items: [{ ...MINIMAL.items[0], ...(extra as object) }] };
    expect(problem(data)).toMatchObject({ loc: ['body', 'data', 'items', 0, ...loc], type });
  });

  it('names the difference to the centavo and every missing timbre field at once', () => {
    expect(problem({ ...MINIMAL, total: 1432.08 }).msg).toBe(
      'The total does not match the items: computed 1432.09, got 1432.08 (difference -0.01)',
    );
    const stamped = problems({ ...MINIMAL, uuid: '5f3a9c1e-7b2d-4e8f-a6c4-19d0b7e2f835' });
    expect(stamped.map((p) => p.loc.at(-1)).sort()).toEqual(
      [
        'fecha_timbrado',
        'no_certificado_sat',
        'rfc_cliente',
        'rfc_emisor',
        'rfc_prov_certif',
        'sello_cfdi',
      ].sort(),
    );
    expect(new Set(stamped.map((p) => p.type))).toEqual(new Set(['missing']));
  });

  it("the contract's cantidad and precio are plain numbers: binary-float noise is rounded half up to 6 decimals", () => {
    const d = parse({ ...MINIMAL, items: [{ concepto: 'x', cantidad: 3, precio: 0.1 + 0.2 }] });
    expect(d.items[0]!.precio).toBe(0.3);
    expect(calcFactura(d).items[0]!.importe).toBe('0.90');
    expect(
      parse({ ...MINIMAL, items: [{ concepto: 'x', cantidad: 1, precio: 1.1234565 }] }).items[0]!.precio,
    ).toBe(1.123457);
    expect(
      parse({ ...MINIMAL, items: [{ concepto: 'x', cantidad: 1, precio: 1e-7 }] }).items[0]!.precio,
    ).toBe(0);
  });

  it('the contract shape is valid in any currency; the XML then lists TipoCambio as missing', () => {
    expect(problems({ ...MINIMAL, moneda: 'EUR' })).toEqual([]);
    expect(facturaCfdi(parse({ ...MINIMAL, moneda: 'EUR' })).faltan).toContainEqual({
      campo: 'tipo_cambio',
      atributo: 'TipoCambio',
    });
  });

  it('totals the caller sends that match are accepted, rounded to the centavo', () => {
    expect(
      problems({ ...MINIMAL, subtotal: 1234.56, total_impuestos_trasladados: 197.53, total: 1432.09 }),
    ).toEqual([]);
  });

  it('RFC kinds', () => {
    expect(checkRfc('EKU9003173C9')).toEqual({ ok: true, rfc: 'EKU9003173C9', tipo: 'moral' });
    expect(checkRfc('xiqb891116qe4')).toEqual({ ok: true, rfc: 'XIQB891116QE4', tipo: 'fisica' });
    expect(checkRfc('ÑA&0002290A1')).toMatchObject({ ok: true, tipo: 'moral' }); // Ñ, & and 29 Feb 2000
    expect(checkRfc('ABC010229AB1')).toMatchObject({ ok: false }); // 2001 is not leap
    expect(checkRfc('XAXX010101000')).toMatchObject({ ok: true, tipo: 'generico' });
    expect(checkRfc('XEXX010101000')).toMatchObject({ ok: true, tipo: 'extranjero' });
  });
});

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

describe('CFDI 4.0 XML', () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    commentPropName: '#comment',
  });
  type Node = Record<string, unknown> & { [k: string]: unknown };
  const asList = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Node[];

  it('is well-formed, namespaced, unsigned, and carries the same figures as the PDF', () => {
    const xml = facturaXml(parse(SAMPLE));
    expect(XMLValidator.validate(xml)).toBe(true);
    const c = parser.parse(xml)['cfdi:Comprobante'] as Node;
    expect(c).toMatchObject({
      'xmlns:cfdi': 'http://www.sat.gob.mx/cfd/4',
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation':
        'http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd',
      Version: '4.0',
      Serie: 'A',
      Folio: '1024',
      Fecha: '2024-03-15T10:42:07',
      Sello: '',
      Certificado: '',
      NoCertificado: '30001000000500003416',
      FormaPago: '03',
      MetodoPago: 'PUE',
      SubTotal: '26107.05',
      Total: '30284.18',
      Moneda: 'MXN',
      TipoDeComprobante: 'I',
      Exportacion: '01',
      LugarExpedicion: '76000',
    });
    expect(c['cfdi:Emisor']).toEqual({
      Rfc: 'SDB180315KJ2',
      Nombre: 'Servicios Digitales del Bajío, S.A. de C.V.',
      RegimenFiscal: '601',
    });
    expect(c['cfdi:Receptor']).toEqual({
      Rfc: 'CHU110921AB7',
      Nombre: 'Comercializadora La Huerta, S. de R.L.',
      DomicilioFiscalReceptor: '37000',
      RegimenFiscalReceptor: '601',
      UsoCFDI: 'G03',
    });
    const conceptos = asList((c['cfdi:Conceptos'] as Node)['cfdi:Concepto']);
    expect(conceptos).toHaveLength(4);
    expect(conceptos[2]).toMatchObject({
      ClaveProdServ: '81111800',
      Cantidad: '6.5',
      ClaveUnidad: 'HUR',
      Unidad: 'hora',
      Descripcion: 'Horas de soporte técnico',
      ValorUnitario: '450.5',
      Importe: '2928.25',
      ObjetoImp: '02',
      'cfdi:Impuestos': {
        'cfdi:Traslados': {
          'cfdi:Traslado': {
            Base: '2928.25',
            Impuesto: '002',
            TipoFactor: 'Tasa',
            TasaOCuota: '0.160000',
            Importe: '468.52',
          },
        },
      },
    });
    const imp = c['cfdi:Impuestos'] as Node;
    expect(imp.TotalImpuestosTrasladados).toBe('4177.13');
    expect(imp.TotalImpuestosRetenidos).toBeUndefined();
    expect((imp['cfdi:Traslados'] as Node)['cfdi:Traslado']).toEqual({
      Base: '26107.05',
      Impuesto: '002',
      TipoFactor: 'Tasa',
      TasaOCuota: '0.160000',
      Importe: '4177.13',
    });
    // Sum of the concepts = the comprobante, to the centavo.
    const sum = conceptos.reduce((s, k) => s.plus(k.Importe as string), new Dec(0));
    expect(sum.toFixed(2)).toBe(c.SubTotal);
    // Children in cfdv40.xsd order; the timbre is not copied into a rebuilt, unsigned XML.
    expect(Object.keys(c).filter((k) => k.startsWith('cfdi:'))).toEqual([
      'cfdi:Emisor',
      'cfdi:Receptor',
      'cfdi:Conceptos',
      'cfdi:Impuestos',
    ]);
    expect(xml).toContain('folio fiscal 5F3A9C1E-7B2D-4E8F-A6C4-19D0B7E2F835');
  });

  it('retenciones before traslados, exentos without importe, descuentos, tipo de cambio', () => {
    const xml = facturaXml(
      parse({
        ...MINIMAL,
        rfc_emisor: 'TNU0801015A3',
        regimen_fiscal_emisor: '601',
        lugar_expedicion: '64000',
        no_certificado: '30001000000500003416',
        forma_pago: '03',
        metodo_pago: 'PUE',
        moneda: 'USD',
        tipo_cambio: 17.0512,
        retenciones: [{ impuesto: 'ISR', tasa_o_cuota: 0.1 }],
        items: [
          { concepto: 'Honorarios', cantidad: 1, precio: 2500, descuento: 250 },
          { concepto: 'Libro', cantidad: 2, precio: 35, tasa_iva: 'exento', retenciones: [] },
        ],
      }),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    const c = parser.parse(xml)['cfdi:Comprobante'] as Node;
    expect(c).toMatchObject({
      Moneda: 'USD',
      TipoCambio: '17.0512',
      SubTotal: '2570.00',
      Descuento: '250.00',
      Total: '2455.00',
    });
    const imp = c['cfdi:Impuestos'] as Node;
    expect(Object.keys(imp).filter((k) => k.startsWith('cfdi:'))).toEqual([
      'cfdi:Retenciones',
      'cfdi:Traslados',
    ]);
    expect(imp).toMatchObject({ TotalImpuestosRetenidos: '225.00', TotalImpuestosTrasladados: '360.00' });
    expect(asList((imp['cfdi:Traslados'] as Node)['cfdi:Traslado'])).toEqual([
      { Base: '2250.00', Impuesto: '002', TipoFactor: 'Tasa', TasaOCuota: '0.160000', Importe: '360.00' },
      { Base: '70.00', Impuesto: '002', TipoFactor: 'Exento' },
    ]);
    const honorarios = asList((c['cfdi:Conceptos'] as Node)['cfdi:Concepto'])[0]!;
    expect(honorarios).toMatchObject({ Importe: '2500.00', Descuento: '250.00' });
  });

  it('minimal data completed: público en general, names escaped', () => {
    const xml = facturaXml(
      parse({
        ...MINIMAL,
        cliente: 'A & B <"C">',
        rfc_emisor: 'TNU0801015A3',
        regimen_fiscal_emisor: '601',
        lugar_expedicion: '64000',
        no_certificado: '30001000000500003416',
        forma_pago: '01',
        metodo_pago: 'PUE',
      }),
      new Date('2024-06-01T18:30:00Z'),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('Nombre="A &amp; B &lt;&quot;C&quot;&gt;"');
    const c = parser.parse(xml)['cfdi:Comprobante'] as Node;
    expect(c.Fecha).toBe('2024-06-01T12:30:00'); // Mexico City time
    expect(c['cfdi:Receptor']).toMatchObject({
      Rfc: 'XAXX010101000',
      RegimenFiscalReceptor: '616',
      UsoCFDI: 'S01',
      DomicilioFiscalReceptor: '64000',
    });
  });

  it('minimal data: no XML (test/unit/cfdi-schema.test.ts covers the zip and LEEME.txt)', () => {
    expect(() => facturaXml(parse(MINIMAL))).toThrow(/faltan lugar_expedicion, forma_pago/);
  });
});

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
