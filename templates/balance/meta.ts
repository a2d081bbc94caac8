// balance: balance sheet in the Mexican layout (activo circulante / fijo / diferido; pasivo a corto / largo
// plazo; capital contable) with subtotals, totals and the identity check done by the schema. XLSX: one sheet with
// rubro, cuenta and importe, group subtotals and totals as rows.
import { defineTemplate } from '../../lambdas/documents/domain/template-types';
import { dec, moneyText, sum } from '../../lambdas/documents/domain/money';
import type { Cell, SheetModel } from '../../lambdas/documents/formats/types';
import { schema, type BalanceData } from './schema';
import sample from './sample.json';

type Cuenta = { concepto: string; importe: number };

export function calcBalance(data: BalanceData) {
  const m = data.moneda;
  const t = (xs: Cuenta[]) => sum(xs.map((x) => dec(x.importe)));
  const grupo = (titulo: string, cuentas: Cuenta[]) => ({
    titulo,
    cuentas: cuentas.map((c) => ({ concepto: c.concepto, importe: moneyText(dec(c.importe), m) })),
    total: moneyText(t(cuentas), m),
  });
  const activo = [
    grupo('Activo circulante', data.activo.circulante),
    grupo('Activo fijo', data.activo.fijo),
    grupo('Activo diferido', data.activo.diferido),
  ].filter((g) => g.cuentas.length > 0);
  const pasivo = [
    grupo('Pasivo a corto plazo', data.pasivo.corto_plazo),
    grupo('Pasivo a largo plazo', data.pasivo.largo_plazo),
  ].filter((g) => g.cuentas.length > 0);
  const capital = grupo('Capital contable', data.capital);
  const totalActivo = t([...data.activo.circulante, ...data.activo.fijo, ...data.activo.diferido]);
  const totalPasivo = t([...data.pasivo.corto_plazo, ...data.pasivo.largo_plazo]);
  const totalCapital = t(data.capital);
  return {
    activo,
    pasivo,
    capital,
    total_activo: moneyText(totalActivo, m),
    total_pasivo: moneyText(totalPasivo, m),
    total_capital: moneyText(totalCapital, m),
    total_pasivo_capital: moneyText(totalPasivo.plus(totalCapital), m),
  };
}

function sheets(data: BalanceData): SheetModel[] {
  const c = calcBalance(data);
  const rows: Record<string, Cell>[] = [];
  const add = (rubro: string, cuenta: string, importe: string) =>
    rows.push({ rubro, cuenta, importe: Number(importe) });
  for (const g of c.activo) {
    for (const x of g.cuentas) add(g.titulo, x.concepto, x.importe);
    add(g.titulo, `Total ${g.titulo.toLowerCase()}`, g.total);
  }
  add('Activo', 'TOTAL ACTIVO', c.total_activo);
  for (const g of c.pasivo) {
    for (const x of g.cuentas) add(g.titulo, x.concepto, x.importe);
    add(g.titulo, `Total ${g.titulo.toLowerCase()}`, g.total);
  }
  add('Pasivo', 'TOTAL PASIVO', c.total_pasivo);
  for (const x of c.capital.cuentas) add('Capital contable', x.concepto, x.importe);
  add('Capital contable', 'TOTAL CAPITAL CONTABLE', c.total_capital);
  add('Pasivo + capital', 'TOTAL PASIVO + CAPITAL', c.total_pasivo_capital);
  return [
    {
      name: 'Balance general',
      title: `${data.empresa} · Balance general al ${data.fecha_corte}`,
      columns: [
        { key: 'rubro', header: 'Rubro', kind: 'text' },
        { key: 'cuenta', header: 'Cuenta', kind: 'text' },
        { key: 'importe', header: 'Importe', kind: 'money', currency: data.moneda },
      ],
      rows,
    },
  ];
}

export const balance = defineTemplate({
  meta: {
    slug: 'balance',
    title: 'Balance general',
    purpose: 'Balance general (estado de situación financiera)',
    formats: ['pdf', 'xlsx', 'zip'],
    page: { size: 'A4', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as BalanceData,
  view: (data) => ({ ...data, calc: calcBalance(data) }),
  sheets,
  title: (data) => `Balance general — ${data.empresa}`,
});
