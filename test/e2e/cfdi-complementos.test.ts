// Every complement prints, completely and exactly, from real Chromium, checked by tools independent of our code.
// Corpus: test/fixtures/cfdi/terceros (stamped CFDI 4.0 and Retenciones 2.0 written by other projects and PAC test
// suites, each with its licence) and test/fixtures/cfdi/complementos (one CFDI per complement, built from SAT's XSDs
// by its generar.ts). For every file: xmllint against SAT's XSDs; a PDF whose text (pdftotext) has the UUID as
// written, both RFCs, the total, every concepto and every attribute value of every complement (document and concept
// level); the TFD cadena original byte-identical to xsltproc over SAT's cadenaoriginal_TFD_1_1.xslt; the QR decoding
// to SAT's verification URL; and no warning. Then each complement's own checks: Carta Porte's IdCCP, ubicaciones,
// mercancías, vehicle and figuras; Comercio Exterior's Incoterm and fracciones; implocal in the totals (and a wrong
// Total still warns); an unknown complement under its notice, named by the response header; Retenciones 2.0.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { totalQr } from '../../templates/kit/cfdi/timbre';
import { TFD_XSLT, xmllintSchema, SAT_DIR } from '../helpers/sat-xml';
import { flat, pdfInfo, templateRenderer } from '../helpers/template-render';
import { pdftotext } from '../helpers/pdftotext';

jest.setTimeout(300_000);

const FIXTURES = join(__dirname, '..', 'fixtures', 'cfdi');
const list = (dir: string): string[] =>
  readdirSync(join(FIXTURES, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => join(dir, f))
    .sort();
const CORPUS = [...list('terceros'), ...list('complementos')];
const read = (f: string) => readFileSync(join(FIXTURES, f), 'utf8');

const CFDI_XSD = join(FIXTURES, 'complementos', 'esquema.xsd');
const RET_XSD = join(SAT_DIR, 'retenciones-completo.xsd');

const factura = templateRenderer('factura');
const nomina = templateRenderer('nomina');

const tmp = mkdtempSync(join(tmpdir(), 'cfdi-comp-'));
/** The TFD alone, copied out by xsltproc (its namespace wherever declared), then SAT's XSLT over it. */
const EXTRACT = join(tmp, 'tfd.xslt');
writeFileSync(
  EXTRACT,
  `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital">
  <xsl:template match="/"><xsl:copy-of select="(//tfd:TimbreFiscalDigital)[1]"/></xsl:template>
</xsl:stylesheet>`,
);
function cadenaXslt(xml: string): string {
  const src = join(tmp, 'doc.xml');
  writeFileSync(src, xml);
  const tfd = spawnSync('xsltproc', ['--nonet', EXTRACT, src], { encoding: 'utf8' });
  if (tfd.status !== 0) throw new Error(tfd.stderr);
  const one = join(tmp, 'tfd.xml');
  writeFileSync(one, tfd.stdout);
  const r = spawnSync('xsltproc', ['--nonet', TFD_XSLT, one], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const attr = (xml: string, el: string, name: string) => {
  const m = new RegExp(`<(?:[\\w]+:)?${el}\\b[^>]*?\\s${name}="([^"]*)"`).exec(xml);
  return m ? unescape(m[1]!) : undefined;
};
const attrsAll = (xml: string, el: string, name: string) =>
  [...xml.matchAll(new RegExp(`<(?:[\\w]+:)?${el}\\b[^>]*?\\s${name}="([^"]*)"`, 'g'))].map((m) =>
    unescape(m[1]!),
  );
const compact = (s: string) => s.replace(/\s+/g, '');

/** Every attribute value of the complements (document level, but the TFD, Pagos 2.0, Nómina 1.2 and implocal, which
 * have their own layouts) and of the concept-level nodes: what the PDF must show, as written. */
function complementValues(xml: string): string[] {
  const blocks: string[] = [];
  const comp = /<(\w+:)?Complemento>([\s\S]*?)<\/(\w+:)?Complemento>/.exec(xml)?.[2] ?? '';
  for (const m of comp.matchAll(/<(\w+):(\w+)\b[\s\S]*?(?:\/>|<\/\1:\2>)/g))
    if (!/^(tfd|pago20|pago|nomina12|implocal)$/.test(m[1]!) && !/TimbreFiscalDigital/.test(m[2]!))
      blocks.push(m[0]);
  for (const m of xml.matchAll(
    /<cfdi:(ACuentaTerceros|InformacionAduanera|CuentaPredial|Parte|ComplementoConcepto)\b[\s\S]*?(?:\/>|<\/cfdi:\1>)/g,
  ))
    blocks.push(m[0]);
  return blocks.flatMap((b) =>
    [...b.matchAll(/\s([\w:]+)="([^"]*)"/g)]
      .filter(([, k]) => !k!.startsWith('xmlns') && !k!.startsWith('xsi:'))
      .map(([, , v]) => unescape(v!).trim())
      .filter((v) => v !== ''),
  );
}

const money = (v: string) =>
  Number(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

it('the corpus: at least 40 files, types I, E, T, P and N, Retenciones 2.0, and every complement generated', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(40);
  const tipos = new Set(CORPUS.map((f) => attr(read(f), 'Comprobante', 'TipoDeComprobante') ?? 'RET'));
  expect([...tipos].sort()).toEqual(['E', 'I', 'N', 'P', 'RET', 'T']);
  const terceros = CORPUS.filter((f) => f.startsWith('terceros'));
  expect(terceros.length).toBeGreaterThanOrEqual(20);
  for (const f of terceros)
    expect(readdirSync(join(FIXTURES, f, '..')).some((x) => /^LICENSE/.test(x))).toBe(true);
});

describe.each(CORPUS)('%s', (name) => {
  const xml = read(name);
  const ret = /retencionpago\/2"/.test(xml);
  const tipoN = attr(xml, 'Comprobante', 'TipoDeComprobante') === 'N';
  const tpl = tipoN ? nomina : factura;
  let file: string;
  let warnings: string[] | undefined;
  beforeAll(async () => {
    ({ file, warnings } = await tpl.renderBody({ cfdi_xml: xml }));
  });

  it("passes xmllint against SAT's XSDs", () => {
    expect(xmllintSchema(xml, ret ? RET_XSD : CFDI_XSD).errors).toBe('');
  });

  it('prints the UUID as written, both RFCs, the total, every concepto and every complement value; no warning', () => {
    const text = flat(pdftotext(file));
    const c = compact(text);
    const uuid = attr(xml, 'TimbreFiscalDigital', 'UUID')!;
    expect(text).toContain(uuid);
    const rfcE = ret ? attr(xml, 'Emisor', 'RfcE')! : attr(xml, 'Emisor', 'Rfc')!;
    // A foreign receptor of a Retenciones may carry no tax id at all: then its name identifies it.
    const rfcR = ret
      ? (attr(xml, 'Nacional', 'RfcR') ??
        attr(xml, 'Extranjero', 'NumRegIdTribR') ??
        attr(xml, 'Extranjero', 'NomDenRazSocR')!)
      : attr(xml, 'Receptor', 'Rfc')!;
    expect(text).toContain(rfcE);
    expect(text).toContain(rfcR);
    const total = ret ? attr(xml, 'Totales', 'MontoTotOperacion')! : attr(xml, 'Comprobante', 'Total')!;
    expect(text).toContain(money(total));
    // Symbols no installed font can draw (e.g. U+23FB ⏻ in one of cfdiutils' files) come out of the PDF as no text.
    const drawable = (s: string) => compact(s).replace(/\p{So}/gu, '');
    if (!ret && !tipoN)
      for (const d of attrsAll(xml, 'Concepto', 'Descripcion')) expect(c).toContain(drawable(d));
    const missing = complementValues(xml).filter((v) => !c.includes(drawable(v)));
    expect(missing).toEqual([]);
    expect(warnings).toBeUndefined();
    expect(text).not.toContain('IMPORTES NO CUADRAN');
  });

  it("the TFD cadena original equals xsltproc over SAT's cadenaoriginal_TFD_1_1.xslt, byte for byte", () => {
    const cadena = cadenaXslt(xml);
    expect(cadena).toMatch(/^\|\|1\.1\|/);
    expect(cadena).toContain(attr(xml, 'TimbreFiscalDigital', 'UUID')!); // case as written
    expect(compact(flat(pdftotext(file)))).toContain(compact(cadena));
    const check = validateRenderRequest({
      template: tipoN ? 'nomina' : 'factura',
      format: 'pdf',
      cfdi_xml: xml,
    });
    const view = check.ok && check.request.kind === 'template' ? check.request.xml?.view : undefined;
    expect((view as { calc: { timbre: { cadena_original: string } } }).calc.timbre.cadena_original).toBe(
      cadena,
    );
  });

  it("its QR decodes to SAT's verification URL with the XML's parameters", () => {
    const url = new URL(
      tpl.qrInPdf(file, { page: pdfInfo(file).pages, region: { x: 0, y: 0, w: 0.4, h: 1 } })!,
    );
    expect(url.searchParams.get('id')?.toLowerCase()).toBe(
      attr(xml, 'TimbreFiscalDigital', 'UUID')!.toLowerCase(),
    );
    // fe is the sello's last 8 characters as they are ("+" included, as SAT's URL takes it): read it raw.
    expect(/[?&]fe=([^&]*)/.exec(url.href)![1]).toBe(
      (ret ? attr(xml, 'Retenciones', 'Sello') : attr(xml, 'Comprobante', 'Sello'))!.slice(-8),
    );
    if (ret) {
      expect(`${url.origin}${url.pathname}`).toBe('https://prodretencionverificacion.clouda.sat.gob.mx/');
      expect(url.searchParams.get('tt')).toBe(totalQr(attr(xml, 'Totales', 'MontoTotOperacion')!));
    } else {
      expect(`${url.origin}${url.pathname}`).toBe(
        'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx',
      );
      expect(url.searchParams.get('tt')).toBe(totalQr(attr(xml, 'Comprobante', 'Total')!));
    }
  });
});

describe('each complement', () => {
  const text = async (name: string, xml = read(name)) => {
    const r = await factura.renderBody({ cfdi_xml: xml });
    return { ...r, text: flat(pdftotext(r.file)) };
  };

  it('Carta Porte 3.1: IdCCP, every Ubicación, every Mercancía, the vehicle and the figura de transporte', async () => {
    const name = join('complementos', 'carta-porte-31-ingreso.xml');
    const { text: t } = await text(name);
    const xml = read(name);
    expect(t).toContain('COMPLEMENTO CARTA PORTE 3.1'); // CSS text-transform
    expect(t).toContain(attr(xml, 'CartaPorte', 'IdCCP')!);
    for (const id of attrsAll(xml, 'Ubicacion', 'IDUbicacion')) expect(t).toContain(id);
    expect(t).toMatch(/Ubicación \(2\)/);
    for (const d of attrsAll(xml, 'Mercancia', 'Descripcion')) expect(t).toContain(d);
    expect(t).toMatch(/Mercancía \(3\)/);
    expect(t).toContain('T3S2');
    expect(t).toContain('54AB3C');
    expect(t).toContain('MARIO VÁZQUEZ ALANÍS');
    expect(t).toContain('NL0012345678');
  });

  it('Carta Porte 3.0 and 2.0 are read too', async () => {
    for (const [f, v] of [
      ['carta-porte-30.xml', '3.0'],
      ['carta-porte-20.xml', '2.0'],
    ] as const) {
      const { text: t } = await text(join('complementos', f));
      expect(t).toContain(`COMPLEMENTO CARTA PORTE ${v}`);
    }
  });

  it('Comercio Exterior 2.0: Incoterm, each fracción arancelaria, TotalUSD; 1.1 read too', async () => {
    const { text: t } = await text(join('complementos', 'comercio-exterior-20.xml'));
    expect(t).toContain('COMPLEMENTO COMERCIO EXTERIOR 2.0');
    expect(t).toMatch(/Incoterm: FCA/);
    expect(t).toContain('08044001');
    expect(t).toContain('08044099');
    expect(t).toMatch(/Total USD: 4500\.00/);
    const { text: t11 } = await text(join('complementos', 'comercio-exterior-11.xml'));
    expect(t11).toContain('COMPLEMENTO COMERCIO EXTERIOR 1.1');
    expect(t11).toContain('8204110100');
  });

  it('Impuestos locales: each local tax in the totals, the figures add up to Total, no warning; a wrong Total still warns', async () => {
    const ish = await text(join('complementos', 'implocal-hotel-ish.xml'));
    expect(ish.warnings).toBeUndefined();
    expect(ish.text).toContain('ISH 3.00 % (local)');
    expect(ish.text).toContain('$166.50');
    expect(ish.text).toContain('$6,604.50'); // 5550 + 888 IVA + 166.50 ISH
    expect(ish.text).not.toContain('IMPORTES NO CUADRAN');
    const ced = await text(join('complementos', 'implocal-cedular.xml'));
    expect(ced.warnings).toBeUndefined();
    // Totals are two columns: pdftotext may read a label and its figure apart.
    expect(ced.text).toContain('Retención Cedular 1.00 % (local)');
    expect(ced.text).toContain('-$150.00');
    expect(ced.text).toContain('$15,750.00'); // 15000 + 2400 IVA − 1500 ISR − 150 cedular
    // Negative control: one centavo more in Total is still a discrepancy.
    const xml = read(join('complementos', 'implocal-hotel-ish.xml')).replace(
      'Total="6604.50"',
      'Total="6604.51"',
    );
    const bad = await text('', xml);
    expect(bad.warnings).toEqual([
      expect.stringContaining('Comprobante@Total: XML 6604.51, expected 6604.50'),
    ]);
    expect(bad.text).toContain('IMPORTES NO CUADRAN');
    // And local lines that do not add up to their total.
    const lines = read(join('complementos', 'implocal-hotel-ish.xml')).replace(
      'Importe="166.50"',
      'Importe="160.00"',
    );
    expect((await text('', lines)).warnings).toEqual([
      expect.stringContaining('ImpuestosLocales@TotaldeTraslados: XML 166.50, expected 160.00'),
    ]);
  });

  it('concept level: A cuenta de terceros, pedimento, cuenta predial, parte; iedu and venta de vehículos', async () => {
    const { text: t } = await text(join('complementos', 'concepto-terceros-aduana-predial-parte.xml'));
    expect(t).toContain('A cuenta de terceros: RFC JUFA7608212V6');
    expect(t).toMatch(/Información aduanera: Pedimento 24 +47 +3807 +4003832/);
    expect(t).toContain('Cuenta predial: Número 010101000123');
    expect(t).toContain('Disco de estado sólido 1 TB');
    expect(t).toMatch(/Pedimento 24 +47 +3807 +4003833/);
    const iedu = await text(join('complementos', 'iedu.xml'));
    expect(iedu.text).toContain('Instituciones educativas privadas: ');
    expect(iedu.text).toContain('MISL150301MHGRNC08');
    const auto = await text(join('complementos', 'venta-vehiculos.xml'));
    expect(auto.text).toContain('3N1AB8AP5RY654321');
  });

  it('an unknown complement prints as a generic section under a notice; the response names it', async () => {
    const name = join('complementos', 'desconocido.xml');
    const { text: t, warnings } = await text(name);
    expect(warnings).toBeUndefined();
    expect(t).toContain('COMPLEMENTO NO RECONOCIDO'); // CSS text-transform
    expect(t).toContain('urn:x-ejemplo:complemento-propio:1');
    expect(t).toContain('Puente Norte');
    expect(t).toContain('Cimentación');
    expect(t).toContain('Estructura');
    const check = validateRenderRequest({ template: 'factura', format: 'pdf', cfdi_xml: read(name) });
    expect(check.ok && check.request.kind === 'template' && check.request.xml?.unknownComplements).toEqual([
      'DatosAdicionales (urn:x-ejemplo:complemento-propio:1)',
    ]);
    // A known one is not named.
    const known = validateRenderRequest({
      template: 'factura',
      format: 'pdf',
      cfdi_xml: read(join('complementos', 'ine.xml')),
    });
    expect(
      known.ok && known.request.kind === 'template' && known.request.xml?.unknownComplements,
    ).toBeUndefined();
  });

  it('CFDI de Retenciones 2.0: its own document with its totals, retentions and complement', async () => {
    const name = join('complementos', 'retenciones20-plataformas.xml');
    const { text: t } = await text(name);
    expect(t).toContain('CONSTANCIA DE RETENCIONES'); // CSS text-transform
    expect(t).toContain('26 Servicios mediante plataformas tecnológicas');
    expect(t).toContain('03 a 03 de 2025');
    expect(t).toMatch(/Monto total de la operación \$10,000\.00/);
    expect(t).toMatch(/001 ISR 01 \$10,000\.00 \$100\.00/);
    expect(t).toMatch(/002 IVA 01 \$10,000\.00 \$800\.00/);
    expect(t).toContain('COMPLEMENTO SERVICIOS MEDIANTE PLATAFORMAS TECNOLÓGICAS 1.0');
    const v1 = read(name).replace(/retencionpago\/2"/g, 'retencionpago/1"');
    const refused = validateRenderRequest({ template: 'factura', format: 'pdf', cfdi_xml: v1 });
    expect(refused.ok || refused.problems).toEqual([expect.objectContaining({ type: 'cfdi_version' })]);
  });
});
