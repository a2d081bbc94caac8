// How the factura writes rates, tax labels, quantities and unit prices (shared by the data and the XML paths).
import { IMPUESTO, type ClaveImpuesto, type TipoFactor } from '../kit/cfdi/catalogos';
import { currencyDigits, Dec, dec } from '../kit/money';

/** A rate as a percentage without trailing zeros: 0.16 → "16", 0.106667 → "10.6667", 0.265 → "26.5". */
export function pct(tasa: string): string {
  return dec(tasa).times(100).toDecimalPlaces(4, Dec.ROUND_HALF_UP).toString();
}

export function etiquetaTraslado(t: {
  impuesto: ClaveImpuesto;
  tipoFactor: TipoFactor;
  tasaOCuota?: string;
}): string {
  const name = IMPUESTO[t.impuesto];
  if (t.tipoFactor === 'Exento') return `${name} exento`;
  if (t.tipoFactor === 'Cuota') return `${name} cuota ${dec(t.tasaOCuota!).toString()}`;
  return `${name} ${pct(t.tasaOCuota!)} %`;
}

export function etiquetaRetencion(impuesto: ClaveImpuesto, tasas: string[]): string {
  const unique = [...new Set(tasas.map((t) => dec(t).toString()))];
  return `Retención ${IMPUESTO[impuesto]}${unique.length === 1 ? ` ${pct(unique[0]!)} %` : ''}`;
}

/** A quantity as written, with es-MX grouping and up to its 6 decimals: 1234.5 → "1,234.5". */
export function cantidadTexto(n: number | string): string {
  return new Intl.NumberFormat('es-MX', { maximumFractionDigits: 6 }).format(
    dec(n).toFixed() as unknown as number,
  );
}

/** A unit price with the currency's decimals, or more when it has them (up to 6): "$450.50", "$0.125". */
export function precioTexto(n: number | string, moneda: string): string {
  const digits = currencyDigits(moneda);
  return new Intl.NumberFormat('es-MX', {
    style: 'currency',
    currency: moneda,
    minimumFractionDigits: digits,
    maximumFractionDigits: Math.max(digits, 6),
  }).format(dec(n).toFixed() as unknown as number); // Intl formats decimal strings exactly
}
