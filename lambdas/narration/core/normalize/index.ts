// Reading rules: rewrites Spanish text so a speech engine (espeak-ng locally, Amazon Polly in the cloud) says
// what a Mexican or Spanish narrator would: dates, times, money, percentages, phone numbers, ordinals, roman
// numerals, abbreviations, web addresses, RFC/CURP codes and plain numbers become words. docs/reading-rules.md
// has every rule with examples per locale.
//
// Rules run in a fixed order, most specific first, so they never fight over the same characters: an address
// or a code is read before its digits could look like a date; a date before its parts could look like a phone
// or a range; money, percentages and units before the plain numbers they contain; abbreviations after the
// rules that need their periods ("a. m.", "1.er") and before plain numbers (so "1 pág." counts a feminine
// noun). Each rule rewrites digits or marks into words, which no later rule matches again.
// Every pattern is anchored by a lookbehind at the start of a token and uses bounded or separator-led
// repetitions, so a pass is linear in the text's length (bench/normalize.bench.ts).
import { abbreviationsRule } from './abbreviations';
import { currencyRule } from './currency';
import { datesRule } from './dates';
import { idsRule } from './ids';
import { LOCALES, type Lang, type NumberStyle } from './locale';
import { detectNumberStyle } from './numerals';
import { numbersRule } from './numbers';
import { ordinalsRule } from './ordinals';
import { percentRule } from './percent';
import { phonesRule } from './phones';
import { romanRule } from './roman';
import type { Rule } from './rule';
import { symbolsRule } from './symbols';
import { timesRule } from './times';
import { webRule } from './web';

export type { Lang } from './locale';
export type { Rule } from './rule';

/** The rule families, in the order they run. */
export const RULES: readonly Rule[] = [
  webRule,
  idsRule,
  datesRule,
  phonesRule,
  timesRule,
  currencyRule,
  percentRule,
  ordinalsRule,
  symbolsRule,
  romanRule,
  abbreviationsRule,
  numbersRule,
];

export interface NormalizeOptions {
  /**
   * Rethrow a rule's unexpected error (tests). By default a failing rule is skipped and the text goes on
   * unchanged by it: a reading rule must never cost the caller their narration.
   */
  strict?: boolean;
  /** Told about a skipped rule (for logging). */
  onRuleError?: (rule: string, error: unknown) => void;
  /** How ambiguous numbers are written, when `text` is a piece of a larger text: the whole text's (numberStyleOf). */
  style?: NumberStyle;
}

/** The number style normalizeForSpeech reads `text` with: its own convention, else the locale's. */
export function numberStyleOf(text: string, lang: Lang): NumberStyle {
  return detectNumberStyle(text) ?? LOCALES[lang].numberStyle;
}

/** `text` rewritten for a speech engine speaking `lang`. Whitespace and line breaks are preserved. */
export function normalizeForSpeech(text: string, lang: Lang, opts: NormalizeOptions = {}): string {
  const style = opts.style ?? numberStyleOf(text, lang);
  let out = text;
  for (const rule of RULES) {
    try {
      out = rule.apply(out, lang, style);
    } catch (err) {
      if (opts.strict) throw err;
      opts.onRuleError?.(rule.name, err);
    }
  }
  return out;
}
