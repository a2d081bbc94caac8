// Field builders shared by the built-in templates' zod schemas (templates/<slug>/schema.ts): currency codes,
// calendar dates, amounts and RFCs, each with a Spanish description for GET /templates and an English message
// (the API's error language) that names the fix.
import { z } from 'zod';
import { isCurrency } from './money';

export function moneda(description = 'Moneda, código ISO 4217 (MXN, USD, EUR…). Por omisión MXN.') {
  return z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .refine(isCurrency, { message: 'Unknown currency code: use an ISO 4217 code such as MXN, USD or EUR' })
    .default('MXN')
    .describe(description);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function fecha(description: string) {
  return z
    .string()
    .regex(ISO_DATE, { message: 'Date must be written YYYY-MM-DD, e.g. 2024-03-15' })
    .refine(
      (s) => {
        const m = ISO_DATE.exec(s);
        if (!m) return true; // the regex reports it
        const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
        return d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
      },
      { message: 'Not a calendar date: check the month and day' },
    )
    .describe(description);
}

export function importe(description: string) {
  return z.number().finite().nonnegative().describe(description);
}

export function texto(description: string, max = 500) {
  return z.string().trim().min(1).max(max).describe(description);
}

export function textoOpcional(description: string, max = 500) {
  return z.string().trim().max(max).optional().describe(description);
}

/** RFC (Registro Federal de Contribuyentes): 12 characters for companies, 13 for people. */
export function rfc(description: string) {
  return z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(
      z.string().regex(/^([A-ZÑ&]{3,4})\d{6}[A-Z\d]{3}$/, {
        message: 'Not an RFC: 3–4 letters, 6 digits (YYMMDD) and 3 characters, e.g. EKU9003173C9',
      }),
    )
    .describe(description);
}

/** A line item's concept: amounts in a table. */
export const concepto = z.object({
  concepto: texto('Concepto o descripción', 300),
  importe: z.number().finite().describe('Importe'),
});
