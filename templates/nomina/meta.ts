// nomina: payroll receipt. Totals: percepciones, otros pagos, deducciones; neto = percepciones + otros pagos −
// deducciones (exact decimals).
import { defineTemplate } from '../../lambdas/documents/domain/template-types';
import { dec, moneyText, sum } from '../../lambdas/documents/domain/money';
import { schema, type NominaData } from './schema';
import sample from './sample.json';

export function calcNomina(data: NominaData) {
  const m = data.moneda;
  const t = (xs: { importe: number }[]) => sum(xs.map((x) => dec(x.importe)));
  const percepciones = t(data.percepciones);
  const otros = t(data.otros_pagos);
  const deducciones = t(data.deducciones);
  return {
    total_percepciones: moneyText(percepciones, m),
    total_otros_pagos: moneyText(otros, m),
    total_deducciones: moneyText(deducciones, m),
    neto: moneyText(percepciones.plus(otros).minus(deducciones), m),
  };
}

export const nomina = defineTemplate({
  meta: {
    slug: 'nomina',
    title: 'Recibo de nómina',
    purpose: 'Recibo de nómina',
    formats: ['pdf', 'zip'],
    page: { size: 'Letter', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as NominaData,
  view: (data) => ({ ...data, calc: calcNomina(data) }),
  title: (data) =>
    `Recibo de nómina — ${data.empleado.nombre} — ${data.periodo.inicio} a ${data.periodo.fin}`,
});
