// Clock times, one consistent "digital" reading (how Mexican and Spanish announcers read written times):
//   10:30 → "diez treinta", 18:05 → "dieciocho cero cinco", 10:00 → "diez en punto"
//   10:30 h / 10.30 h / 10:30 hrs → "diez treinta horas", 10:00 h → "diez horas", 21 h → "veintiuna horas"
//   10:30-11:00 → "de diez treinta a once en punto", a la 1 → "a la una"
//   9 a. m. → "nueve de la mañana", 9:15 p. m. → "nueve quince de la noche", 12 p. m. → "doce del mediodía"
// Hours are feminine ("la una", "veintiuna horas"). Colloquial "y media"/"y cuarto" is not used: it would read
// 10:30 and 22:30 differently from what is written.
import { sentenceEndsAt } from './grammar';
import { cardinal } from './number-words';
import type { Rule } from './rule';

const H24 = String.raw`(?:[01]?\d|2[0-3])`;
/** 12-hour clock: "9 a. m.", "9:15 p.m.", "9am", "11 PM". */
const TWELVE =
  /(?<![\p{L}\p{N}:.,])(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?[^\S\n]?([ap])\.?[^\S\n]?m(\.?)(?![\p{L}\p{N}])/giu;
/** 24-hour clock with an hours word: "10:30 h", "10.30 h", "18:05 hrs.", "10:30:15 h". */
const WITH_H = new RegExp(
  String.raw`(?<![\p{L}\p{N}:.,])(${H24})[:.]([0-5]\d)(?::([0-5]\d))?[^\S\n]?(?:h|hs|hrs?)(\.?)(?![\p{L}\p{N}])`,
  'gu',
);
/** 24-hour clock, colon only: "10:30", "18:05", "7:45:10". */
const PLAIN = new RegExp(
  String.raw`(?<![\p{L}\p{N}:.,])(${H24}):([0-5]\d)(?::([0-5]\d))?(?![\p{N}]|[:.,]\d)`,
  'gu',
);
/** Whole hours or durations: "a las 10 h", "21 hrs", "48 h". */
const HOURS_ONLY = /(?<![\p{L}\p{N}:.,/])(\d{1,3})[^\S\n]?(?:h|hs|hrs?)(\.?)(?![\p{L}\p{N}])/gu;
/** "a la 1", "desde las 21": a bare hour after a preposition and article is feminine ("a la una"). */
const BARE_HOUR =
  /(?<=\b(?:a|de|desde|hasta|para|por|sobre)[^\S\n]las?[^\S\n])(1|21)(?![\p{L}\p{N}]|[:.,]\d)/giu;
/** Two clock times joined by a dash: "10:30-11:00", "9:00 – 14:00 h". */
const CLOCK = String.raw`(?:[01]?\d|2[0-3]):[0-5]\d`;
const TIME_RANGE = new RegExp(
  String.raw`(?<![\p{L}\p{N}:.,])(${CLOCK})[^\S\n]?[-–][^\S\n]?(${CLOCK})(?![\p{N}]|[:.,]\d)`,
  'gu',
);

export function hourWords(h: number): string {
  return cardinal(h, { gender: 'f' });
}

export function minuteWords(m: number): string {
  return m < 10 ? `cero ${cardinal(m)}` : cardinal(m);
}

/** "diez treinta", "diez en punto" ("horas" instead of "en punto" with `hoursWord`), seconds as a tail. */
export function clockWords(h: number, m: number, s: number | undefined, hoursWord: boolean): string {
  if (s !== undefined && s > 0) {
    return `${hourWords(h)} ${h === 1 ? 'hora' : 'horas'}, ${cardinal(m)} ${m === 1 ? 'minuto' : 'minutos'} y ${cardinal(s)} ${s === 1 ? 'segundo' : 'segundos'}`;
  }
  if (m === 0) return `${hourWords(h)} ${hoursWord || h === 0 ? (h === 1 ? 'hora' : 'horas') : 'en punto'}`;
  return `${hourWords(h)} ${minuteWords(m)}${hoursWord ? ' horas' : ''}`;
}

function dayPart(h: number, pm: boolean): string {
  if (!pm) return h === 12 ? 'de la noche' : h <= 5 ? 'de la madrugada' : 'de la mañana';
  if (h === 12) return 'del mediodía';
  return h <= 7 ? 'de la tarde' : 'de la noche';
}

/** Keeps the sentence's period when the rule swallowed an abbreviation's final dot ("hrs.", "p. m."). */
function period(text: string, dot: string, end: number): string {
  return dot && sentenceEndsAt(text, end) ? '.' : '';
}

export const timesRule: Rule = {
  name: 'times',
  apply(text) {
    if (!/\d/.test(text)) return text;
    return text
      .replace(TIME_RANGE, (_m, a: string, b: string, offset: number, s: string) => {
        // "de 10:30 a 11:00" ("de" not repeated after de/desde; "entre 10:30 y 11:00"); the times themselves
        // are read by the rules below.
        const before = /\b(de|desde|entre)[^\S\n]+$/i.exec(s.slice(Math.max(0, offset - 8), offset));
        if (!before) return `de ${a} a ${b}`;
        return before[1]!.toLowerCase() === 'entre' ? `${a} y ${b}` : `${a} a ${b}`;
      })
      .replace(
        TWELVE,
        (_m, hh: string, mm: string | undefined, ap: string, dot: string, offset: number, s: string) => {
          const h = Number(hh);
          const m = mm ? Number(mm) : 0;
          const clock = m ? `${hourWords(h)} ${minuteWords(m)}` : hourWords(h);
          return `${clock} ${dayPart(h, ap.toLowerCase() === 'p')}${period(s, dot, offset + _m.length)}`;
        },
      )
      .replace(
        WITH_H,
        (m, hh: string, mm: string, ss: string | undefined, dot: string, offset: number, s: string) =>
          clockWords(Number(hh), Number(mm), ss ? Number(ss) : undefined, true) +
          period(s, dot, offset + m.length),
      )
      .replace(PLAIN, (_m, hh: string, mm: string, ss: string | undefined) =>
        clockWords(Number(hh), Number(mm), ss ? Number(ss) : undefined, false),
      )
      .replace(HOURS_ONLY, (m, hh: string, dot: string, offset: number, s: string) => {
        const h = Number(hh);
        return `${hourWords(h)} ${h === 1 ? 'hora' : 'horas'}${period(s, dot, offset + m.length)}`;
      })
      .replace(BARE_HOUR, (h: string) => hourWords(Number(h)));
  },
};
