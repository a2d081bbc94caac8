// Spanish numbers in words for reading aloud: cardinals (with gender and apocope: "un peso", "una página",
// "doscientas personas", "veintiún mil") from the implementation both services share
// (lambdas/shared/text/numero-a-letras.ts), read in words up to 10^24 - 1 and digit by digit beyond; ordinals
// ("primer", "vigésima primera", "decimotercero"), decimals and digit-by-digit reading. Hand-written (the npm
// candidates misread apocope and feminine hundreds, which a narrator reads aloud as errors); the ordinal rules are
// the RAE's (DPD "ordinales").
import {
  cardinal as cardinalWords,
  needsDe as needsDeWords,
  spellDigits,
  toDigits,
  type CardinalOptions,
  type Gender,
} from '../../../shared/text/numero-a-letras';

export { spellDigits, type CardinalOptions, type Gender };

/** Integers with more digits than this are read digit by digit. */
export const MAX_CARDINAL_DIGITS = 24;

/** A non-negative integer in words: 1234 → "mil doscientos treinta y cuatro"; over 24 digits, digit by digit. */
export function cardinal(value: number | bigint | string, opts: CardinalOptions = {}): string {
  const digits = toDigits(value).replace(/^0+/, '');
  if (digits.length > MAX_CARDINAL_DIGITS) return spellDigits(digits);
  return cardinalWords(value, opts);
}

/** True when the number ends in "millón/millones/billones…" so a noun needs "de": "dos millones de pesos". */
export function needsDe(value: number | bigint | string): boolean {
  return toDigits(value).replace(/^0+/, '').length <= MAX_CARDINAL_DIGITS && needsDeWords(value);
}

const ORD_UNITS = [
  '',
  'primero',
  'segundo',
  'tercero',
  'cuarto',
  'quinto',
  'sexto',
  'séptimo',
  'octavo',
  'noveno',
];
const ORD_TEENS = [
  'décimo',
  'undécimo',
  'duodécimo',
  'decimotercero',
  'decimocuarto',
  'decimoquinto',
  'decimosexto',
  'decimoséptimo',
  'decimoctavo',
  'decimonoveno',
];
const ORD_TENS = [
  '',
  'décimo',
  'vigésimo',
  'trigésimo',
  'cuadragésimo',
  'quincuagésimo',
  'sexagésimo',
  'septuagésimo',
  'octogésimo',
  'nonagésimo',
];
const ORD_HUNDREDS = [
  '',
  'centésimo',
  'ducentésimo',
  'tricentésimo',
  'cuadringentésimo',
  'quingentésimo',
  'sexcentésimo',
  'septingentésimo',
  'octingentésimo',
  'noningentésimo',
];
const ORD_THOUSAND_PREFIX = ['', '', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'];

/** Ordinals are written out up to here; larger ones are read as cardinals. */
export const MAX_ORDINAL = 9999;

export interface OrdinalOptions {
  gender?: Gender;
  plural?: boolean;
  /** A masculine singular noun follows: "primer piso", "tercer lugar", "vigésimo primer siglo". */
  apocope?: boolean;
}

/** 1 → "primero", 21 → "vigésimo primero", 2 (f) → "segunda", 3 (apocope) → "tercer". */
export function ordinal(n: number, opts: OrdinalOptions = {}): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`ordinals start at 1, got ${n}`);
  if (n > MAX_ORDINAL) return cardinal(n, { gender: opts.gender });
  const words: string[] = [];
  const th = Math.floor(n / 1000);
  const h = Math.floor((n % 1000) / 100);
  const t = Math.floor((n % 100) / 10);
  const u = n % 10;
  if (th) words.push(`${ORD_THOUSAND_PREFIX[th]!}milésimo`);
  if (h) words.push(ORD_HUNDREDS[h]!);
  if (t === 1) words.push(ORD_TEENS[u]!);
  else {
    if (t) words.push(ORD_TENS[t]!);
    if (u) words.push(ORD_UNITS[u]!);
  }
  const last = words.length - 1;
  return words
    .map((w, i) => {
      if (opts.gender === 'f') w = w.slice(0, -1) + 'a';
      else if (i === last && opts.apocope && !opts.plural && /(primero|tercero)$/.test(w)) w = w.slice(0, -1);
      return opts.plural ? w + 's' : w;
    })
    .join(' ');
}

/**
 * The digits after a decimal separator: leading zeros one by one, then up to three digits as a number, longer
 * tails digit by digit. "5" → "cinco", "05" → "cero cinco", "14159" → "uno cuatro uno cinco nueve".
 */
export function fractionDigits(frac: string): string {
  const zeros = /^0*/.exec(frac)![0].length;
  const rest = frac.slice(zeros);
  const words: string[] = new Array<string>(zeros).fill('cero');
  if (rest) words.push(rest.length <= 3 ? cardinal(rest) : spellDigits(rest));
  return words.join(' ');
}

/** An integer as digits, read as a quantity, except codes with leading zeros ("007") read digit by digit. */
export function integerWords(digits: string, opts: CardinalOptions = {}): string {
  if (digits.length > 1 && digits.startsWith('0')) return spellDigits(digits);
  return cardinal(digits, opts);
}
