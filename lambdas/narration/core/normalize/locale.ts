// What differs between the two voice locales when text is read aloud. One table, so every rule family asks the
// same question the same way (docs/reading-rules.md lists the differences).
import type { Lang } from '../voices';

export type { Lang };

/** Which separator groups thousands when a written number alone cannot tell ("1.234", "1,234"). */
export type NumberStyle = 'MX' | 'ES';

export interface LocaleRules {
  /** es-MX writes 1,234.56; es-ES writes 1.234,56. Used only when a number is ambiguous. */
  numberStyle: NumberStyle;
  /** The word for the decimal separator, whichever symbol was written: Mexico says "punto", Spain "coma". */
  decimalWord: 'punto' | 'coma';
  /** "/" in a web address: "diagonal" in Mexico, "barra" in Spain. */
  slashWord: 'diagonal' | 'barra';
  /** A bare "$" means pesos in Mexico and dollars in Spain. */
  dollarSign: 'MXN' | 'USD';
  /** The 1st of a month: "primero de mayo" in Mexico, "uno de mayo" in Spain. */
  firstOfMonth: 'primero' | 'uno';
  /** Letter names where they differ: V, W. */
  letters: Readonly<Record<string, string>>;
}

const LETTERS: Record<string, string> = {
  A: 'a',
  B: 'be',
  C: 'ce',
  D: 'de',
  E: 'e',
  F: 'efe',
  G: 'ge',
  H: 'hache',
  I: 'i',
  J: 'jota',
  K: 'ka',
  L: 'ele',
  M: 'eme',
  N: 'ene',
  Ñ: 'eñe',
  O: 'o',
  P: 'pe',
  Q: 'cu',
  R: 'erre',
  S: 'ese',
  T: 'te',
  U: 'u',
  V: 've',
  W: 'doble ve',
  X: 'equis',
  Y: 'ye',
  Z: 'zeta',
  '&': 'ampersand',
};

export const LOCALES: Readonly<Record<Lang, LocaleRules>> = {
  'es-MX': {
    numberStyle: 'MX',
    decimalWord: 'punto',
    slashWord: 'diagonal',
    dollarSign: 'MXN',
    firstOfMonth: 'primero',
    letters: LETTERS,
  },
  'es-ES': {
    numberStyle: 'ES',
    decimalWord: 'coma',
    slashWord: 'barra',
    dollarSign: 'USD',
    firstOfMonth: 'uno',
    letters: { ...LETTERS, V: 'uve', W: 'uve doble' },
  },
};

/** A letter's Spanish name ("G" → "ge"), or the character itself when it has none. */
export function letterName(ch: string, lang: Lang): string {
  return LOCALES[lang].letters[ch.toUpperCase()] ?? ch;
}
