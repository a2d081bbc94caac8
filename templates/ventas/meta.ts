// ventas: sales report with charts (calc.ts computes what it shows; sheets.ts builds the xlsx/csv tables).
import { defineTemplate } from '../kit/template-types';
import { calcVentas } from './calc';
import { schema, type VentasData } from './schema';
import { sheets } from './sheets';
import sample from './sample.json';

export const ventas = defineTemplate({
  meta: {
    slug: 'ventas',
    title: 'Reporte de ventas',
    purpose: 'Reporte de ventas con gráficas',
    formats: ['pdf', 'xlsx', 'csv', 'zip'],
    page: { size: 'A4', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as VentasData,
  view: (data) => ({ ...data, calc: calcVentas(data) }),
  sheets,
  title: (data) => data.title,
});
