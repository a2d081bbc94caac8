// CFDI 4.0 arithmetic with exact decimals (decimal.js through money.ts), the way Anexo 20 defines each attribute:
//
//   Concepto.Importe      = Cantidad × ValorUnitario, rounded half up to the currency's decimals
//   Traslado/Retención    Base = Importe − Descuento (for IVA trasladado: + the concept's IEPS trasladado, LIVA
//   (per concept)         art. 12/18: other taxes charged are part of the value); TipoFactor Cuota: Base = Cantidad
//                         Importe = Base × TasaOCuota, rounded half up to 6 decimals (what t_Importe allows; keeps
//                         the sum of many concepts from drifting by a centavo per line)
//   Impuestos (totals)    per Impuesto + TipoFactor + TasaOCuota: Base = Σ bases, Importe = Σ importes, each
//                         rounded to the currency's decimals; retenciones per Impuesto: Importe = Σ, rounded
//                         TotalImpuestosTrasladados = Σ traslado importes (Exento ones have none)
//                         TotalImpuestosRetenidos   = Σ retención importes
//   SubTotal = Σ Concepto.Importe · Descuento = Σ Concepto.Descuento
//   Total    = SubTotal − Descuento + TotalImpuestosTrasladados − TotalImpuestosRetenidos
import { currencyDigits, Dec, dec, sum } from '../money';
import type { ClaveImpuesto, TipoFactor } from './catalogos';
import { OBJETO_SIN_IMPUESTOS } from './catalogos';

export interface TrasladoInput {
  impuesto: ClaveImpuesto;
  tipoFactor: TipoFactor;
  /** Absent for Exento. */
  tasaOCuota?: string;
}

export interface RetencionInput {
  impuesto: ClaveImpuesto;
  tipoFactor: 'Tasa' | 'Cuota';
  tasaOCuota: string;
}

export interface ConceptoInput {
  cantidad: string;
  valorUnitario: string;
  descuento?: string;
  objetoImp: string;
  traslados: TrasladoInput[];
  retenciones: RetencionInput[];
}

export interface TrasladoCalc extends TrasladoInput {
  base: Dec;
  /** Absent for Exento. */
  importe?: Dec;
}

export interface RetencionCalc extends RetencionInput {
  base: Dec;
  importe: Dec;
}

export interface ConceptoCalc {
  importe: Dec;
  descuento: Dec;
  traslados: TrasladoCalc[];
  retenciones: RetencionCalc[];
}

export interface TrasladoTotal {
  impuesto: ClaveImpuesto;
  tipoFactor: TipoFactor;
  tasaOCuota?: string;
  base: Dec;
  importe?: Dec;
}

export interface RetencionTotal {
  impuesto: ClaveImpuesto;
  importe: Dec;
}

export interface CfdiCalc {
  conceptos: ConceptoCalc[];
  subtotal: Dec;
  descuento: Dec;
  traslados: TrasladoTotal[];
  retenciones: RetencionTotal[];
  /** Absent when no traslado has an importe (none, or all Exento): the attribute is then omitted. */
  totalTrasladados?: Dec;
  /** Absent when there are no retenciones. */
  totalRetenidos?: Dec;
  total: Dec;
}

const SIX = 6;
const round = (v: Dec, places: number) => v.toDecimalPlaces(places, Dec.ROUND_HALF_UP);

function concepto(c: ConceptoInput, digits: number): ConceptoCalc {
  const importe = round(dec(c.cantidad).times(c.valorUnitario), digits);
  const descuento = dec(c.descuento ?? '0');
  const neto = importe.minus(descuento);
  if (OBJETO_SIN_IMPUESTOS.has(c.objetoImp)) return { importe, descuento, traslados: [], retenciones: [] };

  const baseOf = (tipoFactor: TipoFactor) => (tipoFactor === 'Cuota' ? dec(c.cantidad) : neto);
  // IVA's base includes the IEPS trasladado on the same concept.
  const ieps = sum(
    c.traslados
      .filter((t) => t.impuesto === '003' && t.tipoFactor !== 'Exento')
      .map((t) => round(baseOf(t.tipoFactor).times(t.tasaOCuota!), SIX)),
  );
  const traslados: TrasladoCalc[] = c.traslados.map((t) => {
    const base = t.impuesto === '002' && t.tipoFactor !== 'Cuota' ? neto.plus(ieps) : baseOf(t.tipoFactor);
    return t.tipoFactor === 'Exento'
      ? { impuesto: t.impuesto, tipoFactor: 'Exento', base }
      : { ...t, base, importe: round(base.times(t.tasaOCuota!), SIX) };
  });
  const retenciones = c.retenciones.map((r) => {
    const base = baseOf(r.tipoFactor);
    return { ...r, base, importe: round(base.times(r.tasaOCuota), SIX) };
  });
  return { importe, descuento, traslados, retenciones };
}

const FACTOR_ORDER: Record<TipoFactor, number> = { Tasa: 0, Cuota: 1, Exento: 2 };

/** Computes every amount of a CFDI from its concepts, in `moneda`'s decimals. */
export function calcularCfdi(conceptos: ConceptoInput[], moneda: string): CfdiCalc {
  const digits = currencyDigits(moneda);
  const lines = conceptos.map((c) => concepto(c, digits));

  const tGroups = new Map<string, { key: TrasladoTotal; bases: Dec[]; importes: Dec[] }>();
  const rGroups = new Map<ClaveImpuesto, Dec[]>();
  for (const l of lines) {
    for (const t of l.traslados) {
      const k = `${t.impuesto}|${t.tipoFactor}|${t.tasaOCuota ? dec(t.tasaOCuota).toFixed(SIX) : ''}`;
      let g = tGroups.get(k);
      if (!g) {
        g = {
          key: { impuesto: t.impuesto, tipoFactor: t.tipoFactor, tasaOCuota: t.tasaOCuota, base: new Dec(0) },
          bases: [],
          importes: [],
        };
        tGroups.set(k, g);
      }
      g.bases.push(t.base);
      if (t.importe) g.importes.push(t.importe);
    }
    for (const r of l.retenciones) {
      const list = rGroups.get(r.impuesto) ?? [];
      list.push(r.importe);
      rGroups.set(r.impuesto, list);
    }
  }
  const traslados: TrasladoTotal[] = [...tGroups.values()]
    .map(({ key, bases, importes }) => ({
      ...key,
      base: round(sum(bases), digits),
      ...(key.tipoFactor === 'Exento' ? {} : { importe: round(sum(importes), digits) }),
    }))
    .sort(
      (a, b) =>
        a.impuesto.localeCompare(b.impuesto) ||
        FACTOR_ORDER[a.tipoFactor] - FACTOR_ORDER[b.tipoFactor] ||
        dec(b.tasaOCuota ?? 0).comparedTo(dec(a.tasaOCuota ?? 0)),
    );
  const retenciones: RetencionTotal[] = [...rGroups.entries()]
    .map(([impuesto, importes]) => ({ impuesto, importe: round(sum(importes), digits) }))
    .sort((a, b) => a.impuesto.localeCompare(b.impuesto));

  const subtotal = sum(lines.map((l) => l.importe));
  const descuento = sum(lines.map((l) => l.descuento));
  const conImporte = traslados.filter((t) => t.importe);
  const totalTrasladados = conImporte.length ? sum(conImporte.map((t) => t.importe!)) : undefined;
  const totalRetenidos = retenciones.length ? sum(retenciones.map((r) => r.importe)) : undefined;
  const total = subtotal
    .minus(descuento)
    .plus(totalTrasladados ?? 0)
    .minus(totalRetenidos ?? 0);
  return {
    conceptos: lines,
    subtotal,
    descuento,
    traslados,
    retenciones,
    totalTrasladados,
    totalRetenidos,
    total,
  };
}

/** Decimal text with at least `min` and at most 6 decimals ("2960.00", "172.608", "0.160000" with min 6). */
export function decimalText(v: Dec, min = 2): string {
  const fixed = v.toFixed(SIX);
  const [int, frac = ''] = fixed.split('.');
  const trimmed = frac.replace(/0+$/, '');
  return `${int}.${trimmed.padEnd(min, '0')}`;
}
