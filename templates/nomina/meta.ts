// nomina: payroll receipt shaped after the printed CFDI de nómina 1.2 (calc.ts computes its totals).
import { defineTemplate } from '../kit/template-types';
import { calcNomina } from './calc';
import { nominaDesdeXml } from './desde-xml';
import { schema, type NominaData } from './schema';
import sample from './sample.json';

export const nomina = defineTemplate({
  meta: {
    slug: 'nomina',
    title: 'Recibo de nómina',
    purpose:
      'Recibo de nómina con la forma de la representación impresa del CFDI de nómina 1.2: desde datos, o desde el XML timbrado con Complemento de Nómina 1.2 (cfdi_xml)',
    formats: ['pdf', 'zip'],
    page: { size: 'Letter', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as NominaData,
  view: (data) => ({ ...data, calc: calcNomina(data) }),
  title: (data) =>
    `Recibo de nómina — ${data.empleado.nombre} — ${data.periodo.inicio} a ${data.periodo.fin}`,
  fromXml: nominaDesdeXml,
});
