// ventas in XLSX: the ranked table with formulas (average price, share, cumulative, attainment, totals), a native bar
// chart of the top products and, when grouped, a sheet per group with SUMIF/COUNTIF formulas and a native doughnut
// chart. CSV: the ranked table's values (RFC 4180).
import { dec } from '../kit/money';
import type { Cell, Column, SheetModel } from '../kit/sheet-model';
import { calcVentas, TOP_BARS } from './calc';
import type { VentasData } from './schema';

export function sheets(data: VentasData): SheetModel[] {
  const calc = calcVentas(data);
  const c = data.currency;
  const n = calc.ranked.length;
  const integerUnits = data.rows.every((r) => Number.isInteger(r.units));
  const unitsKind = integerUnits ? 'integer' : 'decimal';
  const num = (s: string | null) => (s === null ? null : Number(s));
  const field = data.group_by;

  const columns: Column[] = [
    { key: 'rank', header: '#', kind: 'integer', width: 6 },
    { key: 'product', header: 'Producto', kind: 'text' },
    ...(calc.columns.sku ? [{ key: 'sku', header: 'Clave', kind: 'text' } as const] : []),
    ...(field ? [{ key: 'group', header: calc.group_title!, kind: 'text' } as const] : []),
    ...(calc.columns.category ? [{ key: 'category', header: 'Categoría', kind: 'text' } as const] : []),
    ...(calc.columns.region ? [{ key: 'region', header: 'Región', kind: 'text' } as const] : []),
    { key: 'units', header: 'Unidades', kind: unitsKind },
    { key: 'revenue', header: 'Ingresos', kind: 'money', currency: c },
    { key: 'average', header: 'Precio promedio', kind: 'money', currency: c },
    { key: 'share', header: 'Participación', kind: 'percent' },
    { key: 'cumulative', header: 'Acumulado', kind: 'percent' },
    ...(calc.columns.targets
      ? ([
          { key: 'target', header: 'Meta', kind: 'money', currency: c },
          { key: 'attainment', header: 'Cumplimiento', kind: 'percent' },
        ] as const)
      : []),
  ];
  const rows = calc.ranked.map((r): Record<string, Cell> => ({
    rank: r.rank,
    product: r.product,
    sku: r.sku,
    group: r.group,
    category: r.category,
    region: r.region,
    units: r.units,
    revenue: Number(r.revenue),
    average: { formula: 'IF({units}=0,"",{revenue}/{units})', result: num(r.average) ?? '' },
    share: { formula: 'IF({$revenue@total}=0,0,{revenue}/{$revenue@total})', result: fraction(r.share) },
    cumulative: {
      formula: 'IF({$revenue@total}=0,0,SUM({$revenue@0}:{revenue})/{$revenue@total})',
      result: fraction(r.cumulative),
    },
    target: num(r.target),
    attainment: { formula: 'IF(N({target})=0,"",{revenue}/{target})', result: fraction(r.attainment) ?? '' },
  }));
  const main: SheetModel = {
    name: 'Ventas',
    title: data.title,
    subtitle: [data.company, data.period, `Cifras en ${c}`].filter(Boolean).join(' · '),
    columns,
    rows,
    totals: {
      label: 'Total',
      sum: ['units', 'revenue', ...(calc.columns.targets ? ['target'] : [])],
      cells: {
        average: {
          formula: 'IF({units@total}=0,"",{revenue@total}/{units@total})',
          result: num(calc.average_price) ?? '',
        },
        share: { formula: `SUM({share@0}:{share@${n - 1}})`, result: totalShare(calc.ranked) },
        attainment: {
          formula: 'IF(N({target@total})=0,"",SUMIF({target@0:last},"<>",{revenue@0:last})/{target@total})',
          result: fraction(calc.targets_attainment) ?? '',
        },
      },
    },
    charts: [
      {
        type: 'bar',
        title: n > TOP_BARS ? `Ingresos: los ${TOP_BARS} principales productos` : 'Ingresos por producto',
        categories: 'product',
        values: ['revenue'],
        rows: [0, Math.min(TOP_BARS, n)],
      },
    ],
  };
  if (!field) return [main];

  // One row per group, computed from the main sheet with SUMIF/COUNTIF so edits there flow here.
  const ref = (key: string) => `{Ventas!$${key}@0:last}`;
  const groupSheet: SheetModel = {
    name: `Por ${calc.group_label}`,
    title: `${data.title} · por ${calc.group_label}`,
    subtitle: main.subtitle,
    columns: [
      { key: 'name', header: calc.group_title!, kind: 'text' },
      { key: 'products', header: 'Productos', kind: 'integer' },
      { key: 'units', header: 'Unidades', kind: unitsKind },
      { key: 'revenue', header: 'Ingresos', kind: 'money', currency: c },
      { key: 'share', header: 'Participación', kind: 'percent' },
    ],
    rows: calc.groups.map((g) => ({
      name: g.name,
      products: { formula: `COUNTIF(${ref('group')},{name})`, result: g.products },
      units: { formula: `SUMIF(${ref('group')},{name},${ref('units')})`, result: Number(g.units) },
      revenue: { formula: `SUMIF(${ref('group')},{name},${ref('revenue')})`, result: Number(g.revenue) },
      share: { formula: 'IF({$revenue@total}=0,0,{revenue}/{$revenue@total})', result: fraction(g.share) },
    })),
    totals: {
      label: 'Total',
      sum: ['products', 'units', 'revenue'],
      cells: {
        share: {
          formula: `SUM({share@0}:{share@${calc.groups.length - 1}})`,
          result: totalShare(calc.groups),
        },
      },
    },
    charts:
      calc.charts.donut !== null
        ? [
            {
              type: 'doughnut',
              title: `Ingresos por ${calc.group_label}`,
              categories: 'name',
              values: ['revenue'],
              rows: [0, calc.groups.length],
            },
          ]
        : [],
  };
  return [main, groupSheet];
}

/**
 * A fraction for a sheet cell: the nearest double to the exact value, so a viewer that shows the cached result
 * without recalculating rounds it once (a 4-decimal cache would round twice: 0.05546 → 0.0555 → 5.6 %). The CSV
 * writes percentages with 4 decimals.
 */
function fraction(s: string): number;
function fraction(s: string | null): number | null;
function fraction(s: string | null): number | null {
  return s === null ? null : Number(s);
}

/** What SUM over the share column computes: the exact shares add up to 1 (0 when there is no revenue). */
function totalShare(items: { share: string }[]): number {
  return items.some((i) => !dec(i.share).isZero()) ? 1 : 0;
}
