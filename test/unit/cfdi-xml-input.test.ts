// POST /v1/render with cfdi_xml: hostile and wrong XML is refused in the contract's 400 shape (loc body.cfdi_xml),
// by the parser's own defences (no DTD processing, strict well-formedness, namespace-checked root), and a valid one
// is read field by field. The 2 MiB route limit (413) is covered by test/e2e/limits.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CFDI_XML_MAX_CHARS } from '../../lambdas/documents/request/schema';
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { leerCfdi } from '../../templates/kit/cfdi/leer';
import { cadenaOriginalTimbre } from '../../templates/kit/cfdi/timbre';
import { avisoHeader } from '../../templates/kit/cfdi/verificar';
import { cadenaTfdXslt } from '../helpers/sat-xml';

const DIR = join(__dirname, '..', 'fixtures', 'cfdi');
const BASICO = readFileSync(join(DIR, 'ingreso-basico.xml'), 'utf8');

function problems(body: Record<string, unknown>) {
  const r = validateRenderRequest({ template: 'factura', format: 'pdf', ...body });
  return r.ok ? [] : r.problems;
}
const refused = (cfdi_xml: string) => problems({ cfdi_xml });

describe('hostile or wrong XML → 400 at body.cfdi_xml', () => {
  it('XXE (external entity to a local file)', () => {
    const xml = BASICO.replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    ).replace('Nombre="ESCUELA KEMPER URGATE"', 'Nombre="&x;"');
    expect(refused(xml)).toEqual([
      { loc: ['body', 'cfdi_xml'], msg: expect.stringMatching(/DOCTYPE/), type: 'xml_dtd' },
    ]);
  });

  it('an entity reference without a DTD is a well-formedness error, never resolved', () => {
    const xml = BASICO.replace('Nombre="ESCUELA KEMPER URGATE"', 'Nombre="&x;"');
    expect(refused(xml)).toEqual([
      {
        loc: ['body', 'cfdi_xml'],
        msg: expect.stringMatching(/^Not well-formed XML: .*undefined entity/i),
        type: 'xml_syntax',
      },
    ]);
  });

  it('external DTD', () => {
    const xml = BASICO.replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0"?><!DOCTYPE cfdi:Comprobante SYSTEM "http://127.0.0.1:9/x.dtd">',
    );
    expect(refused(xml)[0]!.type).toBe('xml_dtd');
  });

  it('billion laughs', () => {
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE c [<!ENTITY l0 "lol">${lol}]><c>&l9;</c>`;
    expect(refused(xml)[0]!.type).toBe('xml_dtd');
  });

  it('over the length limit (a 50 MB XML is also over the route body limit: 413)', () => {
    const big = BASICO.replace(
      '</cfdi:Comprobante>',
      `<!--${'x'.repeat(CFDI_XML_MAX_CHARS)}--></cfdi:Comprobante>`,
    );
    expect(refused(big)).toEqual([
      expect.objectContaining({ loc: ['body', 'cfdi_xml'], type: 'string_too_long' }),
    ]);
  });

  it('wrong namespace', () => {
    const xml = BASICO.replace(
      'xmlns:cfdi="http://www.sat.gob.mx/cfd/4"',
      'xmlns:cfdi="http://example.com/cfd/4"',
    );
    expect(refused(xml)).toEqual([
      {
        loc: ['body', 'cfdi_xml'],
        msg: expect.stringMatching(/must be Comprobante in namespace http:\/\/www\.sat\.gob\.mx\/cfd\/4/),
        type: 'cfdi_namespace',
      },
    ]);
  });

  it('CFDI 3.3', () => {
    const xml = BASICO.replace(
      'xmlns:cfdi="http://www.sat.gob.mx/cfd/4"',
      'xmlns:cfdi="http://www.sat.gob.mx/cfd/3"',
    ).replace('Version="4.0"', 'Version="3.3"');
    expect(refused(xml)).toEqual([
      {
        loc: ['body', 'cfdi_xml'],
        msg: expect.stringMatching(/^CFDI 3\.3 is not accepted/),
        type: 'cfdi_version',
      },
    ]);
  });

  it('Version="4.0" in CFDI 3.3\'s namespace is a namespace error, not "CFDI 3.3"', () => {
    const xml = BASICO.replace(
      'xmlns:cfdi="http://www.sat.gob.mx/cfd/4"',
      'xmlns:cfdi="http://www.sat.gob.mx/cfd/3"',
    );
    expect(refused(xml)).toEqual([
      {
        loc: ['body', 'cfdi_xml'],
        msg: expect.stringMatching(
          /^Comprobante@Version '4\.0' in namespace http:\/\/www\.sat\.gob\.mx\/cfd\/3/,
        ),
        type: 'cfdi_namespace',
      },
    ]);
  });

  it("a timbre UUID with letters that are not hexadecimal is refused (TimbreFiscalDigitalv11.xsd's pattern)", () => {
    const uuid = /<tfd:TimbreFiscalDigital[^>]* UUID="([^"]+)"/.exec(BASICO)![1]!;
    const bad = BASICO.replace(`UUID="${uuid}"`, `UUID="${uuid.slice(0, -4)}WXYZ"`);
    expect(refused(bad)).toEqual([
      {
        loc: ['body', 'cfdi_xml'],
        msg: expect.stringMatching(/^TimbreFiscalDigital@UUID '.*WXYZ' is not 8-4-4-4-12 hexadecimal digits/),
        type: 'cfdi_invalid',
      },
    ]);
    // Lower case is hexadecimal too: accepted as written.
    expect(refused(BASICO.replace(`UUID="${uuid}"`, `UUID="${uuid.toLowerCase()}"`))).toEqual([]);
  });

  it('not XML at all, and truncated XML', () => {
    expect(refused('{"not": "xml"}')[0]!.type).toBe('xml_syntax');
    expect(refused(BASICO.slice(0, 600))[0]!.type).toBe('xml_syntax');
  });

  it('missing required attributes are all named', () => {
    const xml = BASICO.replace(/ Rfc="EKU9003173C9"/, '').replace(/ LugarExpedicion="\d+"/, '');
    expect(refused(xml).map((p) => p.msg)).toEqual([
      'Comprobante@LugarExpedicion is required',
      'Emisor@Rfc is required',
    ]);
  });

  it('tipo P without its Pagos 2.0 complement: a 400 naming it; nómina to factura: a 400 naming the nomina template', () => {
    const p = BASICO.replace('TipoDeComprobante="I"', 'TipoDeComprobante="P"');
    expect(refused(p)).toEqual([
      {
        loc: ['body', 'cfdi_xml'],
        msg: expect.stringMatching(/tipo P must carry its Complemento para recepción de Pagos 2\.0/),
        type: 'cfdi_missing',
      },
    ]);
    const n = BASICO.replace('TipoDeComprobante="I"', 'TipoDeComprobante="N"');
    expect(refused(n)[0]!.msg).toMatch(/Nómina 1\.2\) is a payroll receipt: send it with template 'nomina'/);
  });

  it('data and cfdi_xml together, cfdi_xml with another template, neither', () => {
    expect(problems({ cfdi_xml: BASICO, data: {} })[0]).toMatchObject({
      loc: ['body', 'data'],
      type: 'data_and_xml',
    });
    const other = validateRenderRequest({ template: 'cotizacion', format: 'pdf', cfdi_xml: BASICO });
    expect(other.ok ? [] : other.problems).toEqual([expect.objectContaining({ type: 'unsupported_input' })]);
    expect(problems({})).toEqual([{ loc: ['body', 'data'], msg: 'Field required', type: 'missing' }]);
  });
});

describe('X-CFDI-Avisos', () => {
  it('is printable ASCII that still reads: × as x, − as -, accents dropped, nothing as "?" that had a spelling', () => {
    const h = avisoHeader([
      {
        donde: 'Concepto[1]@Importe',
        dice: '100.00',
        esperado: 'Cantidad × ValorUnitario = 99.5 − descuento (Unión)',
      },
    ]);
    expect(h).toBe(
      'Concepto[1]@Importe: XML 100.00, expected Cantidad x ValorUnitario = 99.5 - descuento (Union)',
    );
    expect(h).toMatch(/^[\x20-\x7e]*$/);
  });
});

describe('reading a CFDI', () => {
  it('matches elements by namespace, not by prefix', () => {
    const renamed = BASICO.replace(/cfdi:/g, 'x:').replace('xmlns:cfdi=', 'xmlns:x=');
    expect(leerCfdi(renamed).emisor.rfc).toBe('EKU9003173C9');
  });

  it('reads relacionados, USD and the timbre', () => {
    const nc = leerCfdi(readFileSync(join(DIR, 'egreso-nota-credito.xml'), 'utf8'));
    expect(nc.relacionados).toEqual([
      { tipoRelacion: '01', uuids: [expect.stringMatching(/^[0-9A-F-]{36}$/), expect.any(String)] },
    ]);
    const usd = leerCfdi(readFileSync(join(DIR, 'ingreso-usd.xml'), 'utf8'));
    expect(usd).toMatchObject({
      moneda: 'USD',
      tipoCambio: '17.0512',
      timbre: { version: '1.1', rfcProvCertif: 'SPR190613I52' },
    });
  });

  it('cadena original del TFD equals xsltproc + SAT’s XSLT, whitespace rules included', () => {
    const tfd = (leyenda: string) =>
      `<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="5f3a9c1e-7b2d-4e8f-a6c4-19d0b7e2f835" FechaTimbrado="2024-01-01T10:00:00" RfcProvCertif="SAT970701NN3"${leyenda} SelloCFD=" ab  c== " NoCertificadoSAT="00001000000509846663" SelloSAT="x"/>`;
    for (const leyenda of ['', ' Leyenda=""', ' Leyenda="  Hola&#9;&#10; mundo  "', ' Leyenda="a\u00a0 b"']) {
      const xml = `<c xmlns:cfdi="http://www.sat.gob.mx/cfd/4">${tfd(leyenda)}</c>`;
      const el = /<tfd:[^>]*\/>/.exec(xml)![0];
      const attr = (n: string) => {
        const m = new RegExp(` ${n}="([^"]*)"`).exec(el);
        return m?.[1]?.replace(/&#9;/g, '\t').replace(/&#10;/g, '\n');
      };
      const ours = cadenaOriginalTimbre({
        uuid: attr('UUID')!,
        fechaTimbrado: attr('FechaTimbrado')!,
        rfcProvCertif: attr('RfcProvCertif')!,
        leyenda: attr('Leyenda'),
        selloCfd: attr('SelloCFD')!,
        noCertificadoSat: attr('NoCertificadoSAT')!,
      });
      // Byte for byte, the lower-case UUID included.
      expect(ours).toBe(cadenaTfdXslt(el));
    }
  });
});

describe("currencies: SAT's c_Moneda decimals, not ICU's display digits", () => {
  type View = {
    calc: { subtotal: string; total: string; con_letra: string; items: { precio_texto: string }[] };
  };
  const render = (xml: string) => {
    const r = validateRenderRequest({ template: 'factura', format: 'pdf', cfdi_xml: xml });
    if (!r.ok || r.request.kind !== 'template') throw new Error(JSON.stringify(r));
    return r.request.xml!;
  };
  // c_Moneda (catCFDI) writes COP, IDR, HUF, PKR, IRR… with 2 decimals and IQD with 3, where ICU formats them with 0:
  // a CFDI SAT stamps in them must verify without a warning and print its centavos as written.
  it.each(['COP', 'IDR', 'IRR'])('%s: no warning, its centavos printed', (moneda) => {
    const xml = render(BASICO.replace('Moneda="MXN"', `Moneda="${moneda}" TipoCambio="0.0046"`));
    expect(xml.warnings).toEqual([]);
    const { calc } = xml.view as unknown as View;
    expect([calc.subtotal, calc.total, calc.items[2]!.precio_texto]).toEqual([
      '27624.97',
      '32044.97',
      `${moneda}\u00a01,499.99`,
    ]);
    expect(calc.con_letra).toMatch(new RegExp(` 97/100 ${moneda}$`));
  });

  it('IQD is computed and printed with its 3 decimals', () => {
    const xml = render(BASICO.replace('Moneda="MXN"', 'Moneda="IQD" TipoCambio="0.014"'));
    // 2000 + 1700 + 719.9952 of IVA is 4419.995 in IQD: the XML's 4420.00 was rounded for MXN.
    expect(xml.warnings).toEqual([
      expect.stringContaining('Impuestos/Traslado[1]@Importe: XML 4420.00, expected 4419.995'),
    ]);
    const { calc } = xml.view as unknown as View;
    expect([calc.subtotal, calc.items[2]!.precio_texto]).toEqual(['27624.970', 'IQD\u00a01,499.990']);
  });

  it('negative controls: one centavo off in COP still warns; JPY (0 decimals for SAT and ICU) is unchanged', () => {
    const off = render(
      BASICO.replace('Moneda="MXN"', 'Moneda="COP" TipoCambio="0.0046"').replace(
        'Total="32044.97"',
        'Total="32044.98"',
      ),
    );
    expect(off.warnings).toEqual([
      expect.stringContaining('Comprobante@Total: XML 32044.98, expected 32044.97'),
    ]);
    const jpy = render(BASICO.replace('Moneda="MXN"', 'Moneda="JPY" TipoCambio="0.12"'));
    expect(jpy.warnings).toEqual([expect.stringContaining('Comprobante@SubTotal')]);
  });
});
