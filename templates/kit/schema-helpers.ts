// Field builders shared by the built-in templates' zod schemas (templates/<slug>/schema.ts): currency codes,
// calendar dates, amounts and RFCs, each with a Spanish description for GET /templates and an English message
// (the API's error language) that names the fix.
import { z } from 'zod';
import { checkRfc } from './cfdi/rfc';
import { isCurrency } from './money';

/** A code written in capitals (RFC, CURP, UUID, currency, SAT keys): trimmed and upper-cased before it is checked. */
export const mayusculas = () =>
  z
    .string()
    .trim()
    .transform((s) => s.toUpperCase());

export function moneda(description = 'Moneda, código ISO 4217 (MXN, USD, EUR…). Por omisión MXN.') {
  return mayusculas()
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
  return mayusculas()
    .pipe(
      z.string().regex(/^([A-ZÑ&]{3,4})\d{6}[A-Z\d]{3}$/, {
        message: 'Not an RFC: 3–4 letters, 6 digits (YYMMDD) and 3 characters, e.g. EKU9003173C9',
      }),
    )
    .describe(description);
}

/**
 * A problem found by a refinement (usually across fields), reported on `path` with its message and a stable `type`
 * for programs (the 400 item's `type`).
 */
export function customIssue<T>(
  ctx: z.RefinementCtx<T>,
  path: (string | number)[],
  message: string,
  type: string,
): void {
  ctx.addIssue({ code: 'custom', path, message, params: { type } });
}

/** A line item's concept: amounts in a table. */
export const concepto = z.object({
  concepto: texto('Concepto o descripción', 300),
  importe: z.number().finite().describe('Importe'),
});

// ---- people's identifiers (nomina): a message per field that names the fix ----------------------------------
// These use refinements (not .regex) so the caller sees the message below rather than a bare pattern, with a
// stable `type` for programs.

/** A date written YYMMDD inside an RFC or CURP is a real calendar day (any century). */
function fechaAAMMDD(s: string): boolean {
  const y = +s.slice(0, 2);
  const m = +s.slice(2, 4);
  const d = +s.slice(4, 6);
  // The century is not written: checked in 2000–2099, so 29 Feb of year 00 passes (2000 was a leap year).
  const date = new Date(Date.UTC(2000 + y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const RFC_FISICA = /^[A-ZÑ&]{4}(\d{6})[A-Z\d]{2}[A\d]$/;

/** RFC of a natural person (persona física): 13 characters, 4 letters, YYMMDD, homoclave (2) and check digit. */
export function rfcPersonaFisica(description: string) {
  return mayusculas()
    .superRefine((s, ctx) => {
      const m = RFC_FISICA.exec(s);
      if (!m) {
        ctx.addIssue({
          code: 'custom',
          message:
            s.length !== 13
              ? `The RFC of a persona física has 13 characters (4 letters, the birth date YYMMDD and the homoclave), e.g. HEOA850612QW4; this one has ${s.length}`
              : 'Not an RFC of a persona física: 4 letters, the birth date YYMMDD (6 digits) and a 3-character homoclave, e.g. HEOA850612QW4',
          params: { type: 'rfc_format' },
        });
      } else if (!fechaAAMMDD(m[1]!)) {
        ctx.addIssue({
          code: 'custom',
          message: `The RFC's date ${m[1]} (YYMMDD) is not a calendar day`,
          params: { type: 'rfc_format' },
        });
      }
    })
    .describe(description);
}

const CURP_RE =
  /^[A-Z][AEIOUX][A-Z]{2}(\d{6})[HMX](AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d$/;
const CURP_DIGITS = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

/** RENAPO's check digit (18th character) of a CURP's first 17 characters. */
export function curpCheckDigit(first17: string): number {
  let s = 0;
  for (let i = 0; i < 17; i++) s += CURP_DIGITS.indexOf(first17[i]!) * (18 - i);
  return (10 - (s % 10)) % 10;
}

/**
 * CURP: 18 characters — 4 letters, birth date AAMMDD, sex (H, M or X), state (two letters, NE abroad), 3
 * consonants, a differentiator and RENAPO's check digit, which is verified unless `digitoVerificador` is false (a
 * stamped CFDI: SAT's XSD checks the pattern only).
 */
export function curp(description: string, { digitoVerificador = true } = {}) {
  return mayusculas()
    .superRefine((s, ctx) => {
      const fail = (message: string) =>
        ctx.addIssue({ code: 'custom', message, params: { type: 'curp_format' } });
      const m = CURP_RE.exec(s);
      if (s.length !== 18)
        fail(`A CURP has 18 characters, e.g. HEOA850612HQTRRN09; this one has ${s.length}`);
      else if (!m)
        fail(
          'Not a CURP: 4 letters, the birth date YYMMDD, sex (H, M or X), state (2 letters), 3 consonants, a character and a digit',
        );
      else if (!fechaAAMMDD(m[1]!)) fail(`The CURP's date ${m[1]} (YYMMDD) is not a calendar day`);
      else if (digitoVerificador && curpCheckDigit(s) !== +s[17]!)
        fail(
          `The CURP's check digit does not match (it should be ${curpCheckDigit(s)}): check how it was typed`,
        );
    })
    .describe(description);
}

/**
 * Número de Seguridad Social: 1 to 15 digits, SAT's own rule (nomina12.xsd, NumSeguridadSocial `[0-9]{1,15}`). The
 * IMSS writes 11, but other institutes (ISSSTE, state ones) use other lengths and SAT stamps them: a printer must not
 * refuse what SAT accepts.
 */
export function nss(description: string) {
  return z
    .string()
    .trim()
    .refine((s) => /^\d{1,15}$/.test(s), {
      message: 'An NSS is 1 to 15 digits (the IMSS uses 11), without spaces or dashes, e.g. 12038512345',
      params: { type: 'nss_format' },
    })
    .describe(description);
}

/**
 * RFC as CFDI 4.0 takes it (templates/kit/cfdi/rfc.ts): persona moral (12) or física (13) with a
 * calendar date and homoclave, or a generic RFC (XAXX010101000, XEXX010101000). `tipo` restricts it to one kind.
 * Errors: type `rfc_format` (shape or date) or `rfc_tipo` (the other kind of taxpayer).
 */
export function rfcCfdi(description: string, tipo?: 'fisica' | 'moral') {
  return mayusculas()
    .superRefine((s, ctx) => {
      const r = checkRfc(s);
      if (!r.ok) ctx.addIssue({ code: 'custom', message: r.reason, params: { type: 'rfc_format' } });
      else if (tipo && r.tipo !== tipo)
        ctx.addIssue({
          code: 'custom',
          message:
            tipo === 'fisica'
              ? 'This must be the RFC of a persona física (13 characters)'
              : 'This must be the RFC of a persona moral (12 characters)',
          params: { type: 'rfc_tipo' },
        });
    })
    .describe(description);
}

/** Código postal mexicano: 5 digits (c_CodigoPostal checked by shape). */
export function codigoPostal(description: string) {
  return z
    .string()
    .trim()
    .refine((s) => /^\d{5}$/.test(s), {
      message: 'A código postal has 5 digits, e.g. 06600',
      params: { type: 'codigo_postal_format' },
    })
    .describe(description);
}
