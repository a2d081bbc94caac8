// One rule family of the reading normaliser: a pure text → text pass for a voice locale.
import type { Lang, NumberStyle } from './locale';

export interface Rule {
  /** Short name, used in docs and in error reports. */
  readonly name: string;
  /**
   * `style` is how this text writes ambiguous numbers ("1.234"): the text's own convention when its
   * unambiguous numbers show one, else the voice locale's (see detectNumberStyle).
   */
  apply(text: string, lang: Lang, style: NumberStyle): string;
}
