// How much silence a narration's <break> elements add, and how much a plan allows. Breaks are audio the caller did
// not pay for in characters: 600 `<break time="10s"/>` in 12 KB of SSML once made a 100-minute free narration. So
// they count toward the audio's length (estimates and dry runs include them) and their sum is capped per plan.
// Pure: pieces in, seconds out.
import type { Piece } from './pieces';

/** What a break without a time lasts (SSML strengths, as Polly renders them, roughly; espeak is close). */
const STRENGTH_S: Record<string, number> = {
  none: 0,
  'x-weak': 0.1,
  weak: 0.25,
  medium: 0.4,
  strong: 0.75,
  'x-strong': 1.2,
};

/**
 * The most break silence one narration may hold, per plan (each break is also at most 10 s: core/ssml.ts). A
 * narration's audio is at most its text's speech (100,000 characters ≈ 111 min at 15 characters a second) plus this.
 */
export const MAX_BREAKS_S = { free: 60, paid: 1800 } as const;

/** The cap of a plan: free, or any paid plan. */
export const maxBreaksS = (plan: string): number => (plan === 'free' ? MAX_BREAKS_S.free : MAX_BREAKS_S.paid);

/** Seconds of silence the pieces' breaks add (explicit times as given, strengths as above). */
export function breakSeconds(pieces: readonly Piece[]): number {
  let ms = 0;
  for (const p of pieces)
    if (p.kind === 'break') ms += p.ms ?? Math.round((STRENGTH_S[p.strength ?? 'medium'] ?? 0.4) * 1000);
  return ms / 1000;
}
