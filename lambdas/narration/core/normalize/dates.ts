// Dates, day first in both locales, read in full: "03/04/2024" → "tres de abril de dos mil veinticuatro".
// Accepted: 03/04/2024, 3-4-2024, 3.4.2024, 03/04/24 ("del veinticuatro"), ISO 2024-04-03 (and 2024/04/03,
// with an optional THH:MM time), "3 abr 2024", "3-abr-2024", "3 de abril de 2024", "el 15/09" (day/month after
// el/del/al). The 1st is "primero" in Mexico and "uno" in Spain. Impossible dates are left alone, except a
// month-first date that only makes sense swapped (04/13/2024), which is read as the writer meant it.
import { MESES } from '../../../shared/text/fechas';
import { LOCALES, type Lang } from './locale';
import { cardinal } from './number-words';
import type { Rule } from './rule';
import { clockWords } from './times';

/** The month names (shared with the documents service). */
export const MONTHS: readonly string[] = MESES;

/** Abbreviations as written in Mexico and Spain (with or without a period); "set" is Spain's September. */
const MONTH_ABBR: Record<string, number> = {
  ene: 1,
  feb: 2,
  mar: 3,
  abr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  ago: 8,
  sep: 9,
  sept: 9,
  set: 9,
  oct: 10,
  nov: 11,
  dic: 12,
};

const NUMERIC = /(?<![\p{L}\p{N}/.,:-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\p{L}\p{N}/]|[.,:-]\d)/gu;
const ISO =
  /(?<![\p{L}\p{N}/.,:-])(\d{4})([-/])(\d{2})\2(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\p{L}\p{N}/]|[.,:-]\d)/gu;
const NAMED = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,-])(?:(\d{1,2})[^\S\n]?[-–][^\S\n]?)?(\d{1,2})(?:[^\S\n]+de)?[^\S\n]+(${MONTHS.join('|')})(?:(?:[^\S\n]+de(l)?|,)?[^\S\n]+(\d{4}))?(?![\p{L}\p{N}]|[.,]\d)`,
  'giu',
);
const ABBREVIATED = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])(\d{1,2})(?:[^\S\n]+|-|/)(${Object.keys(MONTH_ABBR).join('|')})\.?(?:[^\S\n]+|-|/)(\d{4}|\d{2})(?![\p{L}\p{N}]|[.,]\d)`,
  'giu',
);
const DAY_MONTH = /(?<=\b(?:el|del|al|El|Del|Al)[^\S\n])(\d{1,2})\/(\d{1,2})(?![\p{L}\p{N}/]|[.,:-]\d)/gu;

function daysIn(month: number, year: number | undefined): number {
  if (month === 2)
    return year === undefined || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function valid(d: number, m: number, y?: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(m, y);
}

function dayWords(d: number, lang: Lang): string {
  return d === 1 ? LOCALES[lang].firstOfMonth : cardinal(d);
}

/** "de dos mil veinticuatro"; two-digit years as spoken: "del noventa y nueve", "del veinticuatro", "del dos mil cinco". */
function yearWords(y: string): string {
  if (y.length === 4) return `de ${cardinal(y)}`;
  return y.startsWith('0') ? `del ${cardinal('20' + y)}` : `del ${cardinal(y)}`;
}

export function dateWords(d: number, m: number, y: string | undefined, lang: Lang): string {
  const base = `${dayWords(d, lang)} de ${MONTHS[m - 1]!}`;
  return y === undefined ? base : `${base} ${yearWords(y)}`;
}

export const datesRule: Rule = {
  name: 'dates',
  apply(text, lang) {
    if (!/\d/.test(text)) return text;
    return text
      .replace(ISO, (m, y: string, _sep, mm: string, dd: string, th?: string, tm?: string, ts?: string) => {
        const [d, mo] = [Number(dd), Number(mm)];
        if (!valid(d, mo, Number(y))) return m;
        const date = dateWords(d, mo, y, lang);
        if (th === undefined || tm === undefined) return date;
        const h = Number(th);
        const min = Number(tm);
        if (h > 23 || min > 59) return date;
        return `${date}, a ${h === 1 ? 'la' : 'las'} ${clockWords(h, min, ts ? Number(ts) : undefined, false)}`;
      })
      .replace(NUMERIC, (m, a: string, sep: string, b: string, y: string) => {
        // "1.2.24" is more likely a version number than a date: dotted dates need a four-digit year.
        if (sep === '.' && y.length !== 4) return m;
        let [d, mo] = [Number(a), Number(b)];
        const year = y.length === 4 ? Number(y) : undefined;
        if (!valid(d, mo, year)) {
          if (!valid(mo, d, year)) return m;
          [d, mo] = [mo, d]; // 04/13/2024: only month-first makes sense
        }
        return dateWords(d, mo, y, lang);
      })
      .replace(ABBREVIATED, (m, dd: string, mon: string, y: string) => {
        const mo = MONTH_ABBR[mon.toLowerCase()]!;
        const d = Number(dd);
        return valid(d, mo, y.length === 4 ? Number(y) : undefined) ? dateWords(d, mo, y, lang) : m;
      })
      .replace(
        NAMED,
        (
          m,
          from: string | undefined,
          dd: string,
          mon: string,
          del: string | undefined,
          y: string | undefined,
          offset: number,
          s: string,
        ) => {
          const d = Number(dd);
          const mo = MONTHS.indexOf(mon.toLowerCase()) + 1;
          const year = y ? Number(y) : undefined;
          if (
            !valid(d, mo, year) ||
            (from !== undefined && !(valid(Number(from), mo, year) && Number(from) < d))
          )
            return m;
          let words = dateWords(d, mo, undefined, lang);
          if (from !== undefined) {
            // "5-10 de junio" → "del cinco al diez de junio" ("del" not repeated after "del").
            const del = /\bdel\s+$/i.test(s.slice(Math.max(0, offset - 6), offset)) ? '' : 'del ';
            words = `${del}${dayWords(Number(from), lang)} al ${words}`;
          }
          return y ? `${words} ${del ? 'del' : 'de'} ${cardinal(y)}` : words;
        },
      )
      .replace(DAY_MONTH, (m, dd: string, mm: string) => {
        const [d, mo] = [Number(dd), Number(mm)];
        return valid(d, mo) ? dateWords(d, mo, undefined, lang) : m;
      });
  },
};
