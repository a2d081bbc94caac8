// RFC (Registro Federal de Contribuyentes) as CFDI 4.0 takes it (tdCFDI:t_RFC): persona moral 12 characters
// (3 letters, YYMMDD, 3-character homoclave), persona física 13 (4 letters, YYMMDD, homoclave); the letters may
// include Ñ and &; the homoclave's last character (check digit) is a digit or A. The date must be a calendar day.
// Generic RFCs: XAXX010101000 (público en general), XEXX010101000 (extranjero).
//
// The check digit is not enforced: SAT has assigned RFCs whose digit does not follow the published algorithm, so
// a strict check would refuse real taxpayers. The format and the date catch the common typos.
import { RFC_EXTRANJERO, RFC_PUBLICO_GENERAL } from './catalogos';

export type TipoRfc = 'moral' | 'fisica' | 'generico' | 'extranjero';

const RFC_RE = /^([A-ZÑ&]{3,4})(\d{2})(\d{2})(\d{2})([A-Z\d]{2}[A\d])$/;

export type RfcCheck = { ok: true; rfc: string; tipo: TipoRfc } | { ok: false; reason: string };

/** Checks an RFC (trimmed, upper-cased) and tells which kind of taxpayer it names. */
export function checkRfc(input: string): RfcCheck {
  const rfc = input.trim().toUpperCase();
  if (rfc === RFC_PUBLICO_GENERAL) return { ok: true, rfc, tipo: 'generico' };
  if (rfc === RFC_EXTRANJERO) return { ok: true, rfc, tipo: 'extranjero' };
  if (rfc.length !== 12 && rfc.length !== 13)
    return {
      ok: false,
      reason: `An RFC has 12 characters (persona moral) or 13 (persona física); this one has ${rfc.length}`,
    };
  const m = RFC_RE.exec(rfc);
  if (!m)
    return {
      ok: false,
      reason:
        rfc.length === 12
          ? 'Not an RFC of a persona moral: 3 letters, the date YYMMDD and a 3-character homoclave, e.g. EKU9003173C9'
          : 'Not an RFC of a persona física: 4 letters, the date YYMMDD and a 3-character homoclave, e.g. XIQB891116QE4',
    };
  const [, , yy, mm, dd] = m;
  // The century is not written: 29 February is a day in any year divisible by 4 (1900 aside, 2000 is leap).
  const day = new Date(Date.UTC(Number(yy) % 4 === 0 ? 2000 : 2001, Number(mm) - 1, Number(dd)));
  if (day.getUTCMonth() !== Number(mm) - 1 || day.getUTCDate() !== Number(dd))
    return { ok: false, reason: `The RFC's date ${yy}${mm}${dd} (YYMMDD) is not a calendar day` };
  return { ok: true, rfc, tipo: rfc.length === 12 ? 'moral' : 'fisica' };
}
