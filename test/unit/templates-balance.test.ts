// balance, without a browser: the identity check for each period (400 naming both sides and the difference to the
// centavo, or finer), the comparative period's rules, totals/percentages/variations against integer arithmetic,
// the ratios, both layouts (report form when comparative, account form otherwise), and the spreadsheet model where
// every subtotal and total is a formula over the right rows.
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { builtInPartials, loadSource, TEMPLATES } from '../../lambdas/documents/domain/template-registry';
import { renderTrusted } from '../../lambdas/documents/templating/trusted';
import type { FormulaCell } from '../../templates/kit/sheet-model';
import { calcBalance } from '../../templates/balance/calc';
import { balanceSinComparativo } from '../../templates/balance/examples';
import { schema } from '../../templates/balance/schema';

const balance = TEMPLATES.find((t) => t.meta.slug === 'balance')!;
type Sample = {
  activo: Record<
    'circulante' | 'fijo' | 'diferido',
    { concepto: string; importe: number; importe_anterior?: number }[]
  >;
  pasivo: Record<
    'corto_plazo' | 'largo_plazo',
    { concepto: string; importe: number; importe_anterior?: number }[]
  >;
  capital: { concepto: string; importe: number; importe_anterior?: number }[];
  fecha_corte_anterior?: string;
};
const sample = () => structuredClone(balance.sample) as Sample;
const check = (data: unknown) => validateRenderRequest({ template: 'balance', format: 'pdf', data });
const cents = (n: number) => BigInt(Math.round(n * 100));
const money = (c: bigint) =>
  `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, '0')}`;

function html(data: unknown): string {
  const { source, hash } = loadSource('balance');
  return renderTrusted(
    source,
    balance.view(schema.parse(data) as never),
    builtInPartials(),
    `balance@${hash}`,
  );
}
const visible = (h: string) =>
  h
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/[\s\u00a0]+/g, ' ');

describe('identity check', () => {
  it('the previous period must balance too, and the message names both sides and the difference', () => {
    const d = sample();
    d.pasivo.corto_plazo[0]!.importe_anterior! -= 12.34;
    const r = check(d);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]).toMatchObject({ loc: ['body', 'data', 'capital'], type: 'balance_mismatch' });
      expect(r.problems[0]!.msg).toBe(
        'The balance does not balance at fecha_corte_anterior 2022-12-31: activo 2663170.65 ≠ pasivo + capital ' +
          '2663158.31 (difference 12.34)',
      );
    }
  });

  it('a difference below the centavo is still named exactly', () => {
    const d = sample();
    d.capital[0]!.importe += 0.004;
    const r = check(d);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.msg).toContain('(difference -0.004)');
  });

  it('importe_anterior without fecha_corte_anterior, and dates out of order, are 400s', () => {
    const d = sample();
    delete d.fecha_corte_anterior;
    const r = check(d);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.loc.join('.'))).toEqual(['body.data.fecha_corte_anterior']);
    const late = { ...sample(), fecha_corte_anterior: '2024-01-31' };
    const r2 = check(late);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.problems.some((p) => p.type === 'date_order')).toBe(true);
    expect(check(balanceSinComparativo()).ok).toBe(true);
  });
});

describe('calcBalance', () => {
  const d = schema.parse(balance.sample);
  const c = calcBalance(d);
  const sumOf = (xs: { importe: number }[]) => xs.reduce((s, x) => s + cents(x.importe), 0n);
  const sumBefore = (xs: { importe_anterior?: number }[]) =>
    xs.reduce((s, x) => s + cents(x.importe_anterior ?? 0), 0n);

  it('totals and variations agree with integer arithmetic', () => {
    const activo = [...d.activo.circulante, ...d.activo.fijo, ...d.activo.diferido];
    const pasivo = [...d.pasivo.corto_plazo, ...d.pasivo.largo_plazo];
    expect(c.total_activo).toBe(money(sumOf(activo)));
    expect(c.total_pasivo).toBe(money(sumOf(pasivo)));
    expect(c.total_pasivo_capital).toBe(money(sumOf([...pasivo, ...d.capital])));
    const [sActivo] = c.secciones;
    expect(sActivo!.total.anterior).toBe(money(sumBefore(activo)));
    expect(sActivo!.total.variacion).toBe(money(sumOf(activo) - sumBefore(activo)));
    // Depreciation grew from -262,000 to -386,500: a variation of -124,500, -47.52 % of |-262,000|.
    const dep = sActivo!.grupos[1]!.cuentas[2]!;
    expect(dep.variacion).toBe('-124500.00');
    expect(Number(dep.variacion_pct)).toBeCloseTo(-124500 / 262000, 12);
    // Vertical analysis: every line over total activo; the grand totals are 100 %.
    expect(sActivo!.total.pct).toBe('1');
    expect(c.gran_total.pct).toBe('1');
  });

  it('ratios: working capital, current ratio, debt ratio', () => {
    const ac = sumOf(d.activo.circulante);
    const pcp = sumOf(d.pasivo.corto_plazo);
    expect(c.indicadores.capital_trabajo).toBe(money(ac - pcp));
    expect(c.indicadores.razon_circulante).toBe((Number(ac) / Number(pcp)).toFixed(2));
    expect(Number(c.indicadores.endeudamiento)).toBeCloseTo(1031050.3 / 2810881.3, 12);
    expect(c.indicadores_anterior!.razon_circulante).toBe('2.92'); // 1,346,670.65 / 460,510.65
  });
});

describe('html', () => {
  it('comparative: report form with both periods and the variation', () => {
    const t = visible(html(balance.sample));
    // 147,710.65 / 2,663,170.65 = 5.546 %: rounded once (5.5 %), not via 0.0555 (5.6 %).
    expect(t).toContain('Total activo $2,810,881.30 100.0 % $2,663,170.65 100.0 % $147,710.65 5.5 %');
    expect(t).toContain(
      'Depreciación acumulada -$386,500.00 -13.8 % -$262,000.00 -9.8 % -$124,500.00 -47.5 %',
    );
    expect(t).toContain('Total pasivo + capital $2,810,881.30');
    expect(t).toContain('comparativo con el 31 de diciembre de 2022');
    expect(t).toContain('C.P. Laura Méndez Ochoa Contadora general');
  });

  it('single period: account form (activo beside pasivo and capital)', () => {
    const h = html(balanceSinComparativo());
    expect(h).toContain('class="forma-cuenta"');
    const t = visible(h);
    expect(t).toContain('Total activo $2,810,881.30 100.0 %');
    expect(t).not.toContain('Variación');
  });

  it('escapes account names', () => {
    const d = sample();
    d.capital[0]!.concepto = '<script>alert(1)</script>';
    expect(html(d)).not.toContain('<script>alert');
  });
});

describe('sheet', () => {
  const [sheet] = balance.sheets!(schema.parse(balance.sample) as never);
  const rows = sheet!.rows;
  const find = (concepto: string) => rows.findIndex((r) => r.concepto === concepto);

  it('subtotals are SUMs over their accounts; totals add the subtotals; % over TOTAL ACTIVO', () => {
    const ta = find('Total activo');
    const circ = find('Total activo circulante');
    expect(rows[circ]!.importe).toEqual({
      formula: `SUM({importe@${circ - 4}}:{importe@${circ - 1}})`,
      result: 1490581.3,
    });
    expect(rows[circ]!.anterior).toEqual({
      formula: `SUM({anterior@${circ - 4}}:{anterior@${circ - 1}})`,
      result: 1346670.65,
    });
    const fijo = find('Total activo fijo');
    const dif = find('Total activo diferido');
    expect((rows[ta]!.importe as FormulaCell).formula).toBe(
      `{importe@${circ}}+{importe@${fijo}}+{importe@${dif}}`,
    );
    expect((rows[0 + circ - 4]!.pct as FormulaCell).formula).toBe(
      `IF({$importe@${ta}}=0,"",{importe}/{$importe@${ta}})`,
    );
    const gt = find('Total pasivo + capital');
    expect((rows[gt]!.importe as FormulaCell).formula).toBe(
      `{importe@${find('Total pasivo')}}+{importe@${find('Total capital contable')}}`,
    );
    // The audit row: activo − (pasivo + capital) = 0.
    expect(rows.at(-1)!.importe).toEqual({ formula: `{importe@${ta}}-{importe@${gt}}`, result: 0 });
    expect(sheet!.rowStyles![ta]).toBe('total');
    expect(sheet!.autoFilter).toBe(false);
  });
});
