// ventas: sales report. Everything is computed here with exact decimals (calcVentas) and handed to the template:
// summary figures (revenue, units, average price, leading product's share, target attainment), the products ranked
// by revenue with share, cumulative share and ABC class, groups (group_by), and the charts as SVG scenes (bar chart
// of the top products, share donut, Pareto curve for long reports; templates/kit/charts).
import { currencyDigits, Dec, dec, formatMoney, sum } from '../kit/money';
import { cssString } from '../kit/css-string';
import { barChart, donutChart, fitText, paretoChart, type Chart } from '../kit/charts';
import { GROUP_FIELDS, type VentasData } from './schema';
/** Bars in the PDF chart and the xlsx chart: the top products. */
export const TOP_BARS = 10;
/** Slices of the donut before the rest is folded into "Otros". */
const DONUT_SLICES = 5;
/** The Pareto chart and ABC classes appear from this many products on. */
const PARETO_FROM = 11;
/** Chart widths in CSS px: A4 content width at 14 mm margins is 688 px; the donut sits beside the bars. */
const FULL_WIDTH = 688;
const BARS_WIDTH = 380;
const DONUT_WIDTH = 282;

const pct = (d: Dec, places = 1) =>
  `${d
    .times(100)
    .toDecimalPlaces(places, Dec.ROUND_HALF_UP)
    .toNumber()
    .toLocaleString('es-MX', { minimumFractionDigits: places, maximumFractionDigits: places })} %`;

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('es-MX')} ${n === 1 ? one : many}`;

export interface RankedRow {
  rank: number;
  product: string;
  sku: string | null;
  /** The row's group (group_by), "Sin categoría"/"Sin región" when it has none; null when not grouped. */
  group: string | null;
  category: string | null;
  region: string | null;
  units: number;
  units_integer: boolean;
  /**
   * Money as exact fixed-point text ("239850.00"); shares and attainment as exact fractions ("0.32775…", not
   * rounded here: the template rounds once when it prints a percentage, the sheets to 4 decimals).
   */
  revenue: string;
  average: string | null;
  share: string;
  cumulative: string;
  abc: 'A' | 'B' | 'C' | null;
  target: string | null;
  attainment: string | null;
  /** Exact values for the charts and sheets. */
  exact: { share: Dec; cumulative: Dec };
}

function groupWord(field: 'category' | 'region', n: number): string {
  return field === 'category' ? (n === 1 ? 'categoría' : 'categorías') : n === 1 ? 'región' : 'regiones';
}

function groupLabel(field: 'category' | 'region', value: string | undefined): string {
  return value && value.trim() ? value : field === 'category' ? 'Sin categoría' : 'Sin región';
}

/**
 * moneyText/roundMoney for one currency, with its decimals looked up once (money.ts builds an Intl formatter per
 * call to find them: ~0.1 ms, which 5,000 rows × 4 amounts turn into seconds).
 */
function moneyOf(currency: string) {
  const digits = currencyDigits(currency);
  const round = (v: Dec) => v.toDecimalPlaces(digits, Dec.ROUND_HALF_UP);
  return { round, text: (v: Dec) => round(v).toFixed(digits) };
}

export function calcVentas(data: VentasData) {
  const c = data.currency;
  const money = moneyOf(c);
  const revenue = data.rows.map((r) => dec(r.revenue));
  const totalRevenue = sum(revenue);
  const totalUnits = sum(data.rows.map((r) => dec(r.units)));
  const positive = totalRevenue.gt(0);
  const share = (v: Dec) => (totalRevenue.isZero() ? new Dec(0) : v.div(totalRevenue));
  const hasTargets = data.rows.some((r) => r.target !== undefined);
  const hasSku = data.rows.some((r) => !!r.sku);
  const hasCategory = data.rows.some((r) => !!r.category);
  const hasRegion = data.rows.some((r) => !!r.region);

  // Caller's order, with each row's share (kept for callers of calc and the template's data).
  const rows = data.rows.map((r, i) => ({
    ...r,
    share: share(revenue[i]!).toDecimalPlaces(4).toString(),
    average: dec(r.units).isZero() ? null : money.text(revenue[i]!.div(dec(r.units))),
  }));

  // Ranked by revenue (ties keep the caller's order), with the running share and the ABC class. The running share
  // is the running revenue over the total (so the last one is exactly 1, not a sum of rounded quotients).
  const order = data.rows.map((_, i) => i).sort((a, b) => revenue[b]!.cmp(revenue[a]!) || a - b);
  let runningRevenue = new Dec(0);
  let running = new Dec(0);
  const ranked = order.map((i, rank): RankedRow => {
    const r = data.rows[i]!;
    const s = share(revenue[i]!);
    const before = running;
    runningRevenue = runningRevenue.plus(revenue[i]!);
    running = share(runningRevenue);
    const target = r.target === undefined ? null : dec(r.target);
    return {
      rank: rank + 1,
      product: r.product,
      sku: r.sku ?? null,
      group: data.group_by ? groupLabel(data.group_by, r[data.group_by]) : null,
      category: r.category ?? null,
      region: r.region ?? null,
      units: r.units,
      units_integer: Number.isInteger(r.units),
      revenue: money.text(revenue[i]!),
      average: rows[i]!.average,
      share: s.toString(),
      cumulative: running.toString(),
      // ABC (Pareto): A while the products before it make less than 80 % of revenue, B below 95 %, else C.
      abc: !positive ? null : before.lt(0.8) ? 'A' : before.lt(0.95) ? 'B' : 'C',
      target: target === null ? null : money.text(target),
      attainment: target === null || target.isZero() ? null : revenue[i]!.div(target).toString(),
      exact: { share: s, cumulative: running },
    };
  });

  // Targets: the period's (data.target) against all revenue; else the products' own, each product's revenue
  // against its target, so products without one do not inflate the attainment.
  const targeted = data.rows.flatMap((r, i) =>
    r.target === undefined ? [] : [{ target: dec(r.target), revenue: revenue[i]! }],
  );
  const targetsTotal = targeted.length ? sum(targeted.map((t) => t.target)) : null;
  const targetsAttainment =
    targetsTotal === null || targetsTotal.isZero()
      ? null
      : sum(targeted.map((t) => money.round(t.revenue)))
          .div(targetsTotal)
          .toString();
  const target = data.target !== undefined ? dec(data.target) : targetsTotal;
  const leader = ranked[0]!;
  const cut = positive ? ranked.findIndex((r) => r.exact.cumulative.gte(0.8)) + 1 : 0;
  const showPareto = positive && ranked.length >= PARETO_FROM && ranked.every((r) => dec(r.revenue).gte(0));

  // Groups (group_by): ranked by revenue, share of the total.
  const field = data.group_by;
  const groups: {
    name: string;
    products: number;
    units: string;
    units_integer: boolean;
    revenue: string;
    share: string;
    exact: Dec;
  }[] = [];
  if (field) {
    const byName = new Map<string, { products: number; units: Dec; revenue: Dec }>();
    data.rows.forEach((r, i) => {
      const name = groupLabel(field, r[field]);
      const g = byName.get(name) ?? { products: 0, units: new Dec(0), revenue: new Dec(0) };
      g.products += 1;
      g.units = g.units.plus(dec(r.units));
      g.revenue = g.revenue.plus(revenue[i]!);
      byName.set(name, g);
    });
    for (const [name, g] of byName)
      groups.push({
        name,
        products: g.products,
        units: g.units.toString(),
        units_integer: g.units.isInteger(),
        revenue: money.text(g.revenue),
        share: share(g.revenue).toString(),
        exact: g.revenue,
      });
    groups.sort((a, b) => b.exact.cmp(a.exact));
  }

  return {
    rows,
    ranked,
    groups,
    group_label: field ? GROUP_FIELDS[field] : null,
    group_plural: field ? groupWord(field, 2) : null,
    group_title: field === 'category' ? 'Categoría' : field === 'region' ? 'Región' : null,
    total_revenue: money.text(totalRevenue),
    total_units: totalUnits.toString(),
    units_decimals: totalUnits.isInteger() ? 0 : 2,
    products: data.rows.length,
    average_price: totalUnits.isZero() ? null : money.text(totalRevenue.div(totalUnits)),
    best: leader.product,
    leader_share: positive ? leader.share : null,
    target: target === null ? null : money.text(target),
    attainment:
      data.target !== undefined
        ? target!.isZero()
          ? null
          : totalRevenue.div(target!).toString()
        : targetsAttainment,
    /** How many products carry a target (the summary says so when not all do). */
    targeted_products: targeted.length,
    /** Σ of the products' targets and their revenue over it (the table's and the sheet's totals row). */
    targets_total: targetsTotal === null ? null : money.text(targetsTotal),
    targets_attainment: targetsAttainment,
    pareto: showPareto
      ? { products: cut, catalogue_share: new Dec(cut).div(ranked.length).toString() }
      : null,
    columns: {
      sku: hasSku,
      category: hasCategory && field !== 'category',
      region: hasRegion && field !== 'region',
      group: !!field,
      targets: hasTargets,
      abc: showPareto,
    },
    charts: charts(data, ranked, groups, totalRevenue, showPareto, cut),
    /** Page footer text as a CSS string (see cssString). */
    footer: cssString(fitText([data.title, data.company].filter(Boolean).join(' · '), 330, 10)),
  };
}

type Ranked = RankedRow[];

function charts(
  data: VentasData,
  ranked: Ranked,
  groups: { name: string; exact: Dec }[],
  total: Dec,
  showPareto: boolean,
  cut: number,
): { bars: Chart; donut: Chart | null; pareto: Chart | null; bars_caption: string } {
  const c = data.currency;
  const top = ranked.slice(0, TOP_BARS);
  const bars = barChart(
    top.map((r) => ({
      label: r.product,
      value: r.revenue,
      display: formatMoney(r.revenue, c),
      note: total.gt(0) ? pct(r.exact.share) : undefined,
    })),
    { width: BARS_WIDTH, title: 'Ingresos por producto' },
  );
  const bars_caption =
    ranked.length > top.length
      ? `Los ${top.length} principales de ${count(ranked.length, 'producto', 'productos')}`
      : '';

  // Shares only make sense when nothing is negative and there is something to share.
  let donut: Chart | null = null;
  if (total.gt(0) && ranked.every((r) => dec(r.revenue).gte(0))) {
    const grouped = groups.length > 0;
    const items = grouped
      ? groups.map((g) => ({ label: g.name, value: g.exact }))
      : ranked.map((r) => ({ label: r.product, value: dec(r.revenue) }));
    const shown = items.length > DONUT_SLICES + 1 ? items.slice(0, DONUT_SLICES) : items;
    const rest = items.slice(shown.length);
    const slices = shown.map((it) => ({
      label: it.label,
      share: it.value.div(total).toNumber(),
      display: pct(it.value.div(total)),
    }));
    if (rest.length) {
      const restTotal = sum(rest.map((r) => r.value));
      slices.push({
        label: `Otros (${grouped ? `${rest.length} ${groupWord(data.group_by!, rest.length)}` : count(rest.length, 'producto', 'productos')})`,
        share: restTotal.div(total).toNumber(),
        display: pct(restTotal.div(total)),
        muted: true,
      } as (typeof slices)[number]);
    }
    donut = donutChart(slices, {
      width: DONUT_WIDTH,
      title: grouped ? 'Participación por grupo' : 'Participación por producto',
      center: grouped
        ? { value: String(groups.length), caption: groupWord(data.group_by!, groups.length) }
        : {
            value: ranked.length.toLocaleString('es-MX'),
            caption: ranked.length === 1 ? 'producto' : 'productos',
          },
    });
  }

  const pareto = showPareto
    ? paretoChart(
        ranked.map((r) => r.exact.share.toNumber()),
        ranked.map((r) => r.exact.cumulative.toNumber()),
        {
          width: FULL_WIDTH,
          title: 'Concentración de ingresos (Pareto)',
          xCaption: `${count(ranked.length, 'producto', 'productos')}, de mayor a menor ingreso`,
          cut,
          cutLabel: `80 % de los ingresos: ${count(cut, 'producto', 'productos')}`,
        },
      )
    : null;
  return { bars, donut, pareto, bars_caption };
}
