// Amounts in words, as Mexican invoices print them ("importe con letra"): 1234.56 MXN →
// "MIL DOSCIENTOS TREINTA Y CUATRO PESOS 56/100 M.N.". Used by factura, cotizacion and nomina. The number words
// are the shared implementation narration reads aloud with (lambdas/shared/text/numero-a-letras.ts), uppercased.
//
// Rules (RAE, and the way CFDI printed representations write them):
// - "UNO" apocopates before a noun and before MIL/MILLÓN: "UN PESO", "VEINTIÚN PESOS", "CIENTO UN PESOS",
//   "VEINTIÚN MIL", "UN MILLÓN"; numeroALetras(21) alone is "VEINTIUNO".
// - 100 is "CIEN" alone and before MIL/MILLONES, "CIENTO" before more figures: "CIENTO UN", "CIEN MIL".
// - Long scale: 10^6 MILLÓN, 10^9 MIL MILLONES, 10^12 BILLÓN, 10^18 TRILLÓN, 10^24 CUATRILLÓN.
// - An exact number of millions takes "DE" before the currency: "UN MILLÓN DE PESOS", "DOS MILLONES DE PESOS",
//   but "UN MILLÓN UN PESOS".
// - The amount is rounded half up (SAT's rule) to the currency's decimals before anything is written, so 0.005 is
//   "CERO PESOS 01/100 M.N." and 1.995 is "DOS PESOS 00/100 M.N.".
// - MXN ends with "M.N." (moneda nacional); other currencies with their ISO code: "… DÓLARES 56/100 USD".
//   Currencies not in the table below take their Spanish name from Intl (CLDR), singular and plural.
// - Feminine currencies (libra, corona, rupia…) agree: "UNA LIBRA", "VEINTIUNA LIBRAS", "DOSCIENTAS LIBRAS".
import { cardinal, MAX_DIGITS, needsDe, type Gender } from '../../lambdas/shared/text/numero-a-letras';
import { currencyDigits, Dec, dec } from './money';

interface CurrencyWords {
  singular: string;
  plural: string;
  gender: Gender;
}

const CURRENCIES: Record<string, CurrencyWords> = {
  MXN: { singular: 'PESO', plural: 'PESOS', gender: 'm' },
  USD: { singular: 'DÓLAR', plural: 'DÓLARES', gender: 'm' },
  EUR: { singular: 'EURO', plural: 'EUROS', gender: 'm' },
  CAD: { singular: 'DÓLAR CANADIENSE', plural: 'DÓLARES CANADIENSES', gender: 'm' },
  GBP: { singular: 'LIBRA ESTERLINA', plural: 'LIBRAS ESTERLINAS', gender: 'f' },
  JPY: { singular: 'YEN', plural: 'YENES', gender: 'm' },
  CHF: { singular: 'FRANCO SUIZO', plural: 'FRANCOS SUIZOS', gender: 'm' },
  CNY: { singular: 'YUAN', plural: 'YUANES', gender: 'm' },
  GTQ: { singular: 'QUETZAL', plural: 'QUETZALES', gender: 'm' },
  COP: { singular: 'PESO COLOMBIANO', plural: 'PESOS COLOMBIANOS', gender: 'm' },
  ARS: { singular: 'PESO ARGENTINO', plural: 'PESOS ARGENTINOS', gender: 'm' },
  CLP: { singular: 'PESO CHILENO', plural: 'PESOS CHILENOS', gender: 'm' },
  BRL: { singular: 'REAL', plural: 'REALES', gender: 'm' },
};

/** Feminine currency nouns: their numbers agree ("UNA CORONA", "DOSCIENTAS LIBRAS"). */
const FEMININE = /^(LIBRA|CORONA|RUPIA|LIRA|GRIVNA|DRACMA|PESETA)/;

/** Largest number written: just below 10^30 (a quintillón). */
export const MAX_LETRAS = 10n ** BigInt(MAX_DIGITS) - 1n;

export interface LetrasOptions {
  /** Write "UN"/"VEINTIÚN" (before a noun) instead of "UNO"/"VEINTIUNO". Default false. */
  apocope?: boolean;
  /** 'f' for feminine nouns: "UNA", "VEINTIUNA", "DOSCIENTAS", "VEINTIUNA MIL". Default 'm'. */
  gender?: Gender;
}

/**
 * A whole number in Spanish words, uppercase with accents: 0 → "CERO", 21 → "VEINTIUNO", 101 → "CIENTO UNO",
 * 1,000,000 → "UN MILLÓN", -5 → "MENOS CINCO". Throws RangeError for fractions, unsafe numbers and |n| ≥ 10^30.
 */
export function numeroALetras(n: bigint | number, options: LetrasOptions = {}): string {
  if (typeof n === 'number') {
    if (!Number.isSafeInteger(n))
      throw new RangeError(`numeroALetras takes a whole number (a bigint above 2^53), not ${n}`);
    n = BigInt(n);
  }
  if (n < 0n) return `MENOS ${numeroALetras(-n, options)}`;
  if (n > MAX_LETRAS) throw new RangeError('numeroALetras: numbers from 10^30 up are not written');
  const feminine = options.gender === 'f';
  // A feminine noun wins over apocope ("UNA LIBRA", "VEINTIUNA MIL LIBRAS"); millions stay masculine.
  return cardinal(n, {
    gender: options.gender,
    apocope: !!options.apocope && !feminine,
    feminineThousands: feminine,
  }).toLocaleUpperCase('es');
}

function currencyWords(code: string): CurrencyWords {
  const known = CURRENCIES[code];
  if (known) return known;
  // CLDR's Spanish names, e.g. GTQ → "quetzal"/"quetzales", SEK → "corona sueca"/"coronas suecas".
  const name = (count: number) =>
    new Intl.NumberFormat('es', { style: 'currency', currency: code, currencyDisplay: 'name' })
      .formatToParts(count)
      .filter((p) => p.type === 'currency')
      .map((p) => p.value)
      .join('')
      .trim()
      .toLocaleUpperCase('es');
  const singular = name(1) || code;
  const plural = name(2) || code;
  return { singular, plural, gender: FEMININE.test(singular) ? 'f' : 'm' };
}

/**
 * The importe con letra of an amount: "MIL DOSCIENTOS TREINTA Y CUATRO PESOS 56/100 M.N." (MXN),
 * "UN DÓLAR 00/100 USD", "UN MILLÓN DE EUROS 00/100 EUR". Rounded half up to the currency's decimals first;
 * currencies without decimals (JPY) have no fraction. Negative amounts start with "MENOS".
 */
export function importeConLetra(amount: Dec | string | number, moneda = 'MXN'): string {
  const code = moneda.trim().toUpperCase();
  const digits = currencyDigits(code);
  const value = dec(amount);
  if (!value.isFinite()) throw new RangeError(`importeConLetra: not an amount: ${String(amount)}`);
  const rounded = value.abs().toDecimalPlaces(digits, Dec.ROUND_HALF_UP);
  const whole = BigInt(rounded.trunc().toFixed(0));
  const fraction = rounded.minus(rounded.trunc()).times(new Dec(10).pow(digits)).toFixed(0);
  const words = currencyWords(code);
  const letras = numeroALetras(whole, { apocope: true, gender: words.gender });
  const noun = whole === 1n ? words.singular : words.plural;
  const de = needsDe(whole) ? 'DE ' : '';
  const sign = value.isNegative() && !rounded.isZero() ? 'MENOS ' : '';
  const cents = digits > 0 ? ` ${fraction.padStart(digits, '0')}/1${'0'.repeat(digits)}` : '';
  const suffix = code === 'MXN' ? 'M.N.' : code;
  return `${sign}${letras} ${de}${noun}${cents} ${suffix}`;
}
