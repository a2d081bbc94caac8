// Telephone numbers read in the groups people say, never as one huge quantity:
//   "55 1234 5678"      → "cincuenta y cinco, doce treinta y cuatro, cincuenta y seis setenta y ocho"
//   "+52 55 1234 5678"  → "más cincuenta y dos, cincuenta y cinco, ..."
//   "912 345 678"       → "novecientos doce, trescientos cuarenta y cinco, seiscientos setenta y ocho"
// Written groups are kept; 2 digits are a pair ("05" → "cero cinco"), 3 a hundreds number, 4 two pairs. A run of
// digits is a phone only when written like one: a "+" country code, an "(area)" code, three or more groups, a
// "1234-5678" pair, or right after a phone word (tel., teléfono, celular, móvil, WhatsApp, fax, llame al ...).
import { cardinal, spellDigits } from './number-words';
import type { Rule } from './rule';

const FORMATTED =
  /(?<![\p{L}\p{N}+.,])(\+\d{1,3}[ \u00A0.-]?)?(\(\d{2,3}\)[ \u00A0-]?)?(\d{2,4}(?:[ \u00A0-]\d{2,4}){1,4})(?![\p{N}]|[.,]\d)/gu;
/** Words that announce a phone number. Bounded (no `\w*`): these patterns run at every position. */
const PHONE_WORDS = String.raw`tel[eé]fonos?|tels?|cel(?:ular)?|m[oó]vil|whats ?app|fax|ll[aá]m[aeo]\p{L}{0,6}(?: al)?|marc[aeo]\p{L}{0,4}(?: al)?|contacto|n[uú]mero`;
const PHONE_WORD_BEFORE = new RegExp(String.raw`(?<![\p{L}])(?:${PHONE_WORDS})[:.]?[^\S\n]{0,3}$`, 'iu');
/** A bare run of digits right after a phone word: "Tel. 5512345678", "llama al +34912345678". */
const BARE = new RegExp(
  String.raw`(?<![\p{L}])((?:${PHONE_WORDS})[:.]?[^\S\n]{0,3})(\+\d{1,3}[ \u00A0]?)?(\d{7,12})(?![\p{N}]|[.,]\d)`,
  'giu',
);

function pair(g: string): string {
  return g.startsWith('0') ? spellDigits(g) : cardinal(g);
}

/** One written group of a phone number, as it is said. */
function groupWords(g: string): string {
  switch (g.length) {
    case 1:
      return spellDigits(g);
    case 2:
      return pair(g);
    case 3:
      return g.startsWith('0') ? `cero ${pair(g.slice(1))}` : cardinal(g);
    case 4:
      return `${pair(g.slice(0, 2))} ${pair(g.slice(2))}`;
    default: {
      // Unformatted runs: Mexico 10 digits as 2-4-4, Spain 9 as 3-3-3, 8 as 4-4, else pairs.
      const shape =
        g.length === 10
          ? [2, 4, 4]
          : g.length === 9
            ? [3, 3, 3]
            : g.length === 8
              ? [4, 4]
              : g.length === 7
                ? [3, 4]
                : [];
      if (shape.length === 0) {
        const parts: string[] = [];
        let i = g.length % 2;
        if (i) parts.push(spellDigits(g[0]!));
        for (; i < g.length; i += 2) parts.push(pair(g.slice(i, i + 2)));
        return parts.join(', ');
      }
      const parts: string[] = [];
      let at = 0;
      for (const len of shape) {
        parts.push(groupWords(g.slice(at, at + len)));
        at += len;
      }
      return parts.join(', ');
    }
  }
}

function countryWords(cc: string | undefined): string[] {
  return cc ? [`más ${cardinal(cc.replace(/\D/g, ''))}`] : [];
}

const isYearish = (g: string) => /^\d{4}$/.test(g) && Number(g) >= 1000 && Number(g) <= 2199;

export const phonesRule: Rule = {
  name: 'phones',
  apply(text) {
    if (!/\d/.test(text)) return text;
    return text
      .replace(
        FORMATTED,
        (m, cc: string | undefined, area: string | undefined, body: string, offset: number) => {
          const groups = body.split(/[ \u00A0-]/);
          const digits = groups.join('').length + (area ? area.replace(/\D/g, '').length : 0);
          if (digits < 7 || digits > 12) return m;
          const hyphenPair =
            groups.length === 2 &&
            body.includes('-') &&
            groups.every((g) => g.length === 4) &&
            !(isYearish(groups[0]!) && isYearish(groups[1]!));
          const wordBefore = PHONE_WORD_BEFORE.test(text.slice(Math.max(0, offset - 24), offset));
          if (!(cc || area || groups.length >= 3 || hyphenPair || wordBefore)) return m;
          const parts = [...countryWords(cc)];
          if (area) parts.push(groupWords(area.replace(/\D/g, '')));
          for (const g of groups) parts.push(groupWords(g));
          return parts.join(', ');
        },
      )
      .replace(
        BARE,
        (_m, word: string, cc: string | undefined, run: string) =>
          word + [...countryWords(cc), groupWords(run)].join(', '),
      );
  },
};
