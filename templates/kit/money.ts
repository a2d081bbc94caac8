// Exact decimal arithmetic and es-MX formatting for the built-in templates. Amounts are decimal.js values, never
// binary floats: 0.1 + 0.2 is 0.3 and 3 × 19.99 is 59.97. Numbers from JSON enter through their shortest text
// (String(0.1) = "0.1"), so what the caller wrote is what is computed. Rounding is half up (SAT's rule for CFDI
// amounts) to the currency's decimals.
import Decimal from 'decimal.js';

export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof Dec>;

export function dec(value: number | string | Dec): Dec {
  return value instanceof Dec ? value : new Dec(typeof value === 'number' ? String(value) : value);
}

export function sum(values: Iterable<Dec>): Dec {
  let total = new Dec(0);
  for (const v of values) total = total.plus(v);
  return total;
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * An Intl.NumberFormat, built once per process for each locale and options (building one costs far more than
 * formatting with it: it was a visible share of a factura render).
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}\0${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/**
 * Where SAT's c_Moneda (catCFDI, column Decimales; ISO 4217's minor units) writes a currency with more decimals than
 * ICU formats it with: a CFDI in COP carries centavos SAT stamps, so the printer must neither round them away nor
 * warn that the XML's totals do not add up. (Where ICU has more, e.g. XAU 2 against SAT's 0, the extra zeros print
 * and verify the same amounts.)
 */
// prettier-ignore
const SAT_DECIMALS: Readonly<Record<string, number>> = {
  AFN: 2, ALL: 2, COP: 2, HUF: 2, IDR: 2, IQD: 3, IRR: 2, KPW: 2, LAK: 2, LBP: 2,
  MGA: 2, MMK: 2, MRO: 2, PKR: 2, SLL: 2, SOS: 2, STD: 2, SYP: 2, YER: 2,
};

const digitsByCode = new Map<string, number>();

/** Decimals the currency is written with (MXN/USD/EUR/COP 2, JPY 0, IQD 3); read once per currency and process. */
export function currencyDigits(code: string): number {
  let digits = digitsByCode.get(code);
  if (digits === undefined) {
    digits =
      SAT_DECIMALS[code] ??
      numberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ??
      2;
    digitsByCode.set(code, digits);
  }
  return digits;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Rounded to the currency's decimals, half up. */
export function roundMoney(value: Dec, currency = 'MXN'): Dec {
  return value.toDecimalPlaces(currencyDigits(currency), Dec.ROUND_HALF_UP);
}

/** Fixed-point text of an amount ("1234.50"): what views and data models carry. */
export function moneyText(value: Dec, currency = 'MXN'): string {
  return roundMoney(value, currency).toFixed(currencyDigits(currency));
}

/** "$1,234.50" (MXN), "USD 1,234.50", in es-MX conventions. */
export function formatMoney(value: Dec | number | string, currency = 'MXN'): string {
  const digits = currencyDigits(currency);
  const text = dec(value).toDecimalPlaces(digits, Dec.ROUND_HALF_UP).toFixed(digits);
  let format = moneyFormats.get(currency);
  if (!format) {
    format = numberFormat('es-MX', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(currency, format);
  }
  return format.format(text as unknown as number); // Intl formats decimal strings exactly (ECMA-402 NumberFormat v3)
}

/** A currency code Intl knows (ISO 4217). */
export function isCurrency(code: string): boolean {
  return (Intl.supportedValuesOf('currency') as string[]).includes(code);
}
