// Written numbers as a reader of each locale understands them. Mexico groups thousands with "," and uses "."
// for decimals (1,234.56); Spain the other way round (1.234,56). A number is read by its shape when the shape
// decides (both separators; two or more of one; a group that is not three digits) and by the voice's locale
// only when it cannot ("1.234", "1,234"): first the convention the text itself shows elsewhere (a Spanish
// article read by a Mexican voice still writes 48.250 for forty-eight thousand), then the voice's locale.
// Money never has three decimals, so there a lone separator before three digits always groups thousands.
import { LOCALES, type Lang, type NumberStyle } from './locale';
import { type CardinalOptions, fractionDigits, integerWords } from './number-words';

/** A written number: digits with ".", ",", or no-break-space separators (no catastrophic backtracking: every
 *  repetition starts with a mandatory separator). */
export const NUM = String.raw`\d+(?:[.,\u00A0\u202F]\d+)*`;

export interface Numeral {
  /** Integer digits (no separators). */
  int: string;
  /** Decimal digits, if any. */
  frac?: string;
}

const THIN = new Set(['\u00A0', '\u202F']);

/**
 * Parses `s` (matching NUM) as one number; undefined when it is not one number (a version "1.2.3", an IP
 * address, a list "1,2,3"), which callers then read group by group.
 */
export function parseNumeral(s: string, style: NumberStyle, money = false): Numeral | undefined {
  const parts = s.split(/([.,\u00A0\u202F])/);
  const groups = parts.filter((_, i) => i % 2 === 0);
  const seps = parts.filter((_, i) => i % 2 === 1);
  if (seps.length === 0) return { int: s };
  const first = groups[0]!;
  const groupedThousands = (gs: string[]) =>
    gs[0]!.length >= 1 && gs[0]!.length <= 3 && gs.slice(1).every((g) => g.length === 3);
  const sameSep = seps.every((c) => c === seps[0]);
  if (sameSep) {
    const c = seps[0]!;
    if (groupedThousands(groups)) {
      if (THIN.has(c) || seps.length >= 2) return { int: groups.join('') };
      // One separator before exactly three digits: the ambiguous case.
      const thousandsSep = money ? true : c === (style === 'MX' ? ',' : '.');
      return thousandsSep ? { int: groups.join('') } : { int: first, frac: groups[1]! };
    }
    if (seps.length === 1 && !THIN.has(c)) return { int: first, frac: groups[1]! };
    return undefined;
  }
  // Two kinds: all but the last separator group thousands, the last one is the decimal point.
  const dec = seps[seps.length - 1]!;
  const head = seps.slice(0, -1);
  if (THIN.has(dec) || !head.every((c) => c === head[0]) || head[0] === dec) return undefined;
  const intGroups = groups.slice(0, -1);
  if (!groupedThousands(intGroups)) return undefined;
  return { int: intGroups.join(''), frac: groups[groups.length - 1]! };
}

/** A parsed number in words, with the locale's decimal word: "3.5" → "tres punto cinco" / "tres coma cinco". */
export function numeralWords(n: Numeral, lang: Lang, opts: CardinalOptions = {}): string {
  if (n.frac === undefined) return integerWords(n.int, opts);
  const int = integerWords(n.int.length > 1 ? n.int.replace(/^0+(?=\d)/, '') : n.int);
  return `${int} ${LOCALES[lang].decimalWord} ${fractionDigits(n.frac)}`;
}

/** Any NUM match in words: one number when it is one, otherwise group by group ("1.2.3" → "uno punto dos punto tres"). */
export function writtenNumberWords(
  s: string,
  lang: Lang,
  opts: CardinalOptions = {},
  style: NumberStyle = LOCALES[lang].numberStyle,
): string {
  const n = parseNumeral(s, style);
  if (n) return numeralWords(n, lang, opts);
  return s
    .split(/([.,\u00A0\u202F])/)
    .map((p, i) => (i % 2 === 0 ? integerWords(p) : p === '.' ? ' punto ' : p === ',' ? ', ' : ' '))
    .join('');
}

// Numbers whose shape alone proves the convention: both separators (1,234.56 / 1.234,56) or the same one
// grouping thousands twice or more (1,234,567 / 1.234.567). Dates (03.04.2024) and IPs have other group sizes.
const EVIDENCE =
  /(?<![\p{N}.,])\d{1,3}(?:(?:,\d{3})+\.\d+|(?:\.\d{3})+,\d+|(?:,\d{3}){2,}|(?:\.\d{3}){2,})(?![\p{N}]|[.,]\d)/gu;

/**
 * The number convention `text` shows through its unambiguous numbers, if it shows one clearly (at least twice
 * as much evidence for one side); undefined when it shows none or a mix.
 */
export function detectNumberStyle(text: string): NumberStyle | undefined {
  let mx = 0;
  let es = 0;
  for (const [m] of text.matchAll(EVIDENCE)) {
    const last = m.match(/[.,]/g)!.pop();
    const seps = new Set(m.match(/[.,]/g));
    if (seps.size === 2) {
      if (last === '.') mx++;
      else es++;
    } else if (last === ',') mx++;
    else es++;
  }
  if (mx > 2 * es) return 'MX';
  if (es > 2 * mx) return 'ES';
  return undefined;
}
