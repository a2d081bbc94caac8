// Percentages and per-mille: "15 %", "15%", "3,5 %" / "3.5%", "-2 %", "+0,3 %" → "quince por ciento",
// "tres punto cinco por ciento" (es-MX) / "tres coma cinco por ciento" (es-ES); "10-20 %" → "de diez a veinte
// por ciento". The decimal word follows the voice's locale, whichever separator was written (a Mexican
// narrator says "punto", a Spanish one "coma").
import { NUM, writtenNumberWords } from './numerals';
import type { Rule } from './rule';

const PERCENT = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])(?:(${NUM})[^\S\n]?[-–][^\S\n]?)?([-−+][^\S\n]?)?(${NUM})[^\S\n]?(%|‰)`,
  'gu',
);

export const percentRule: Rule = {
  name: 'percent',
  apply(text, lang, style) {
    if (!/[%‰]/.test(text)) return text;
    return text.replace(
      PERCENT,
      (_m, from: string | undefined, sign: string | undefined, n: string, sym: string) => {
        const s = sign ? (sign.startsWith('+') ? 'más ' : 'menos ') : '';
        const unit = sym === '%' ? 'por ciento' : 'por mil';
        const words = `${s}${writtenNumberWords(n, lang, {}, style)} ${unit}`;
        // "10-20 %" → "de diez a veinte por ciento"
        return from ? `de ${writtenNumberWords(from, lang, {}, style)} a ${words}` : words;
      },
    );
  },
};
