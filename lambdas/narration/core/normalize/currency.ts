// Money: symbol or ISO code before or after the amount, amounts in either locale's format.
//   $1,234.56 MXN / $1,234.56 (es-MX) → "mil doscientos treinta y cuatro pesos con cincuenta y seis centavos"
//   $20 (es-ES), US$20, USD 20, 20 USD → "veinte dólares";   1.234,56 € / €1.234,56 / EUR 5 → "... euros con ... céntimos"
//   $1.5 millones → "uno punto cinco millones de pesos";     $2,000,000 → "dos millones de pesos"
// A bare "$" is pesos for es-MX voices and dollars for es-ES voices. In an amount a lone separator before three
// digits always groups thousands (money has at most two decimals), so "$1.234" and "$1,234" are both 1234.
import { LOCALES, type Lang } from './locale';
import { NUM, numeralWords, parseNumeral } from './numerals';
import { cardinal, type Gender, needsDe } from './number-words';
import type { Rule } from './rule';

interface Currency {
  one: string;
  many: string;
  gender: Gender;
  cent: string;
  cents: string;
}

const CURRENCIES: Record<string, Currency> = {
  MXN: { one: 'peso', many: 'pesos', gender: 'm', cent: 'centavo', cents: 'centavos' },
  USD: { one: 'dólar', many: 'dólares', gender: 'm', cent: 'centavo', cents: 'centavos' },
  EUR: { one: 'euro', many: 'euros', gender: 'm', cent: 'céntimo', cents: 'céntimos' },
  GBP: { one: 'libra', many: 'libras', gender: 'f', cent: 'penique', cents: 'peniques' },
};

/** Written markers → currency code; "$" depends on the voice's locale. */
const MARKERS: Record<string, string | ((lang: Lang) => string)> = {
  $: (lang) => LOCALES[lang].dollarSign,
  mx$: 'MXN',
  mxn: 'MXN',
  mn: 'MXN',
  'm.n.': 'MXN',
  pesos: 'MXN',
  peso: 'MXN',
  us$: 'USD',
  u$s: 'USD',
  usd: 'USD',
  dólares: 'USD',
  dólar: 'USD',
  dolares: 'USD',
  '€': 'EUR',
  eur: 'EUR',
  euros: 'EUR',
  euro: 'EUR',
  '£': 'GBP',
  gbp: 'GBP',
  libras: 'GBP',
};

const PREFIX = String.raw`US\$|U\$S|MX\$|USD|MXN|EUR|GBP|€|£|\$`;
const SUFFIX = String.raw`MXN|M\.[^\S\n]?N\.|MN|USD|EUR|GBP|€|£|d[óo]lares|d[óo]lar|pesos|peso|euros|euro|libras`;
const SCALE = String.raw`mil millones|millones|mill[óo]n|mil|billones|bill[óo]n`;

// Sign, prefix marker, amount, optional scale word, optional suffix marker ("$1,234.56 MXN").
const BEFORE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])([-−][^\S\n]?)?(${PREFIX})[^\S\n]?(${NUM})(?:[^\S\n](${SCALE}))?(?:[^\S\n]?(${SUFFIX})(?![\p{L}\p{N}]))?(?![\p{N}]|[.,]\d)`,
  'gu',
);
// Amount then marker: "1.234,56 €", "20 USD", "3,50 euros". Words as markers only with decimals or
// separators, so "20 dólares" is left to the plain-number rule (same reading).
const AFTER = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])([-−][^\S\n]?)?(${NUM})(?:[^\S\n](${SCALE}))?(?:[^\S\n](?:de[^\S\n])?)?(${SUFFIX})(?![\p{L}\p{N}])`,
  'giu',
);

function currencyOf(marker: string, lang: Lang): Currency {
  const key = marker.toLowerCase().replace(/\s/g, '');
  const m = MARKERS[key] ?? 'USD';
  return CURRENCIES[typeof m === 'function' ? m(lang) : m]!;
}

/** An amount in words: "mil pesos con cincuenta centavos", "un euro", "dos millones de pesos". */
export function moneyWords(
  amount: string,
  cur: Currency,
  lang: Lang,
  scale?: string,
  negative = false,
): string {
  const n = parseNumeral(amount, LOCALES[lang].numberStyle, true);
  const sign = negative ? 'menos ' : '';
  if (!n) return `${sign}${amount} ${cur.many}`;
  if (scale) {
    // "1.5 millones de pesos", "3 mil pesos": the scale word carries the noun.
    const s = scale.toLowerCase().replace(/^(mill|bill)on$/, '$1ón');
    // "doscientas mil libras" but "doscientos millones de libras" (millón is a masculine noun).
    const opts = s === 'mil' ? { gender: cur.gender, apocope: true } : { apocope: true };
    const num = n.frac === undefined ? cardinal(n.int, opts) : numeralWords(n, lang);
    const de = s === 'mil' ? ' ' : ' de ';
    return `${sign}${num} ${s}${de}${cur.many}`;
  }
  const cents = n.frac === undefined ? 0 : Number(n.frac.padEnd(2, '0').slice(0, 2));
  const extra = n.frac !== undefined && n.frac.length > 2;
  if (extra) return `${sign}${numeralWords(n, lang)} ${cur.many}`;
  const int = n.int.replace(/^0+/, '');
  const parts: string[] = [];
  if (int || !cents) {
    const words = cardinal(int || '0', { gender: cur.gender, apocope: cur.gender === 'm' });
    const noun = int === '1' ? cur.one : cur.many;
    parts.push(`${words}${needsDe(int || '0') ? ' de' : ''} ${noun}`);
  }
  if (cents) {
    const words = cardinal(cents, { gender: 'm', apocope: true });
    parts.push(`${words} ${cents === 1 ? cur.cent : cur.cents}`);
  }
  return sign + parts.join(' con ');
}

export const currencyRule: Rule = {
  name: 'currency',
  apply(text, lang) {
    if (!/\d/.test(text)) return text;
    return text
      .replace(
        BEFORE,
        (_m, sign: string | undefined, pre: string, amount: string, scale?: string, post?: string) => {
          // A suffix code overrides the symbol: "$100 USD" is dollars even for an es-MX voice.
          const cur = currencyOf(post ?? pre, lang);
          return moneyWords(amount, cur, lang, scale, Boolean(sign));
        },
      )
      .replace(
        AFTER,
        (m, sign: string | undefined, amount: string, scale: string | undefined, post: string) => {
          const isWord = /^\p{L}{4,}/u.test(post) && !/^(?:MXN|USD|EUR|GBP)$/i.test(post);
          // "20 dólares" reads the same without this rule; take words only for decimals or scales.
          if (isWord && !/[.,]\d{1,2}$/.test(amount) && !scale) return m;
          if (/^(?:MXN|USD|EUR|GBP|MN)$/i.test(post) && post !== post.toUpperCase()) return m;
          return moneyWords(amount, currencyOf(post, lang), lang, scale, Boolean(sign));
        },
      );
  },
};
