// test/unit/templates-factura.test.ts: the unsigned CFDI 4.0 XML (parsed with fast-xml-parser).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Dec } from '../../../templates/kit/money';
import { facturaXml } from '../../../templates/factura/xml';
import { SAMPLE, MINIMAL, parse } from './data';

export function xmlCases(): void {
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
}
