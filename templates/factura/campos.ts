// Field builders of the factura's data (./schema.ts): numbers with CFDI's decimals, SAT catalogue keys, taxes,
// dates, UUIDs, sellos, certificate numbers and the currency; each check a 400 item at its field.
import { z } from 'zod';
import { type Catalog, type ClaveImpuesto } from '../kit/cfdi/catalogos';
import { Dec, dec, isCurrency } from '../kit/money';
import { mayusculas } from '../kit/schema-helpers';

export const issue = (message: string, type: string) => ({ message, params: { type } });

/** A number with at most `max` decimals (CFDI amounts: 6). */
export function numero(description: string, opts: { positive?: boolean; max?: number } = {}) {
  const base = opts.positive ? z.number().finite().positive() : z.number().finite().nonnegative();
  return base
    .refine(
      (n) => dec(n).decimalPlaces() <= (opts.max ?? 6),
      issue(`At most ${opts.max ?? 6} decimals`, 'too_many_decimals'),
    )
    .describe(description);
}

/**
 * The contract's `cantidad` and `precio` are plain JSON numbers: a client computing them in binary floating point
 * sends 0.30000000000000004 for 0.1 + 0.2. They are rounded half up to CFDI's 6 decimals (what the XML carries)
 * instead of being refused.
 */
export function numeroContrato(description: string, opts: { positive?: boolean } = {}) {
  const base = opts.positive ? z.number().finite().positive() : z.number().finite().nonnegative();
  return base
    .transform((n) => Number(dec(n).toDecimalPlaces(6, Dec.ROUND_HALF_UP).toString()))
    .refine((n) => !opts.positive || n > 0, issue('Must be at least 0.000001 (6 decimals)', 'too_small'))
    .describe(description);
}

/**
 * A key of a SAT catalogue. The key alone ("03") or followed by its description ("03 Transferencia electrónica")
 * is accepted; the key is kept and the catalogue's description printed.
 */
export function clave(catalog: Catalog, nombre: string, description: string) {
  const keys = Object.keys(catalog);
  const sample = keys.slice(0, 4).join(', ');
  return z
    .string()
    .trim()
    .transform((s) => (s.split(/[\s\-–—:]+/)[0] ?? '').toUpperCase())
    .refine((s) => s in catalog, issue(`Not a key of ${nombre}: use one of ${sample}…`, 'catalog_key'))
    .describe(description);
}

const IMPUESTO_POR_NOMBRE: Record<string, ClaveImpuesto> = {
  ISR: '001',
  IVA: '002',
  IEPS: '003',
  '001': '001',
  '002': '002',
  '003': '003',
};

const impuesto = mayusculas()
  .refine(
    (s) => s in IMPUESTO_POR_NOMBRE,
    issue('Not a key of c_Impuesto: use ISR (001), IVA (002) or IEPS (003)', 'catalog_key'),
  )
  .transform((s) => IMPUESTO_POR_NOMBRE[s]!)
  .describe('Impuesto: ISR, IVA o IEPS (o su clave c_Impuesto 001, 002, 003)');

export const tasaIva = z
  .union([z.literal([0, 0.08, 0.16]), z.literal('exento')])
  .describe('Tasa de IVA trasladado: 0.16 (general), 0.08 (región fronteriza), 0 o "exento"');

export const traslado = z.object({
  impuesto,
  tipo_factor: z
    .enum(['Tasa', 'Cuota', 'Exento'])
    .default('Tasa')
    .describe('Tipo de factor (c_TipoFactor): Tasa, Cuota o Exento. Por omisión Tasa'),
  tasa_o_cuota: numero('Tasa (0.16 = 16 %) o cuota por unidad; no se indica si es Exento').optional(),
});

export const retencion = z.object({
  impuesto,
  tipo_factor: z
    .enum(['Tasa', 'Cuota'])
    .default('Tasa')
    .describe('Tipo de factor (c_TipoFactor): Tasa o Cuota. Por omisión Tasa'),
  tasa_o_cuota: numero('Tasa retenida (0.10 = 10 %; IVA 2/3 partes: 0.106667)'),
});

export const UUID_RE = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const FECHA_HORA_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function calendarOk(s: string, requireTime: boolean): boolean {
  const m = FECHA_HORA_RE.exec(s);
  if (!m || (requireTime && m[4] === undefined)) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  const timeOk = m[4] === undefined || (+m[4] < 24 && +m[5]! < 60 && +(m[6] ?? 0) < 60);
  return d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]! && timeOk;
}

export function fechaHora(description: string, requireTime = false) {
  return z
    .string()
    .trim()
    .refine(
      (s) => calendarOk(s, requireTime),
      issue(
        requireTime
          ? 'Write the date and time as YYYY-MM-DDThh:mm:ss, e.g. 2024-03-15T10:42:07'
          : 'Write the date as YYYY-MM-DD or YYYY-MM-DDThh:mm:ss, e.g. 2024-03-15T10:42:07',
        'date_format',
      ),
    )
    .describe(description);
}

export const base64 = (description: string) =>
  z
    .string()
    .trim()
    .max(2000)
    .refine(
      (s) => /^[A-Za-z0-9+/]{8,}={0,2}$/.test(s),
      issue('A sello is base64 text (A–Z, a–z, 0–9, +, / and = at the end)', 'base64_format'),
    )
    .describe(description);

export const noCertificado = (description: string) =>
  z
    .string()
    .trim()
    .refine(
      (s) => /^\d{20}$/.test(s),
      issue('A certificate number has 20 digits', 'certificate_number_format'),
    )
    .describe(description);

export const monedaCfdi = mayusculas()
  .superRefine((s, ctx) => {
    if (s === 'XXX')
      ctx.addIssue({
        code: 'custom',
        message: 'XXX (no currency) is only for CFDI de traslado or de pago; an invoice has a currency',
        params: { type: 'catalog_key' },
      });
    else if (!isCurrency(s))
      ctx.addIssue({
        code: 'custom',
        message: 'Unknown currency code: use an ISO 4217 code (c_Moneda) such as MXN, USD or EUR',
        params: { type: 'catalog_key' },
      });
  })
  .default('MXN')
  .describe('Moneda, código ISO 4217 (c_Moneda: MXN, USD, EUR…). Por omisión MXN');
