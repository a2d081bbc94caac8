// Ordinal abbreviations: 1.º 1º 1.er 1er 2.ª 2ª 3.os 2.as, and the Mexican 1ro 2do 3ra 4to 5ta 7mo 8vo 9no:
//   "1.º" → "primero", "1.er piso" → "primer piso", "2.ª" → "segunda", "3.os" → "terceros",
//   "1.º piso" → "primer piso" (apocope before a masculine noun, as people say it).
// The degree sign is often typed for º: "1° de mayo", "2° piso" are ordinals (small number, a word follows),
// "25°" and "25 °C" are degrees ("veinticinco grados", "veinticinco grados Celsius").
import { countingFor } from './grammar';
import { MAX_ORDINAL, ordinal } from './number-words';
import { writtenNumberWords } from './numerals';
import type { Rule } from './rule';

const ORDINAL =
  /(?<![\p{L}\p{N}.,])(\d{1,4})(?:\.?(º|ª|o|a)(s?)|\.?(er)|(r[oa]|d[oa]|t[oa]|m[oa]|v[oa]|n[oa])(s?))(?![\p{L}\p{N}])/gu;
const DEGREES =
  /(?<![\p{L}\p{N}.,])([-−][^\S\n]?)?(\d{1,3}(?:[.,]\d+)?)[^\S\n]?°(?:[^\S\n]?([CF])(?![\p{L}]))?/gu;

export const ordinalsRule: Rule = {
  name: 'ordinals',
  apply(text, lang, style) {
    if (!/\d/.test(text)) return text;
    return text
      .replace(
        ORDINAL,
        (
          m,
          n: string,
          mark?: string,
          pl1?: string,
          er?: string,
          mx?: string,
          pl2?: string,
          offset?: number,
        ) => {
          const value = Number(n);
          if (value < 1 || value > MAX_ORDINAL) return m;
          // "1o"/"1a" without a period or superscript are too ambiguous ("5a" is an apartment): only ".o"/".a".
          if ((mark === 'o' || mark === 'a') && !m.includes('.')) return m;
          const fem = mark === 'ª' || mark === 'a' || (mx !== undefined && mx.endsWith('a'));
          const plural = Boolean(pl1 || pl2);
          const next = countingFor(text, offset! + m.length);
          const apocope = er !== undefined || (!fem && !plural && next.noun && next.gender === 'm');
          return ordinal(value, { gender: fem ? 'f' : 'm', plural, apocope });
        },
      )
      .replace(
        DEGREES,
        (m, sign: string | undefined, n: string, scale: string | undefined, offset: number, s: string) => {
          const end = offset + m.length;
          const whole = /^\d+$/.test(n);
          const value = Number(n);
          // "1° de mayo", "2° lugar": an ordinal typed with a degree sign (small number, a lowercase word follows).
          if (
            !sign &&
            !scale &&
            whole &&
            value >= 1 &&
            value <= 20 &&
            /^ (?!grados?\b)\p{Ll}/u.test(s.slice(end, end + 12))
          ) {
            const next = countingFor(s, end);
            return ordinal(value, { apocope: next.noun && next.gender === 'm' });
          }
          const num = writtenNumberWords(n, lang, {}, style);
          const unit = value === 1 && whole ? 'grado' : 'grados';
          const name = scale === 'C' ? ' Celsius' : scale === 'F' ? ' Fahrenheit' : '';
          return `${sign ? 'menos ' : ''}${num} ${unit}${name}`;
        },
      );
  },
};
