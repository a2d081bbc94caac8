// Units and symbols next to numbers, which engines otherwise spell or skip:
//   5 km → "cinco kilómetros", 1 kg → "un kilo", 100 km/h → "cien kilómetros por hora", 20 m² → "veinte metros
//   cuadrados", 2x1 → "dos por uno", #1 → "número uno", 3/4 de taza → "tres cuartos de taza",
//   Pérez & Hijos → "Pérez y Hijos", COVID-19 → "COVID diecinueve".
// Units are matched only right after a number, so "m" or "g" alone in prose are never touched.
import { NUM, parseNumeral, writtenNumberWords } from './numerals';
import { cardinal, ordinal } from './number-words';
import type { Rule } from './rule';

/** Unit symbol → [singular, plural]. Longest first where one is a prefix of another. */
const UNITS: readonly (readonly [string, string, string])[] = [
  ['km/h', 'kilómetro por hora', 'kilómetros por hora'],
  ['km²', 'kilómetro cuadrado', 'kilómetros cuadrados'],
  ['m²', 'metro cuadrado', 'metros cuadrados'],
  ['m2', 'metro cuadrado', 'metros cuadrados'],
  ['m³', 'metro cúbico', 'metros cúbicos'],
  ['m3', 'metro cúbico', 'metros cúbicos'],
  ['km', 'kilómetro', 'kilómetros'],
  ['cm', 'centímetro', 'centímetros'],
  ['mm', 'milímetro', 'milímetros'],
  ['kg', 'kilo', 'kilos'],
  ['mg', 'miligramo', 'miligramos'],
  ['ml', 'mililitro', 'mililitros'],
  ['mL', 'mililitro', 'mililitros'],
  ['kWh', 'kilovatio hora', 'kilovatios hora'],
  ['MB', 'megabyte', 'megabytes'],
  ['GB', 'gigabyte', 'gigabytes'],
  ['TB', 'terabyte', 'terabytes'],
  ['min', 'minuto', 'minutos'],
  ['seg', 'segundo', 'segundos'],
  ['m', 'metro', 'metros'],
  ['g', 'gramo', 'gramos'],
  ['l', 'litro', 'litros'],
  ['L', 'litro', 'litros'],
];
const UNIT_BY_SYMBOL = new Map(UNITS.map(([s, one, many]) => [s, [one, many] as const]));
const UNIT_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])([-−][^\S\n]?)?(${NUM})[^\S\n]?(${UNITS.map(([s]) => s.replace(/[/]/g, '\\/')).join('|')})(?![\p{L}\p{N}²³/])(?!\.\p{L})`,
  'gu',
);
const TIMES = /(?<![\p{L}\p{N}.,])(\d{1,5})[^\S\n]?[x×][^\S\n]?(\d{1,5})(?![\p{L}\p{N}])/gu;
const HASH = /(?<![\p{L}\p{N}&])#[^\S\n]?(?=\d)/gu;
const AMPERSAND = /(?<=[\p{L}\p{N}.]) & (?=[\p{L}\p{N}])/gu;
const LETTER_DASH_DIGIT = /(?<=\p{Lu}{2,})-(?=\d)/gu;
const FRACTION = /(?<![\p{L}\p{N}/.,])([1-9])\/([2-9]|10)(?=[^\S\n]+(?:de|del)[^\S\n])/gu;
const UNICODE_FRACTIONS: Record<string, string> = {
  '½': 'un medio',
  '¼': 'un cuarto',
  '¾': 'tres cuartos',
  '⅓': 'un tercio',
  '⅔': 'dos tercios',
};
/** The denominator of a/b (2 ≤ b ≤ 10): "medio", "tercio", then the ordinal ("cuarto" … "décimo"). */
const denominator = (b: number) => (b === 2 ? 'medio' : b === 3 ? 'tercio' : ordinal(b));

export const symbolsRule: Rule = {
  name: 'symbols',
  apply(text, lang, style) {
    let out = text;
    if (/[½¼¾⅓⅔]/.test(out)) {
      out = out.replace(/(\d)?([½¼¾⅓⅔])/g, (_m, d: string | undefined, f: string) =>
        d ? `${d} y ${UNICODE_FRACTIONS[f]!.replace(/^un /, '')}` : UNICODE_FRACTIONS[f]!,
      );
    }
    if (out.includes('&')) out = out.replace(AMPERSAND, ' y ');
    if (!/\d/.test(out)) return out;
    return out
      .replace(LETTER_DASH_DIGIT, ' ')
      .replace(HASH, 'número ')
      .replace(FRACTION, (_m, a: string, b: string) => {
        const n = Number(a);
        const d = denominator(Number(b));
        return `${cardinal(n, { apocope: true })} ${n === 1 ? d : d + 's'}`;
      })
      .replace(TIMES, (_m, a: string, b: string) => `${cardinal(a)} por ${cardinal(b)}`)
      .replace(UNIT_RE, (m, sign: string | undefined, n: string, unit: string) => {
        const [one, many] = UNIT_BY_SYMBOL.get(unit)!;
        const parsed = parseNumeral(n, style);
        if (!parsed) return m;
        const isOne = parsed.frac === undefined && /^0*1$/.test(parsed.int);
        const words = writtenNumberWords(n, lang, parsed.frac === undefined ? { apocope: true } : {}, style);
        return `${sign ? 'menos ' : ''}${words} ${isOne ? one : many}`;
      });
  },
};
