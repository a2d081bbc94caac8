// ventas: sales report. PDF: summary figures, a bar chart drawn as inline SVG (no JavaScript in the page) and a
// table ranked by revenue with each product's share. XLSX/CSV come from the data model (one row per product, in
// the caller's order): Producto, Unidades, Ingresos, Participación, Precio promedio; the XLSX adds a totals row
// with SUM formulas.
import { defineTemplate } from '../../lambdas/documents/domain/template-types';
import { Dec, dec, moneyText, sum } from '../../lambdas/documents/domain/money';
import type { SheetModel } from '../../lambdas/documents/formats/types';
import { schema, type VentasData } from './schema';
import sample from './sample.json';

const CHART_BARS = 12;

export function calcVentas(data: VentasData) {
  const c = data.currency;
  const totalRevenue = sum(data.rows.map((r) => dec(r.revenue)));
  const totalUnits = sum(data.rows.map((r) => dec(r.units)));
  const rows = data.rows.map((r) => {
    const share = totalRevenue.isZero() ? new Dec(0) : dec(r.revenue).div(totalRevenue);
    const avg = dec(r.units).isZero() ? null : dec(r.revenue).div(dec(r.units));
    return {
      ...r,
      share: share.toDecimalPlaces(4).toString(),
      average: avg === null ? null : moneyText(avg, c),
    };
  });
  const ranked = [...rows].sort((a, b) => dec(b.revenue).cmp(dec(a.revenue)));
  const max = ranked.length ? Dec.max(...ranked.map((r) => dec(r.revenue)), new Dec(0)) : new Dec(0);
  const bars = ranked.slice(0, CHART_BARS).map((r, i) => ({
    label: r.product,
    revenue: r.revenue,
    // Bar length as a percentage of the largest (SVG width units), one decimal.
    pct: max.isZero() ? 0 : Math.max(0, dec(r.revenue).div(max).times(100).toDecimalPlaces(1).toNumber()),
    y: i * 26,
  }));
  return {
    rows,
    ranked,
    bars,
    chart_height: bars.length * 26,
    total_revenue: moneyText(totalRevenue, c),
    total_units: totalUnits.toString(),
    units_decimals: totalUnits.isInteger() ? 0 : 2,
    products: data.rows.length,
    average_price: totalUnits.isZero() ? null : moneyText(totalRevenue.div(totalUnits), c),
    best: ranked[0]?.product ?? null,
  };
}

function sheets(data: VentasData): SheetModel[] {
  const calc = calcVentas(data);
  const integerUnits = data.rows.every((r) => Number.isInteger(r.units));
  return [
    {
      name: 'Ventas',
      title: [data.title, data.period].filter(Boolean).join(' · '),
      columns: [
        { key: 'product', header: 'Producto', kind: 'text' },
        { key: 'units', header: 'Unidades', kind: integerUnits ? 'integer' : 'decimal' },
        { key: 'revenue', header: 'Ingresos', kind: 'money', currency: data.currency },
        { key: 'share', header: 'Participación', kind: 'percent' },
        { key: 'average', header: 'Precio promedio', kind: 'money', currency: data.currency },
      ],
      rows: calc.rows.map((r) => ({
        product: r.product,
        units: r.units,
        revenue: Number(moneyText(dec(r.revenue), data.currency)),
        share: Number(r.share),
        average: r.average === null ? null : Number(r.average),
      })),
      totals: { label: 'Total', sum: ['units', 'revenue'] },
    },
  ];
}

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
