// Only valid XML leaves the service: every CFDI XML the factura template writes passes SAT's cfdv40.xsd under
// xmllint; when the data lacks what CFDI 4.0 requires the zip carries no XML and LEEME.txt names the fields, and
// options.require_xml turns that into a 400 naming each field.
import { unzipSync } from 'fflate';
import {
  renderDocument,
  validateRenderRequest,
  type ValidRenderRequest,
} from '../../lambdas/documents/use-cases/render-request';
import { findTemplate } from '../../lambdas/documents/domain/template-registry';
import { borradorUsd, largeFactura } from '../../templates/factura/examples';
import { facturaCfdi } from '../../templates/factura/xml';
import { schema } from '../../templates/factura/schema';
import sample from '../../templates/factura/sample.json';
import { xmllintSchema } from '../helpers/sat-xml';

const MINIMAL = {
  empresa: 'Taller Núñez',
  cliente: 'Cliente & Asociados',
  items: [{ concepto: 'Reparación', cantidad: 1, precio: 1234.56 }],
  moneda: 'MXN',
};
/** What CFDI 4.0 needs on top of the contract's minimal data (receptor: público en general). */
const TIMBRABLE = {
  ...MINIMAL,
  rfc_emisor: 'TNU0801015A3',
  regimen_fiscal_emisor: '601',
  lugar_expedicion: '64000',
  no_certificado: '30001000000500003416',
  forma_pago: '01',
  metodo_pago: 'PUE',
};

const xmlOf = (data: unknown) => facturaCfdi(schema.parse(data), new Date('2024-06-01T18:30:00Z'));

async function zipOf(data: unknown): Promise<Record<string, string>> {
  const r = validateRenderRequest({ template: 'factura', format: 'zip', data });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const doc = await renderDocument((r as { request: ValidRenderRequest }).request, {
    renderPdf: async () => Buffer.from('%PDF-1.7 stand-in'),
    renderPng: async () => Buffer.alloc(0),
  });
  const files = unzipSync(new Uint8Array(doc.bytes));
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString('utf8')]));
}

describe('XML the factura writes passes xmllint --schema cfdv40.xsd', () => {
  const cases: [string, unknown][] = [
    ['the stamped sample (timbre not copied)', sample],
    ['USD, retenciones, IEPS, exento, descuento', { ...borradorUsd, no_certificado: '30001000000500003416' }],
    ['minimal data completed, público en general', TIMBRABLE],
    [
      'with RFC del cliente and its fiscal data',
      {
        ...TIMBRABLE,
        rfc_cliente: 'GIC010203AB1',
        regimen_fiscal_receptor: '601',
        domicilio_fiscal_receptor: '03100',
        uso_cfdi: 'G03',
      },
    ],
    ['40 lines', largeFactura({ ...TIMBRABLE, items: [] } as never, 40)],
    [
      'names with markup and control characters',
      {
        ...TIMBRABLE,
        cliente: 'A & B <"C">\u0001',
        items: [{ concepto: 'x -- y\u000b', cantidad: 1, precio: 1 }],
      },
    ],
  ];
  it.each(cases)('%s', (_name, data) => {
    const { xml, faltan } = xmlOf(data);
    expect(faltan).toEqual([]);
    const check = xmllintSchema(xml!);
    expect(check.errors).toBe('');
    expect(check.ok).toBe(true);
  });

  it('the checker itself refuses what a PAC would (empty Rfc, NoCertificado, DomicilioFiscalReceptor)', () => {
    const { xml } = xmlOf(TIMBRABLE);
    const broken = xml!
      .replace(/NoCertificado="\d+"/, 'NoCertificado=""')
      .replace(/Rfc="TNU0801015A3"/, 'Rfc=""');
    const check = xmllintSchema(broken);
    expect(check.ok).toBe(false);
    expect(check.errors).toMatch(/NoCertificado/);
    expect(check.errors).toMatch(/Rfc/);
  });
});

describe('data without what CFDI requires', () => {
  it('gives no XML and names the fields', () => {
    const r = xmlOf(MINIMAL);
    expect(r.xml).toBeUndefined();
    expect(r.faltan.map((f) => f.campo)).toEqual([
      'lugar_expedicion',
      'forma_pago',
      'no_certificado',
      'metodo_pago',
      'rfc_emisor',
      'regimen_fiscal_emisor',
    ]);
  });

  it('the zip carries no XML and LEEME.txt lists the missing fields', async () => {
    const files = await zipOf({ ...MINIMAL, rfc_cliente: 'GIC010203AB1' });
    expect(Object.keys(files)).toEqual(['factura.pdf', 'factura.html', 'data.json', 'LEEME.txt']);
    const leeme = files['LEEME.txt']!;
    expect(leeme).toContain('No incluye el CFDI 4.0 (XML)');
    for (const f of [
      'rfc_emisor (Emisor/@Rfc)',
      'domicilio_fiscal_receptor (Receptor/@DomicilioFiscalReceptor)',
    ])
      expect(leeme).toContain(`  - ${f}`);
  });

  it('a complete zip carries the XML and no such note', async () => {
    const files = await zipOf(TIMBRABLE);
    expect(Object.keys(files)).toContain('factura.xml');
    expect(xmllintSchema(files['factura.xml']!).ok).toBe(true);
    expect(files['LEEME.txt']).not.toContain('No incluye');
  });

  it('options.require_xml: 400 items at each missing data field', () => {
    const r = validateRenderRequest({
      template: 'factura',
      format: 'zip',
      data: { ...TIMBRABLE, no_certificado: undefined, forma_pago: undefined },
      options: { require_xml: true },
    });
    expect(r.ok).toBe(false);
    const problems = (r as { problems: { loc: unknown[]; type: string }[] }).problems;
    expect(problems.map((p) => [p.loc, p.type])).toEqual([
      [['body', 'data', 'forma_pago'], 'missing'],
      [['body', 'data', 'no_certificado'], 'missing'],
    ]);
    expect(
      validateRenderRequest({
        template: 'factura',
        format: 'zip',
        data: TIMBRABLE,
        options: { require_xml: true },
      }).ok,
    ).toBe(true);
  });

  it('options.require_xml on a template without XML is refused', () => {
    const r = validateRenderRequest({
      template: 'cotizacion',
      format: 'pdf',
      data: findTemplate('cotizacion')!.sample,
      options: { require_xml: true },
    });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).toContain('require_xml');
  });
});
