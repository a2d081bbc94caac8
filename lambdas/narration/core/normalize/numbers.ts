// Plain numbers, last: whatever digits the specific rules left. Per locale format (numerals.ts), with the
// counted noun's gender ("1 página" → "una página", "200 personas" → "doscientas personas", "1 año" → "un año",
// "2,000,000 habitantes" → "dos millones de habitantes"), negatives ("-5" → "menos cinco"), and ranges in
// safe shapes: "10-20" → "de diez a veinte" (the "de" is not repeated after "de"/"del"/"desde"; after "entre"
// it becomes "diez y veinte"); a first number not smaller than the second is a score: "3-1" → "tres a uno".
// Digits glued to letters ("MP3", "4K", "c5") are left as written: the engines spell those well.
import { countingFor } from './grammar';
import { NUM, parseNumeral, writtenNumberWords } from './numerals';
import { type CardinalOptions, needsDe } from './number-words';
import type { Rule } from './rule';

const NUMBER = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.,])([-−][^\S\n]?)?(${NUM})(?:[^\S\n]?[-–][^\S\n]?(${NUM}))?(?![\p{L}\p{N}_]|[.,]\d)`,
  'gu',
);
const BEFORE_RANGE = /(?:^|\s)(de|del|desde|entre)\s+$/i;

export const numbersRule: Rule = {
  name: 'numbers',
  apply(text, lang, style) {
    if (!/\d/.test(text)) return text;
    return text.replace(
      NUMBER,
      (m, sign: string | undefined, a: string, b: string | undefined, offset: number) => {
        const end = offset + m.length;
        const counting = countingFor(text, end);
        const opts: CardinalOptions = counting.noun
          ? { gender: counting.gender, apocope: counting.apocope }
          : {};
        const de = (n: string) => (counting.noun && needsDe(n) ? ' de' : '');
        const neg = sign && (offset === 0 || /[\s(\[{¿¡"«“]/u.test(text[offset - 1]!)) ? 'menos ' : '';
        if (b !== undefined) {
          const pa = parseNumeral(a, style);
          const pb = parseNumeral(b, style);
          if (!neg && pa && pb && pa.frac === undefined && pb.frac === undefined) {
            const [x, y] = [BigInt(pa.int), BigInt(pb.int)];
            const before = BEFORE_RANGE.exec(text.slice(Math.max(0, offset - 12), offset));
            const first = writtenNumberWords(a, lang, opts, style);
            const second = writtenNumberWords(b, lang, opts, style) + de(pb.int);
            if (x < y) {
              if (!before) return `de ${first} a ${second}`;
              return before[1]!.toLowerCase() === 'entre' ? `${first} y ${second}` : `${first} a ${second}`;
            }
            if (pa.int.length <= 2 && pb.int.length <= 2) return `${first} a ${second}`; // a score: "3-1"
          }
          // Anything else: each number on its own, the dash kept as a pause.
          const pieces = m.slice(sign ? sign.length : 0);
          const dash = pieces.slice(a.length, pieces.length - b.length).trim();
          return `${neg || (sign ?? '')}${writtenNumberWords(a, lang, {}, style)} ${dash} ${writtenNumberWords(b, lang, opts, style)}`;
        }
        const p = parseNumeral(a, style);
        const words = writtenNumberWords(a, lang, opts, style) + (p && p.frac === undefined ? de(p.int) : '');
        return `${neg || (sign ?? '')}${words}`;
      },
    );
  },
};
