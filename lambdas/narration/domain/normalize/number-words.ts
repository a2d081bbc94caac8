// Spanish numbers in words: cardinals (with gender and apocope: "un peso", "una página", "doscientas personas",
// "veintiún mil"), ordinals ("primer", "vigésima primera", "decimotercero"), decimals and digit-by-digit reading.
// Long scale as in both Spain and Mexico: 10^9 = "mil millones", 10^12 = "un billón", up to 10^24 - 1.
//
// Hand-written rather than a dependency: the npm candidates tried (to-words 5.7, n2words 4.0) print
// "veintiuno mil", "veintiuno millones", "cienta una", "dos mil millones quinientos millones", "Millon", and have
// no apocope or feminine hundreds, which a narrator reads aloud as errors. The rules below are the RAE's (DPD
// "veintiuno", "ordinales").

export type Gender = 'm' | 'f';

/** How a final "1" is said: "uno" alone, "un" before a masculine noun, "una" before a feminine one. */
type One = 'uno' | 'un' | 'una';

const UNITS = [
  'cero',
  'uno',
  'dos',
  'tres',
  'cuatro',
  'cinco',
  'seis',
  'siete',
  'ocho',
  'nueve',
  'diez',
  'once',
  'doce',
  'trece',
  'catorce',
  'quince',
  'dieciséis',
  'diecisiete',
  'dieciocho',
  'diecinueve',
  'veinte',
  'veintiuno',
  'veintidós',
  'veintitrés',
  'veinticuatro',
  'veinticinco',
  'veintiséis',
  'veintisiete',
  'veintiocho',
  'veintinueve',
];
const TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const HUNDREDS_M = [
  '',
  'ciento',
  'doscientos',
  'trescientos',
  'cuatrocientos',
  'quinientos',
  'seiscientos',
  'setecientos',
  'ochocientos',
  'novecientos',
];
const HUNDREDS_F = HUNDREDS_M.map((w, i) => (i >= 2 ? w.slice(0, -2) + 'as' : w));
/** Powers of a million: millón (10^6), billón (10^12), trillón (10^18). */
const SCALES: readonly (readonly [string, string])[] = [
  ['', ''],
  ['millón', 'millones'],
  ['billón', 'billones'],
  ['trillón', 'trillones'],
];

/** Integers with more digits than this are read digit by digit. */
export const MAX_CARDINAL_DIGITS = 24;

function below100(n: number, one: One): string {
  if (n === 1) return one;
  if (n === 21) return one === 'uno' ? 'veintiuno' : one === 'un' ? 'veintiún' : 'veintiuna';
  if (n < 30) return UNITS[n]!;
  const u = n % 10;
  const tens = TENS[Math.floor(n / 10)]!;
  return u === 0 ? tens : `${tens} y ${u === 1 ? one : UNITS[u]!}`;
}

function below1000(n: number, g: Gender, one: One): string {
  if (n === 100) return 'cien';
  const h = Math.floor(n / 100);
  const r = n % 100;
  const parts: string[] = [];
  if (h) parts.push((g === 'f' ? HUNDREDS_F : HUNDREDS_M)[h]!);
  if (r) parts.push(below100(r, one));
  return parts.join(' ');
}

function below1e6(n: number, g: Gender, one: One): string {
  const th = Math.floor(n / 1000);
  const r = n % 1000;
  const parts: string[] = [];
  // "mil" is a noun here: the 1 before it is apocopated whatever the gender ("veintiún mil personas").
  if (th === 1) parts.push('mil');
  else if (th > 1) parts.push(`${below1000(th, g, 'un')} mil`);
  if (r) parts.push(below1000(r, g, one));
  return parts.join(' ');
}

function toDigits(value: number | bigint | string): string {
  if (typeof value === 'string') {
    if (!/^\d+$/.test(value)) throw new RangeError(`not a digit string: ${JSON.stringify(value)}`);
    return value;
  }
  if (typeof value === 'number' && !(Number.isSafeInteger(value) && value >= 0))
    throw new RangeError(`not a non-negative safe integer: ${value}`);
  if (typeof value === 'bigint' && value < 0n) throw new RangeError(`negative: ${value}`);
  return String(value);
}

export interface CardinalOptions {
  /** Gender of the counted noun: "una casa", "doscientas páginas". Default masculine. */
  gender?: Gender;
  /**
   * A masculine noun (or "mil") follows: "un peso", "veintiún años", "veintiún mil personas" (instead of "uno",
   * "veintiuno"). Wins over `gender` for the final 1; `gender` still makes "doscientas mil personas".
   */
  apocope?: boolean;
}

/** A non-negative integer in words: 1234 → "mil doscientos treinta y cuatro". */
export function cardinal(value: number | bigint | string, opts: CardinalOptions = {}): string {
  const digits = toDigits(value).replace(/^0+/, '');
  if (!digits) return 'cero';
  if (digits.length > MAX_CARDINAL_DIGITS) return spellDigits(digits);
  const gender = opts.gender ?? 'm';
  const one: One = opts.apocope ? 'un' : gender === 'f' ? 'una' : 'uno';
  const groups: number[] = [];
  for (let end = digits.length; end > 0; end -= 6)
    groups.unshift(Number(digits.slice(Math.max(0, end - 6), end)));
  const words: string[] = [];
  groups.forEach((v, i) => {
    const k = groups.length - 1 - i;
    if (!v) return;
    if (k === 0) words.push(below1e6(v, gender, one));
    else if (v === 1) words.push(`un ${SCALES[k]![0]}`);
    else words.push(`${below1e6(v, 'm', 'un')} ${SCALES[k]![1]}`);
  });
  return words.join(' ');
}

/** True when the number ends in "millón/millones/billones…" so a noun needs "de": "dos millones de pesos". */
export function needsDe(value: number | bigint | string): boolean {
  const digits = toDigits(value).replace(/^0+/, '');
  return digits.length >= 7 && digits.length <= MAX_CARDINAL_DIGITS && /0{6}$/.test(digits);
}

/** Digits one by one: "0425" → "cero cuatro dos cinco". */
export function spellDigits(digits: string): string {
  return Array.from(digits.replace(/\D/g, ''), (d) => UNITS[Number(d)]!).join(' ');
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
