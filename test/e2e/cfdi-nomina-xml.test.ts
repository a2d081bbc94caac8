// CFDI de nómina (tipo N, Complemento de Nómina 1.2) in, payroll receipt out, through real Chromium with the nomina
// template; checked like the factura corpus (cfdi-xml.test.ts) by independent tools: each fixture in
// test/fixtures/cfdi/nomina passes xmllint against SAT's cfdv40.xsd + nomina12.xsd + TimbreFiscalDigitalv11.xsd; the
// PDF's text (pdftotext) has the UUID, both RFCs, the CURP, the Total, each percepción/deducción and the cadena
// original SAT's XSLT gives (xsltproc); the QR decodes (jsQR) to SAT's URL with the XML's parameters; the XML comes
// back byte for byte from the PDF/A (pdfdetach). A Total one centavo off is printed as written, with a warning.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { totalQr } from '../../templates/kit/cfdi/timbre';
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { cadenaTfdXslt, xmllintSchema } from '../helpers/sat-xml';
import { flat, pdfInfo, templateRenderer } from '../helpers/template-render';
import { pdftotext } from '../helpers/pdftotext';

jest.setTimeout(180_000);

const DIR = join(__dirname, '..', 'fixtures', 'cfdi', 'nomina');
const CORPUS = readdirSync(DIR)
  .filter((f) => f.endsWith('.xml'))
  .sort();
const tpl = templateRenderer('nomina');

const attr = (xml: string, el: string, name: string) =>
  new RegExp(`<${el}\\b[^>]*?\\s${name}="([^"]*)"`).exec(xml)![1]!;
const tfdElement = (xml: string) => /<tfd:TimbreFiscalDigital[^>]*\/>/.exec(xml)![0];

it('the nómina corpus: at least one stamped CFDI de tipo N with Nómina 1.2', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(1);
  for (const f of CORPUS) {
    const xml = readFileSync(join(DIR, f), 'utf8');
    expect(attr(xml, 'cfdi:Comprobante', 'TipoDeComprobante')).toBe('N');
    expect(attr(xml, 'nomina12:Nomina', 'Version')).toBe('1.2');
  }
});

describe.each(CORPUS)('%s', (name) => {
  const xml = readFileSync(join(DIR, name), 'utf8');
  const uuid = attr(xml, 'tfd:TimbreFiscalDigital', 'UUID');
  const rfcE = attr(xml, 'cfdi:Emisor', 'Rfc');
  const rfcR = attr(xml, 'cfdi:Receptor', 'Rfc');
  const total = attr(xml, 'cfdi:Comprobante', 'Total');
  let file: string;
  let warnings: string[] | undefined;
  beforeAll(async () => {
    ({ file, warnings } = await tpl.renderBody({ cfdi_xml: xml }));
  });

  it("passes xmllint against SAT's cfdv40.xsd + nomina12.xsd + TimbreFiscalDigitalv11.xsd", () => {
    expect(xmllintSchema(xml).errors).toBe('');
  });

  it('prints UUID, RFCs, CURP, total, every line and the cadena original that SAT’s XSLT gives', () => {
    const text = flat(pdftotext(file));
    expect(text).toContain(uuid);
    expect(text).toContain(rfcE);
    expect(text).toContain(rfcR);
    expect(text).toContain(attr(xml, 'nomina12:Receptor', 'Curp'));
    expect(text).toContain(Number(total).toLocaleString('en-US', { minimumFractionDigits: 2 }));
    for (const m of xml.matchAll(/<nomina12:(?:Percepcion|Deduccion|OtroPago)\b[^>]*Concepto="([^"]+)"/g))
      expect(text).toContain(m[1]);
    const cadena = cadenaTfdXslt(tfdElement(xml));
    expect(cadena).toMatch(/^\|\|1\.1\|/);
    expect(text.replace(/\s+/g, '')).toContain(cadena.replace(/\s+/g, ''));
  });

  it("its QR decodes to SAT's verification URL with the XML's parameters", () => {
    const page = pdfInfo(file).pages;
    const url = new URL(tpl.qrInPdf(file, { page, region: { x: 0, y: 0, w: 0.4, h: 1 } })!);
    expect(`${url.origin}${url.pathname}`).toBe(
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx',
    );
    expect(url.searchParams.get('id')).toBe(uuid);
    expect(url.searchParams.get('re')).toBe(rfcE);
    expect(url.searchParams.get('rr')).toBe(rfcR);
    expect(url.searchParams.get('tt')).toBe(totalQr(total));
    expect(url.searchParams.get('fe')).toBe(attr(xml, 'cfdi:Comprobante', 'Sello').slice(-8));
  });

  it('is a PDF/A-3b carrying the XML byte for byte (pdfdetach)', () => {
    expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toContain('1: nomina.xml');
    const saved = join(tpl.dir, `detached-${name}`);
    execFileSync('pdfdetach', ['-save', '1', '-o', saved, file]);
    expect(readFileSync(saved).equals(Buffer.from(xml, 'utf8'))).toBe(true);
  });

  it(
    name.includes('descuadre')
      ? 'warns that the Total does not add up, printed as written'
      : 'raises no warning',
    () => {
      const text = flat(pdftotext(file));
      if (name.includes('descuadre')) {
        expect(warnings).toEqual(['Comprobante@Total: XML 9430.76, expected 9430.75']);
        expect(text).toContain('IMPORTES NO CUADRAN');
        expect(text).toContain('Comprobante@Total: el XML dice 9430.76; según sus líneas, 9430.75');
      } else {
        expect(warnings).toBeUndefined();
        expect(text).not.toContain('IMPORTES NO CUADRAN');
      }
    },
  );
});

it('template and CFDI type must match: a factura XML to nomina, a nómina XML to factura → 400 naming the other', () => {
  const ingreso = readFileSync(join(DIR, '..', 'ingreso-basico.xml'), 'utf8');
  const nomina = readFileSync(join(DIR, CORPUS[0]!), 'utf8');
  const a = validateRenderRequest({ template: 'nomina', format: 'pdf', cfdi_xml: ingreso });
  const b = validateRenderRequest({ template: 'factura', format: 'pdf', cfdi_xml: nomina });
  expect(a.ok || a.problems).toEqual([
    expect.objectContaining({
      loc: ['body', 'cfdi_xml'],
      type: 'cfdi_unsupported',
      msg: expect.stringContaining("template 'factura'"),
    }),
  ]);
  expect(b.ok || b.problems).toEqual([
    expect.objectContaining({
      loc: ['body', 'cfdi_xml'],
      type: 'cfdi_unsupported',
      msg: expect.stringContaining("template 'nomina'"),
    }),
  ]);
  // A CURP outside SAT's pattern (month 13) is named, at body.cfdi_xml; one whose RENAPO check digit does not match
  // is not refused: SAT's XSD checks the pattern only, and a printer is never stricter than SAT.
  const badCurp = validateRenderRequest({
    template: 'nomina',
    format: 'pdf',
    cfdi_xml: nomina.replace('Curp="HEOA850612HQTRRN09"', 'Curp="HEOA851312HQTRRN09"'),
  });
  expect(badCurp.ok || badCurp.problems).toEqual([
    expect.objectContaining({
      loc: ['body', 'cfdi_xml'],
      type: 'cfdi_invalid',
      msg: expect.stringContaining('empleado.curp'),
    }),
  ]);
  const digit = validateRenderRequest({
    template: 'nomina',
    format: 'pdf',
    cfdi_xml: nomina.replace('Curp="HEOA850612HQTRRN09"', 'Curp="HEOA850612HQTRRN01"'),
  });
  expect(digit.ok).toBe(true);
});

it("a 6-digit NSS (nomina12.xsd: [0-9]{1,15}) is valid for SAT's XSD and renders, printed as written", async () => {
  const nomina = readFileSync(join(DIR, 'nomina-quincenal.xml'), 'utf8').replace(
    'NumSeguridadSocial="12038512345"',
    'NumSeguridadSocial="120385"',
  );
  expect(xmllintSchema(nomina).errors).toBe('');
  const { file, warnings } = await tpl.renderBody({ cfdi_xml: nomina });
  expect(warnings).toBeUndefined();
  expect(flat(pdftotext(file))).toContain('120385');
  const sixteen = nomina.replace('NumSeguridadSocial="120385"', 'NumSeguridadSocial="1234567890123456"');
  expect(xmllintSchema(sixteen).ok).toBe(false);
  const refused = validateRenderRequest({ template: 'nomina', format: 'pdf', cfdi_xml: sixteen });
  expect(refused.ok || refused.problems).toEqual([
    expect.objectContaining({ type: 'cfdi_invalid', msg: expect.stringContaining('empleado.nss') }),
  ]);
});

it('another complement on a nómina is printed, not dropped; one nobody knows is named by unknownComplements', async () => {
  const xml = readFileSync(join(DIR, 'nomina-quincenal.xml'), 'utf8').replace(
    '<cfdi:Complemento>',
    '<cfdi:Complemento><mc:DatosAdicionales xmlns:mc="urn:x-ejemplo:complemento-propio:1" Version="1.0" Contrato="CT-2025-009"><mc:Hito Numero="1" Descripcion="Bono de productividad"/></mc:DatosAdicionales>',
  );
  const { file, warnings } = await tpl.renderBody({ cfdi_xml: xml });
  expect(warnings).toBeUndefined();
  const text = flat(pdftotext(file));
  expect(text).toContain('COMPLEMENTO NO RECONOCIDO'); // CSS text-transform
  expect(text).toContain('CT-2025-009');
  expect(text).toContain('Bono de productividad');
  const check = validateRenderRequest({ template: 'nomina', format: 'pdf', cfdi_xml: xml });
  expect(check.ok && check.request.kind === 'template' && check.request.xml?.unknownComplements).toEqual([
    'DatosAdicionales (urn:x-ejemplo:complemento-propio:1)',
  ]);
});
