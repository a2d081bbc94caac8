// Pronunciation dictionaries (lexicons): an account's list of grapheme → alias (what to say instead) and, for
// Polly, an optional IPA phoneme. Pure: matching and the limits; storage is the LexiconStore port, the HTTP shape
// is handlers/lexicons.route.ts.
//
// Matching is whole-word (a grapheme that starts or ends with a letter or digit must not touch another letter or
// digit there) and case-aware: an entry matches its grapheme exactly, unless it says `match_case: false`. Where
// several entries could match at one place the longest wins; where two lexicons define one grapheme, the one named
// first wins (Polly's rule for several lexicons).
import type { Lang } from './voices';

export type LexiconLanguage = Lang | '*';

export interface LexiconEntry {
  grapheme: string;
  /** Said instead of the grapheme (both engines). */
  alias?: string;
  /** IPA, for engines that take phonemes (Polly: `<phoneme alphabet="ipa">`); espeak says the alias or grapheme. */
  phoneme?: string;
  /** false: the grapheme matches in any letter case. Default true (exact case). */
  match_case?: boolean;
}

export interface Lexicon {
  name: string;
  language: LexiconLanguage;
  entries: LexiconEntry[];
  /** The account's default: applied when a request names no lexicons. */
  default: boolean;
  updated_at: string;
}

/** Limits (422 when exceeded, see handlers/lexicons.route.ts). */
export const LEXICON_LIMITS = {
  /** Lexicons per account. */
  lexicons: 100,
  /** Entries per lexicon. */
  entries: 1000,
  grapheme: 100,
  alias: 200,
  phoneme: 100,
  /** One lexicon's entries as JSON, in UTF-8 bytes. */
  lexiconBytes: 40_000,
  /** All of an account's lexicons as stored (one DynamoDB item, whose hard limit is 400 KB). */
  accountBytes: 300_000,
  /** Lexicons named in one request (Polly applies at most five). */
  perRequest: 5,
  name: 64,
} as const;

export const LEXICON_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** IPA as Polly takes it: IPA letters, modifiers, combining marks, stress and length marks, syllable dots, spaces. */
export const IPA = /^[\p{L}\p{M}\u02B0-\u02FF.\s|‿]+$/u;

/** What a lexicon hit becomes in the speech: the words to say and, optionally, how. */
export interface LexiconHit {
  text: string;
  phoneme?: string;
}

const WORDISH = /[\p{L}\p{N}]/u;

function escapeRegExp(s: string): string {
  // With the `u` flag only syntax characters may be escaped ("\-" is an error).
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Entries that apply to `lang`, in precedence order (earlier lexicons first), one per grapheme. */
export function entriesFor(lexicons: readonly Lexicon[], lang: Lang): LexiconEntry[] {
  const seen = new Set<string>();
  const out: LexiconEntry[] = [];
  for (const lx of lexicons) {
    if (lx.language !== '*' && lx.language !== lang) continue;
    for (const e of lx.entries) {
      const key = e.match_case === false ? 'i:' + e.grapheme.toLowerCase() : 'c:' + e.grapheme;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(e);
    }
  }
  return out;
}

/** A compiled matcher over some entries. */
export class LexiconMatcher {
  private readonly regex: RegExp | undefined;
  private readonly exact = new Map<string, LexiconEntry>();
  private readonly folded = new Map<string, LexiconEntry>();

  constructor(entries: readonly LexiconEntry[]) {
    const alternatives: string[] = [];
    for (const e of entries) {
      if (e.match_case === false) {
        const k = e.grapheme.toLowerCase();
        if (!this.folded.has(k)) this.folded.set(k, e);
      } else if (!this.exact.has(e.grapheme)) this.exact.set(e.grapheme, e);
    }
    const graphemes = [...new Set(entries.map((e) => e.grapheme))].sort((a, b) => b.length - a.length);
    for (const g of graphemes) {
      const before = WORDISH.test(g[0]!) ? '(?<![\\p{L}\\p{N}])' : '';
      const after = WORDISH.test(g[g.length - 1]!) ? '(?![\\p{L}\\p{N}])' : '';
      alternatives.push(before + escapeRegExp(g) + after);
    }
    // One pass over the text: longest graphemes first, case folded; each hit is then checked against its entry's
    // case rule (exact entries first).
    this.regex = alternatives.length ? new RegExp(alternatives.join('|'), 'giu') : undefined;
  }

  get empty(): boolean {
    return this.regex === undefined;
  }

  private entryFor(found: string): LexiconEntry | undefined {
    return this.exact.get(found) ?? this.folded.get(found.toLowerCase());
  }

  /** `text` cut into plain runs and hits, in order (the runs keep every character the hits do not take). */
  split(text: string): (string | LexiconHit)[] {
    if (!this.regex) return [text];
    const out: (string | LexiconHit)[] = [];
    let last = 0;
    for (const m of text.matchAll(this.regex)) {
      const entry = this.entryFor(m[0]);
      if (!entry) continue; // matched only by case folding, and the entry wants its exact case
      if (m.index > last) out.push(text.slice(last, m.index));
      out.push({
        text: entry.alias ?? m[0],
        ...(entry.phoneme !== undefined ? { phoneme: entry.phoneme } : {}),
      });
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }
}

/** Bytes of a lexicon's entries as JSON (the size limit's measure). */
export function lexiconBytes(entries: readonly LexiconEntry[]): number {
  return new TextEncoder().encode(JSON.stringify(entries)).length;
}
