// Identifiers spelled out character by character, in blocks separated by a short pause (a comma):
//   RFC  GODE561231GR8       → "ge o de e, cinco seis uno dos tres uno, ge erre ocho"
//   CURP GODE561231HDFRRN09  → "ge o de e, cinco seis uno dos tres uno, hache, de efe, erre erre ene, cero nueve"
//   DNI/NIE 12345678Z, X1234567L (check letter verified) and "C.P. 06600" (código postal cero seis seis cero cero).
// RFC and CURP embed a birth/incorporation date (YYMMDD): it must be a plausible date, which keeps ordinary
// all-caps words with digits from being spelled.
import { type Lang, letterName } from './locale';
import { spellDigits } from './number-words';
import type { Rule } from './rule';

const CURP =
  /(?<![\p{L}\p{N}])([A-Z][AEIOUX][A-Z]{2})(\d{6})([HMX])([A-Z]{2})([B-DF-HJ-NP-TV-Z]{3})([A-Z\d])(\d)(?![\p{L}\p{N}])/gu;
const RFC = /(?<![\p{L}\p{N}&])([A-ZÑ&]{3,4})-?(\d{6})-?([A-Z\d]{3})(?![\p{L}\p{N}])/gu;
const DNI = /(?<![\p{L}\p{N}])([XYZ]?)(\d{7,8})[- ]?([A-Z])(?![\p{L}\p{N}])/gu;
const POSTAL = /(?<![\p{L}\p{N}])C\.[^\S\n]?P\.[^\S\n]?(\d{5})(?![\p{N}])/gu;

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

function plausibleYyMmDd(d: string): boolean {
  const mm = Number(d.slice(2, 4));
  const dd = Number(d.slice(4, 6));
  return mm >= 1 && mm <= 12 && dd >= 1 && dd <= 31;
}

/** Characters one by one: letters by their Spanish names, digits as digits. */
export function spellOut(s: string, lang: Lang): string {
  return Array.from(s, (c) => (/\d/.test(c) ? spellDigits(c) : letterName(c, lang))).join(' ');
}

export const idsRule: Rule = {
  name: 'ids',
  apply(text, lang) {
    if (!/\d/.test(text)) return text;
    const blocks = (...parts: string[]) => parts.map((p) => spellOut(p, lang)).join(', ');
    return text
      .replace(POSTAL, (_m, cp: string) => `código postal ${spellDigits(cp)}`)
      .replace(
        CURP,
        (m, a: string, date: string, sex: string, state: string, cons: string, h: string, v: string) =>
          plausibleYyMmDd(date) ? blocks(a, date, sex, state, cons, h + v) : m,
      )
      .replace(RFC, (m, a: string, date: string, homoclave: string) =>
        plausibleYyMmDd(date) ? blocks(a, date, homoclave) : m,
      )
      .replace(DNI, (m, nie: string, digits: string, letter: string) => {
        if (nie && digits.length !== 7) return m;
        if (!nie && digits.length !== 8) return m;
        const n = Number((nie ? String('XYZ'.indexOf(nie)) : '') + digits);
        if (DNI_LETTERS[n % 23] !== letter) return m;
        return nie
          ? `${letterName(nie, lang)}, ${spellDigits(digits)}, ${letterName(letter, lang)}`
          : `${spellDigits(digits)}, ${letterName(letter, lang)}`;
      });
  },
};
