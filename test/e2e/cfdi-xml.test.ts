// CFDI 4.0 XML in, printed representation out, through real Chromium; checked with independent tools against the
// corpus in test/fixtures/cfdi (made by us, stamped with a made-up timbre): every file passes xmllint against SAT's
// schemas; the PDF's text (pdftotext) has its UUID, both RFCs, its Total and the cadena original del TFD, which
// equals what xsltproc makes of the TimbreFiscalDigital with SAT's cadenaoriginal_TFD_1_1.xslt; the QR, rasterised
// by pdftoppm, decodes (jsQR) to SAT's verification URL with id, re, rr, tt and fe read from the XML.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { totalQr } from '../../templates/kit/cfdi/timbre';
import { cadenaTfdXslt, xmllintSchema } from '../helpers/sat-xml';
import { flat, pdfInfo, templateRenderer } from '../helpers/template-render';
import { pdftotext } from '../helpers/pdftotext';

jest.setTimeout(180_000);

const DIR = join(__dirname, '..', 'fixtures', 'cfdi');
const CORPUS = readdirSync(DIR)
  .filter((f) => f.endsWith('.xml'))
  .sort();
const tpl = templateRenderer('factura');

interface Node {
  [k: string]: string | Node;
}
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
});
function read(xml: string) {
  const c = parser.parse(xml)['cfdi:Comprobante'] as Node;
  const tfd = (c['cfdi:Complemento'] as Node)['tfd:TimbreFiscalDigital'] as Node;
  return { c, e: c['cfdi:Emisor'] as Node, r: c['cfdi:Receptor'] as Node, tfd };
}
/** The TimbreFiscalDigital element alone, as SAT's XSLT takes it (its own namespace declaration kept). */
const tfdElement = (xml: string) => /<tfd:TimbreFiscalDigital[^>]*\/>/.exec(xml)![0];

it('the corpus has at least 10 stamped CFDI 4.0 of types I, E, T and P (nómina: cfdi-nomina-xml.test.ts)', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(10);
  const tipos = new Set(CORPUS.map((f) => read(readFileSync(join(DIR, f), 'utf8')).c.TipoDeComprobante));
  expect([...tipos].sort()).toEqual(['E', 'I', 'P', 'T']);
});

describe.each(CORPUS)('%s', (name) => {
  const xml = readFileSync(join(DIR, name), 'utf8');
  const { c, e, r, tfd } = read(xml);
  let file: string;
  let warnings: string[] | undefined;
  beforeAll(async () => {
    ({ file, warnings } = await tpl.renderBody({ cfdi_xml: xml }));
  });

  it("passes xmllint against SAT's cfdv40.xsd + TimbreFiscalDigitalv11.xsd", () => {
    expect(xmllintSchema(xml).errors).toBe('');
  });

  it('prints UUID, RFCs, total and the cadena original that SAT’s XSLT gives', () => {
    const text = flat(pdftotext(file));
    const compact = text.replace(/\s+/g, '');
    expect(text).toContain(tfd.UUID as string);
    expect(text).toContain(e.Rfc as string);
    expect(text).toContain(r.Rfc as string);
    const total = Number(c.Total).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(text).toContain(total);
    const cadena = cadenaTfdXslt(tfdElement(xml));
    expect(cadena).toMatch(/^\|\|1\.1\|/);
    // Long base64 runs wrap across lines in the PDF: compare without whitespace.
    expect(compact).toContain(cadena.replace(/\s+/g, ''));
  });

  it("its QR decodes to SAT's verification URL with the XML's parameters", () => {
    // The timbre (QR in its left column) closes the document: its last page.
    const page = pdfInfo(file).pages;
    const url = new URL(tpl.qrInPdf(file, { page, region: { x: 0, y: 0, w: 0.4, h: 1 } })!);
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx',
    );
    expect(url.searchParams.get('id')).toBe(tfd.UUID);
    expect(url.searchParams.get('re')).toBe(e.Rfc);
    expect(url.searchParams.get('rr')).toBe(r.Rfc);
    expect(url.searchParams.get('tt')).toBe(totalQr(c.Total as string));
    expect(url.searchParams.get('fe')).toBe((c.Sello as string).slice(-8));
  });

  it(name === 'descuadre.xml' ? 'warns that the total does not add up' : 'raises no warning', () => {
    const text = flat(pdftotext(file));
    if (name === 'descuadre.xml') {
      expect(warnings).toEqual([expect.stringContaining('Comprobante@Total: XML 1160.01, expected 1160.00')]);
      expect(text).toContain('IMPORTES NO CUADRAN'); // CSS text-transform
      expect(text).toContain('Comprobante@Total: el XML dice 1160.01; según sus conceptos, 1160.00');
      expect(text).toContain('1,160.01'); // printed as the XML says, not corrected
    } else {
      expect(warnings).toBeUndefined();
      expect(text).not.toContain('IMPORTES NO CUADRAN');
    }
  });
});

it('a zip from XML carries the caller’s XML byte for byte', async () => {
  const xml = readFileSync(join(DIR, 'ingreso-usd.xml'), 'utf8');
  const { bytes } = await tpl.renderBody({ cfdi_xml: xml, format: 'zip' });
  const files = unzipSync(new Uint8Array(bytes));
  expect(Object.keys(files)).toEqual([
    'factura.pdf',
    'factura.html',
    'factura.xml',
    'data.json',
    'LEEME.txt',
  ]);
  expect(Buffer.from(files['factura.xml']!).equals(Buffer.from(xml, 'utf8'))).toBe(true);
});

it('tipo P: each payment and the document it pays (UUID, parcialidad, saldos, IVA) and the Pagos totals', async () => {
  const xml = readFileSync(join(DIR, 'pago-parcialidad.xml'), 'utf8');
  const { file } = await tpl.renderBody({ cfdi_xml: xml });
  const text = flat(pdftotext(file));
  expect(text).toContain('RECIBO DE PAGO'); // CSS text-transform
  expect(text).toContain('P — Pago');
  const pagado = read(readFileSync(join(DIR, 'ingreso-sustitucion-ppd.xml'), 'utf8')).tfd.UUID as string;
  expect(text).toContain(pagado);
  expect(text).toContain('$53,722.50'); // saldo anterior = the PPD invoice's Total
  expect(text).toContain('$20,000.00'); // pagado
  expect(text).toContain('$33,722.50'); // saldo insoluto
  expect(text).toContain('SPEI-0603-7781');
  expect(text).toMatch(/IVA 16 %: base \$17,241\.38, importe \$2,758\.62/);
  expect(text).toContain('Monto total de los pagos');
  expect(text).not.toContain('Importe con letra'.toUpperCase());

  // Re-checked, never corrected: a saldo insoluto that is not saldo anterior − pagado, a wrong MontoTotalPagos.
  const off = xml
    .replace('ImpSaldoInsoluto="33722.50"', 'ImpSaldoInsoluto="33722.00"')
    .replace('MontoTotalPagos="20000.00"', 'MontoTotalPagos="21000.00"');
  const bad = await tpl.renderBody({ cfdi_xml: off });
  expect(bad.warnings).toEqual([
    'Pago[1]/DoctoRelacionado[1]@ImpSaldoInsoluto: XML 33722.00, expected 33722.50; Totales@MontoTotalPagos: XML 21000.00, expected 20000.00',
  ]);
  expect(flat(pdftotext(bad.file))).toContain('$33,722.00');
});
