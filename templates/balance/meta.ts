// balance: balance sheet in the Mexican report form (activo circulante / fijo / diferido; pasivo a corto / largo
// plazo; capital contable) with subtotals, totals, vertical analysis (each line as % of total activo), optional
// comparison with a previous cut-off (amounts, variation and variation %), key ratios (capital de trabajo, razón
// circulante, endeudamiento) and a 100 % stacked chart of the financial structure. The identity check is the
// schema's. XLSX: one sheet in the same layout where every subtotal, total, percentage and variation is a formula.
import { fechaLarga } from '../../lambdas/shared/text/fechas';
import { defineTemplate } from '../kit/template-types';
import { currencyDigits, Dec, dec, sum } from '../kit/money';
import { fitText, stackedBars } from '../kit/charts';
import { cssString } from '../kit/css-string';
import type { Cell, Column, RowStyle, SheetModel } from '../kit/sheet-model';
import { schema, type BalanceData, type Cuenta } from './schema';
import sample from './sample.json';

/** A line of the statement: an account, a group subtotal or a total, both periods when comparative. */
export interface Linea {
  concepto: string;
  /**
   * Money as exact fixed-point text; shares and variation % as exact fractions (null: undefined), rounded once
   * where printed.
   */
  importe: string;
  pct: string | null;
  anterior: string | null;
  pct_anterior: string | null;
  variacion: string | null;
  variacion_pct: string | null;
}

export interface Grupo {
  clave: string;
  /** Null for capital contable (its accounts hang directly from the section). */
  titulo: string | null;
  cuentas: Linea[];
  total: Linea;
}

export interface Seccion {
  titulo: string;
  grupos: Grupo[];
  total: Linea;
}

/** Structure chart colours: assets in the navy ramp, liabilities warm, equity green. */
const COLOURS = {
  circulante: '#1f3a5f',
  fijo: '#4b83b6',
  diferido: '#a9c7e3',
  corto_plazo: '#c8873a',
  largo_plazo: '#e6bd8a',
  capital: '#2f6f5e',
};

export function calcBalance(data: BalanceData) {
  const m = data.moneda;
  // The currency's decimals once (money.ts's moneyText looks them up through Intl on every call).
  const digits = currencyDigits(m);
  const moneyText = (v: Dec) => v.toDecimalPlaces(digits, Dec.ROUND_HALF_UP).toFixed(digits);
  const comparativo = !!data.fecha_corte_anterior;
  const now = (xs: Cuenta[]) => sum(xs.map((x) => dec(x.importe)));
  const before = (xs: Cuenta[]) => sum(xs.map((x) => dec(x.importe_anterior ?? 0)));
  const allActivo = [...data.activo.circulante, ...data.activo.fijo, ...data.activo.diferido];
  const baseNow = now(allActivo);
  const baseBefore = before(allActivo);
  const frac = (v: Dec, base: Dec) => (base.isZero() ? null : v.div(base).toString());

  const linea = (concepto: string, actual: Dec, anterior: Dec): Linea => ({
    concepto,
    importe: moneyText(actual),
    pct: frac(actual, baseNow),
    anterior: comparativo ? moneyText(anterior) : null,
    pct_anterior: comparativo ? frac(anterior, baseBefore) : null,
    variacion: comparativo ? moneyText(actual.minus(anterior)) : null,
    variacion_pct:
      comparativo && !anterior.isZero() ? actual.minus(anterior).div(anterior.abs()).toString() : null,
  });
  const grupo = (clave: string, titulo: string | null, cuentas: Cuenta[], totalLabel: string): Grupo => ({
    clave,
    titulo,
    cuentas: cuentas.map((c) => linea(c.concepto, dec(c.importe), dec(c.importe_anterior ?? 0))),
    total: linea(totalLabel, now(cuentas), before(cuentas)),
  });
  const g = (clave: keyof typeof COLOURS, titulo: string, cuentas: Cuenta[]) =>
    grupo(clave, titulo, cuentas, `Total ${titulo.toLowerCase()}`);

  const pasivoCuentas = [...data.pasivo.corto_plazo, ...data.pasivo.largo_plazo];
  const secciones: Seccion[] = [
    {
      titulo: 'Activo',
      grupos: [
        g('circulante', 'Activo circulante', data.activo.circulante),
        g('fijo', 'Activo fijo', data.activo.fijo),
        g('diferido', 'Activo diferido', data.activo.diferido),
      ].filter((x) => x.cuentas.length > 0),
      total: linea('Total activo', baseNow, baseBefore),
    },
    {
      titulo: 'Pasivo',
      grupos: [
        g('corto_plazo', 'Pasivo a corto plazo', data.pasivo.corto_plazo),
        g('largo_plazo', 'Pasivo a largo plazo', data.pasivo.largo_plazo),
      ].filter((x) => x.cuentas.length > 0),
      total: linea('Total pasivo', now(pasivoCuentas), before(pasivoCuentas)),
    },
    {
      titulo: 'Capital contable',
      grupos: [grupo('capital', null, data.capital, 'Total capital contable')],
      total: linea('Total capital contable', now(data.capital), before(data.capital)),
    },
  ];
  const pc = [...pasivoCuentas, ...data.capital];
  const granTotal = linea('Total pasivo + capital', now(pc), before(pc));

  // Ratios at the cut-off (and before, when comparative).
  const ratios = (f: (xs: Cuenta[]) => Dec) => {
    const ac = f(data.activo.circulante);
    const pcp = f(data.pasivo.corto_plazo);
    const activo = f(allActivo);
    const pasivo = f(pasivoCuentas);
    return {
      capital_trabajo: moneyText(ac.minus(pcp)),
      razon_circulante: pcp.isZero() ? null : ac.div(pcp).toDecimalPlaces(2).toFixed(2),
      endeudamiento: activo.isZero() ? null : pasivo.div(activo).toString(),
    };
  };

  const parts = (f: (xs: Cuenta[]) => Dec) => ({
    activo: [
      ['circulante', 'Circulante', f(data.activo.circulante)],
      ['fijo', 'Fijo', f(data.activo.fijo)],
      ['diferido', 'Diferido', f(data.activo.diferido)],
    ] as const,
    pasivo: [
      ['corto_plazo', 'Pasivo C. P.', f(data.pasivo.corto_plazo)],
      ['largo_plazo', 'Pasivo L. P.', f(data.pasivo.largo_plazo)],
      ['capital', 'Capital', f(data.capital)],
    ] as const,
  });
  const p = parts(now);
  const seg = (xs: readonly (readonly [keyof typeof COLOURS, string, Dec])[]) => {
    const positive = sum(xs.map((x) => Dec.max(x[2], 0)));
    return xs
      .filter((x) => x[2].gt(0))
      .map(([k, label, v]) => ({
        label,
        value: v.toNumber(),
        colour: COLOURS[k],
        display: `${v.div(positive).times(100).toDecimalPlaces(0).toString()} %`,
      }));
  };
  const estructura = stackedBars(
    [
      { label: 'Activo', segments: seg(p.activo) },
      { label: 'Pasivo y capital', segments: seg(p.pasivo) },
    ],
    { width: 330, title: 'Estructura financiera', bar: 15, legend: true, fontSize: 9 },
  );

  return {
    comparativo,
    fecha_larga: fechaLarga(data.fecha_corte),
    fecha_anterior_larga: data.fecha_corte_anterior ? fechaLarga(data.fecha_corte_anterior) : null,
    anio: data.fecha_corte.slice(0, 4),
    anio_anterior: data.fecha_corte_anterior?.slice(0, 4) ?? null,
    secciones,
    gran_total: granTotal,
    total_activo: moneyText(baseNow),
    total_pasivo: secciones[1]!.total.importe,
    total_capital: secciones[2]!.total.importe,
    total_pasivo_capital: granTotal.importe,
    indicadores: ratios(now),
    indicadores_anterior: comparativo ? ratios(before) : null,
    estructura,
    footer: cssString(fitText(`Balance general · ${data.empresa}`, 330, 10)),
  };
}

function sheets(data: BalanceData): SheetModel[] {
  const c = calcBalance(data);
  const comp = c.comparativo;
  const m = data.moneda;
  const columns: Column[] = [
    { key: 'concepto', header: 'Concepto', kind: 'text' },
    { key: 'importe', header: comp ? `Al ${data.fecha_corte}` : 'Importe', kind: 'money', currency: m },
    { key: 'pct', header: '% del activo', kind: 'percent' },
    ...(comp
      ? ([
          { key: 'anterior', header: `Al ${data.fecha_corte_anterior}`, kind: 'money', currency: m },
          { key: 'pct_anterior', header: '% del activo', kind: 'percent' },
          { key: 'variacion', header: 'Variación', kind: 'money', currency: m },
          { key: 'variacion_pct', header: 'Variación %', kind: 'percent' },
        ] as const)
      : []),
  ];
  const rows: Record<string, Cell>[] = [];
  const styles: (RowStyle | undefined)[] = [];
  // Row index of TOTAL ACTIVO, known once the activo section is written; percentages refer to it.
  const TOTAL = '{$importe@TA}';
  const TOTAL_ANT = '{$anterior@TA}';
  // Fractions cached as the nearest double to the exact value (a viewer that does not recalculate rounds once).
  const num = (s: string | null) => (s === null ? '' : Number(s));
  const push = (
    style: RowStyle | undefined,
    concepto: string,
    l: Linea | null,
    f?: { now: string; before: string },
  ) => {
    const i = rows.length;
    styles.push(style);
    if (!l) {
      rows.push({ concepto });
      return i;
    }
    rows.push({
      concepto,
      importe: f ? { formula: f.now, result: Number(l.importe) } : Number(l.importe),
      pct: { formula: `IF(${TOTAL}=0,"",{importe}/${TOTAL})`, result: num(l.pct) },
      ...(comp
        ? {
            anterior: f ? { formula: f.before, result: Number(l.anterior) } : Number(l.anterior),
            pct_anterior: {
              formula: `IF(${TOTAL_ANT}=0,"",{anterior}/${TOTAL_ANT})`,
              result: num(l.pct_anterior),
            },
            variacion: { formula: '{importe}-{anterior}', result: Number(l.variacion) },
            variacion_pct: {
              formula: 'IF({anterior}=0,"",({importe}-{anterior})/ABS({anterior}))',
              result: num(l.variacion_pct),
            },
          }
        : {}),
    });
    return i;
  };
  const both = (expr: (key: string) => string) => ({ now: expr('importe'), before: expr('anterior') });
  const sectionTotals: number[] = [];
  let totalActivo = -1;
  for (const s of c.secciones) {
    push('heading', s.titulo.toUpperCase(), null);
    const subtotals: number[] = [];
    for (const g of s.grupos) {
      if (g.titulo) push('heading', g.titulo, null);
      const first = rows.length;
      for (const x of g.cuentas) push('detail', x.concepto, x);
      const last = rows.length - 1;
      if (g.titulo) {
        subtotals.push(
          push(
            'subtotal',
            g.total.concepto,
            g.total,
            both((k) => (last >= first ? `SUM({${k}@${first}}:{${k}@${last}})` : '0')),
          ),
        );
      } else {
        // Capital contable: its accounts add up straight into the section total.
        subtotals.push(...Array.from({ length: last - first + 1 }, (_, j) => first + j));
      }
    }
    const sumOf = (k: string) => (subtotals.length ? subtotals.map((i) => `{${k}@${i}}`).join('+') : '0');
    const t = push('total', s.total.concepto, s.total, both(sumOf));
    if (s.titulo === 'Activo') totalActivo = t;
    else sectionTotals.push(t);
  }
  push(
    'total',
    c.gran_total.concepto,
    c.gran_total,
    both((k) => sectionTotals.map((i) => `{${k}@${i}}`).join('+')),
  );
  // The identity, as a formula anyone can audit: 0 when the balance balances.
  const check = rows.length;
  push(undefined, 'Diferencia: activo − (pasivo + capital)', null);
  rows[check] = {
    concepto: 'Diferencia: activo − (pasivo + capital)',
    importe: { formula: `{importe@${totalActivo}}-{importe@${check - 1}}`, result: 0 },
    ...(comp
      ? { anterior: { formula: `{anterior@${totalActivo}}-{anterior@${check - 1}}`, result: 0 } }
      : {}),
  };
  // Resolve the TOTAL ACTIVO placeholder now that its row is known.
  const fix = (cell: Cell): Cell =>
    cell !== null && typeof cell === 'object'
      ? { ...cell, formula: cell.formula.replace(/@TA\}/g, `@${totalActivo}}`) }
      : cell;
  const resolved = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fix(v)])));
  return [
    {
      name: 'Balance general',
      title: `${data.empresa} · Balance general al ${c.fecha_larga}`,
      subtitle: [
        data.rfc ? `RFC ${data.rfc}` : null,
        comp ? `Comparativo con el ${c.fecha_anterior_larga}` : null,
        `Cifras en ${m}`,
      ]
        .filter(Boolean)
        .join(' · '),
      columns,
      rows: resolved,
      rowStyles: styles,
      autoFilter: false,
    },
  ];
}

export const balance = defineTemplate({
  meta: {
    slug: 'balance',
    title: 'Balance general',
    purpose: 'Balance general (estado de situación financiera), con comparativo opcional',
    formats: ['pdf', 'xlsx', 'zip'],
    page: { size: 'A4', landscape: false, margin: '12mm' },
  },
  schema,
  sample: sample as BalanceData,
  view: (data) => ({ ...data, calc: calcBalance(data) }),
  sheets,
  title: (data) => `Balance general — ${data.empresa}`,
});
