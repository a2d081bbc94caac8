// Variants of the balance sample for tests and previews: the same balance without the comparative period, and a
// long one (many accounts per group) that runs over a page.
import sample from './sample.json';

type Cuenta = { concepto: string; importe: number; importe_anterior?: number };
type Sample = typeof sample;

/** The sample without fecha_corte_anterior and importe_anterior: a single-period balance. */
export function balanceSinComparativo(): Omit<Sample, 'fecha_corte_anterior'> {
  const strip = (xs: Cuenta[]) => xs.map(({ concepto, importe }) => ({ concepto, importe }));
  const { fecha_corte_anterior: _omit, ...rest } = structuredClone(sample);
  void _omit;
  return {
    ...rest,
    activo: {
      circulante: strip(rest.activo.circulante),
      fijo: strip(rest.activo.fijo),
      diferido: strip(rest.activo.diferido),
    },
    pasivo: { corto_plazo: strip(rest.pasivo.corto_plazo), largo_plazo: strip(rest.pasivo.largo_plazo) },
    capital: strip(rest.capital),
  } as never;
}

/** A comparative balance with `n` customer accounts in activo circulante, balanced by capital: several pages. */
export function balanceLargo(n: number): Sample {
  const data = structuredClone(sample);
  const extra = Array.from({ length: n }, (_, i) => ({
    concepto: `Cliente ${String(i + 1).padStart(3, '0')} — cuenta por cobrar`,
    importe: 1000 + ((i * 137) % 9000) + (i % 100) / 100,
    importe_anterior: 800 + ((i * 71) % 7000),
  }));
  data.activo.circulante.push(...extra);
  const add = extra.reduce((s, x) => s + Math.round(x.importe * 100), 0) / 100;
  const addBefore = extra.reduce((s, x) => s + x.importe_anterior, 0);
  data.capital.push({
    concepto: 'Aportaciones para futuros aumentos de capital',
    importe: add,
    importe_anterior: addBefore,
  });
  return data;
}
