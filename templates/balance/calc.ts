// balance: balance sheet in the Mexican report form (activo circulante / fijo / diferido; pasivo a corto / largo
// plazo; capital contable) with subtotals, totals, vertical analysis (each line as % of total activo), optional
// comparison with a previous cut-off (amounts, variation and variation %), key ratios (capital de trabajo, razón
// circulante, endeudamiento) and a 100 % stacked chart of the financial structure. The identity check is the
// schema's.
import { fechaLarga } from '../../lambdas/shared/text/fechas';
import { currencyDigits, Dec, dec, sum } from '../kit/money';
import { fitText, stackedBars } from '../kit/charts';
import { cssString } from '../kit/css-string';
import type { BalanceData, Cuenta } from './schema';

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
