// factura: printed representation of a CFDI 4.0 invoice (calc.ts computes what it shows), plus its unsigned CFDI
// XML in the zip (xml.ts).
import { defineTemplate } from '../kit/template-types';
import { calcFactura, folioCompleto } from './calc';
import { avisoHeader } from '../kit/cfdi/verificar';
import { facturaDesdeXml } from './desde-xml';
import { schema, type FacturaData } from './schema';
import { facturaCfdi, notaSinXml } from './xml';
import sample from './sample.json';

export const factura = defineTemplate({
  meta: {
    slug: 'factura',
    title: 'Factura',
    purpose:
      'Factura (representación impresa de un CFDI 4.0): desde datos, con su XML sin sellar en el zip, o desde el XML timbrado (cfdi_xml)',
    formats: ['pdf', 'html', 'zip'],
    page: { size: 'Letter', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as FacturaData,
  view: (data) => ({ ...data, calc: calcFactura(data) }),
  title: (data) => {
    const f = folioCompleto(data);
    return `Factura${f ? ` ${f}` : ''} — ${data.empresa}`;
  },
  attachments: (data) => {
    const { xml } = facturaCfdi(data);
    return xml === undefined
      ? []
      : [
          {
            name: 'factura.xml',
            bytes: Buffer.from(xml, 'utf8'),
            description: 'el CFDI 4.0 sin sellar, para timbrarlo con su PAC (XML)',
          },
        ];
  },
  fromXml: (xml) => {
    const f = facturaDesdeXml(xml);
    return {
      data: f.data,
      view: f.view,
      title: f.title,
      warnings: f.discrepancias.length ? [avisoHeader(f.discrepancias)] : [],
      ...(f.desconocidos.length ? { unknownComplements: f.desconocidos } : {}),
      attachments: [
        {
          name: 'factura.xml',
          bytes: Buffer.from(xml, 'utf8'),
          description:
            'retenciones' in f.data
              ? 'el CFDI de Retenciones e información de pagos 2.0 tal como se recibió (XML)'
              : 'el CFDI 4.0 tal como se recibió (XML)',
        },
      ],
      embedded: { name: 'factura.xml', bytes: Buffer.from(xml, 'utf8'), mimeType: 'text/xml' },
    };
  },
  readmeNotes: (data) => {
    const { faltan } = facturaCfdi(data);
    return faltan.length ? notaSinXml(faltan) : [];
  },
  requiredAttachmentProblems: (data) =>
    facturaCfdi(data).faltan.map((f) => ({
      field: f.campo,
      msg: `Field required for the CFDI 4.0 XML (${f.atributo}); options.require_xml asks for it`,
    })),
});
