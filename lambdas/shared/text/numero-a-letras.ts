// Spanish cardinal numbers in words, lowercase with accents, as both services write them: narration reads them
// aloud (lambdas/narration/core/normalize/number-words.ts) and documents print amounts in words on invoices
// (templates/kit/con-letra.ts, uppercase). Long scale as in Spain and Mexico: 10^6 millón, 10^9 mil
// millones, 10^12 billón, 10^18 trillón, 10^24 cuatrillón, up to 10^30 - 1.
//
// Rules (RAE, DPD "veintiuno", "uno"):
// - A final 1 is "uno" alone, "un" before a masculine noun (apocope), "una" before a feminine one: "veintiún años",
//   "veintiuna páginas", "ciento una".
// - "mil" and "millón" are nouns: the 1 before them is apocopated ("veintiún mil", "un millón"). Before "mil" and a
//   feminine noun the RAE admits both "veintiún mil personas" and "veintiuna mil personas" (the default is the
//   first; `feminineThousands` gives the second). Millions are masculine whatever follows ("doscientos un millones").
// - Hundreds agree with a feminine noun, also before "mil": "doscientas mil personas".
// - 100 is "cien" alone or before mil/millones, "ciento" before more figures.
//
// Hand-written rather than a dependency: the npm candidates tried (to-words 5.7, n2words 4.0) print
// "veintiuno mil", "veintiuno millones", "cienta una", "dos mil millones quinientos millones", "Millon", and have
// no apocope or feminine hundreds.

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
/** Powers of a million: millón (10^6), billón (10^12), trillón (10^18), cuatrillón (10^24). */
const SCALES: readonly (readonly [string, string])[] = [
  ['', ''],
  ['millón', 'millones'],
  ['billón', 'billones'],
  ['trillón', 'trillones'],
  ['cuatrillón', 'cuatrillones'],
];

/** The most digits `cardinal` writes (just below 10^30, a quintillón). */
export const MAX_DIGITS = SCALES.length * 6;

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

function below1e6(n: number, g: Gender, one: One, thousandsOne: One): string {
  const th = Math.floor(n / 1000);
  const r = n % 1000;
  const parts: string[] = [];
  if (th === 1) parts.push('mil');
  else if (th > 1) parts.push(`${below1000(th, g, thousandsOne)} mil`);
  if (r) parts.push(below1000(r, g, one));
  return parts.join(' ');
}

/** The digits of a non-negative integer given as a number, a bigint or a digit string (RangeError otherwise). */
export function toDigits(value: number | bigint | string): string {
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
  /** With `gender` 'f', the 1 before "mil" agrees too: "veintiuna mil libras" (default "veintiún mil libras"). */
  feminineThousands?: boolean;
}

/**
 * A non-negative integer in words: 1234 → "mil doscientos treinta y cuatro". Throws RangeError for negative or
 * fractional numbers and for more than MAX_DIGITS digits.
 */
export function cardinal(value: number | bigint | string, opts: CardinalOptions = {}): string {
  const digits = toDigits(value).replace(/^0+/, '');
  if (!digits) return 'cero';
  if (digits.length > MAX_DIGITS) throw new RangeError(`more than ${MAX_DIGITS} digits are not written`);
  const gender = opts.gender ?? 'm';
  const one: One = opts.apocope ? 'un' : gender === 'f' ? 'una' : 'uno';
  const thousandsOne: One = gender === 'f' && opts.feminineThousands ? 'una' : 'un';
  const groups: number[] = [];
  for (let end = digits.length; end > 0; end -= 6)
    groups.unshift(Number(digits.slice(Math.max(0, end - 6), end)));
  const words: string[] = [];
  groups.forEach((v, i) => {
    const k = groups.length - 1 - i;
    if (!v) return;
    if (k === 0) words.push(below1e6(v, gender, one, thousandsOne));
    else if (v === 1) words.push(`un ${SCALES[k]![0]}`);
    else words.push(`${below1e6(v, 'm', 'un', 'un')} ${SCALES[k]![1]}`);
  });
  return words.join(' ');
}

/** True when the number ends in "millón/millones/billones…" so a noun needs "de": "dos millones de pesos". */
export function needsDe(value: number | bigint | string): boolean {
  const digits = toDigits(value).replace(/^0+/, '');
  return digits.length >= 7 && /0{6}$/.test(digits);
}

/** Digits one by one: "0425" → "cero cuatro dos cinco". */
export function spellDigits(digits: string): string {
  return Array.from(digits.replace(/\D/g, ''), (d) => UNITS[Number(d)]!).join(' ');
}
