// The pieces speech is made of (core/speech.ts): plain text, lexicon hits and pauses, each with its spans.

export type BreakStrength = 'none' | 'x-weak' | 'weak' | 'medium' | 'strong' | 'x-strong';
export type EmphasisLevel = 'strong' | 'moderate' | 'reduced';

/** Spans a piece sits in. `lang`: another language than the voice's (`<lang xml:lang>`): no Spanish rules. */
export interface Span {
  emphasis?: EmphasisLevel;
  lang?: string;
}

export type Piece =
  /** `said`: already the words to say (say-as, sub): reading rules and lexicon leave it alone. */
  | ({ kind: 'text'; text: string; said?: true } & Span)
  /** A lexicon hit: the words to say and, for engines that take them, the IPA phonemes. */
  | ({ kind: 'word'; text: string; phoneme?: string } & Span)
  | { kind: 'break'; ms?: number; strength?: BreakStrength };
