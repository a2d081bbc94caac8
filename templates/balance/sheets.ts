// balance in XLSX: one sheet in the same layout as the PDF where every subtotal, total, percentage and variation is a
// formula.
import type { Cell, Column, RowStyle, SheetModel } from '../kit/sheet-model';
import { calcBalance, type Linea } from './calc';
import type { BalanceData } from './schema';

export function sheets(data: BalanceData): SheetModel[] {
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
