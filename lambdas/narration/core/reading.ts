// What is read, in which pieces, and where each sentence lands in the audio. Pure.
//
// The caller's text is split into sentences first (core/chunking.ts), each sentence is rewritten for speech on its
// own (core/normalize: "15/03" → "quince de marzo"), and consecutive spoken sentences are grouped into chunks the
// engine takes in one call. So every piece of spoken text knows the span of the ORIGINAL text it came from, and
// timings point there (a highlighted date is "15/03", not the words it was read as).
// The first chunk is small (a sentence or two): it is the first playable segment of a long job, ready in about a
// second; later chunks double in size up to the engine's limit (fewer calls, fewer segments). A lexicon applies
// per sentence too (core/speech.ts), and a chunk needing markup is rendered as SSML in the engine's dialect.
import { sentenceSpans } from './chunking';
import { numberStyleOf } from './normalize';
import {
  chunkPieces,
  engineInputs,
  lower,
  markupFor,
  preparePieces,
  renderChunk,
  type Piece,
  type SpeechOptions,
} from './speech';
import type { Voice } from './voices';

/** A sentence of the caller's text: UTF-16 [start, end) and how it is spoken. */
export interface PlannedSentence {
  start: number;
  end: number;
  spoken: string;
}

/** Sentence `sentence` (or a piece of it, when it alone is longer than a call) at [at, at + length) of a chunk. */
export interface ChunkPart {
  sentence: number;
  at: number;
  length: number;
  /** Where the piece starts in the sentence's spoken text (0 unless the sentence was cut). */
  from: number;
}

/** What separates a chunk from the one before it in the text, which sets the pause between them. */
export type ChunkBoundary = 'sentence' | 'line' | 'paragraph' | 'heading';

export interface PlannedChunk {
  /** What the engine is given: plain text, or SSML in its dialect (then `at` offsets do not apply). */
  text: string;
  ssml: boolean;
  parts: ChunkPart[];
  /** What comes between the previous chunk and this one (the first chunk: 'sentence'). */
  boundary?: ChunkBoundary;
}

export interface ReadingPlan {
  sentences: PlannedSentence[];
  chunks: PlannedChunk[];
}

export interface PlanOptions {
  /** The engine's name and most characters per call. */
  engine: string;
  maxChars: number;
  /** Budget of the first chunk (default 200, at most maxChars). */
  firstChars?: number;
  /** SSML and lexicon (core/speech.ts). SSML input is read as the lexicon's chunks, without sentence timings. */
  speech?: SpeechOptions;
  /**
   * UTF-16 offsets where headings start: a chunk that starts with a heading, or follows one, gets a heading's pause
   * before it. Headings do not cut chunks (that would cost Polly calls: a long article has dozens).
   */
  headings?: number[];
  onRuleError?: (rule: string, error: unknown) => void;
}

/** Markup an engine needs around a piece (conservative, like core/speech.ts), so SSML chunks stay within a call. */
const markupCost = (p: Piece) =>
  p.kind === 'break'
    ? 40
    : (p.lang ? 40 : 0) + (p.emphasis ? 40 : 0) + (p.kind === 'word' && p.phoneme ? 60 : 0);
const plain = (pieces: readonly Piece[]) => pieces.map((p) => (p.kind === 'break' ? ' ' : p.text)).join('');

export function planReading(text: string, voice: Voice, opts: PlanOptions): ReadingPlan {
  const normalize = opts.onRuleError ? { onRuleError: opts.onRuleError } : {};
  if (opts.speech?.textType === 'ssml')
    return {
      sentences: [],
      chunks: engineInputs(text, voice, opts.engine, opts.maxChars, opts.speech, normalize).map((c) => ({
        ...c,
        parts: [],
      })),
    };
  const markup = markupFor(opts.engine, voice);
  const style = numberStyleOf(text, voice.lang);
  const sentences: PlannedSentence[] = [];
  const chunks: PlannedChunk[] = [];
  let budget = Math.min(opts.maxChars, opts.firstChars ?? 200);
  let pieces: Piece[] = [];
  let parts: ChunkPart[] = [];
  let length = 0; // plain characters in `pieces`
  let cost = 0; // plus markup
  let boundary: ChunkBoundary = 'sentence'; // before the chunk being filled
  let afterHeading = false; // the last sentence added was a heading
  const headingAt = [...(opts.headings ?? [])].sort((a, b) => a - b);
  const close = () => {
    if (parts.length > 0) chunks.push({ ...renderChunk(pieces, markup), parts, boundary });
    pieces = [];
    parts = [];
    length = cost = 0;
    budget = Math.min(opts.maxChars, budget * 2);
  };
  for (const span of sentenceSpans(text)) {
    const prepared = trimPieces(
      lower(
        preparePieces(
          [{ kind: 'text', text: text.slice(span.start, span.end) }],
          voice.lang,
          opts.speech?.lexicon,
          {
            ...normalize,
            style,
          },
        ),
        markup,
      ),
    );
    const spoken = plain(prepared);
    if (!/[\p{L}\p{N}]/u.test(spoken)) continue; // nothing to say (a lone symbol or rule line)
    const index = sentences.push({ start: span.start, end: span.end, spoken }) - 1;
    const whole = spoken.length + prepared.reduce((a, p) => a + markupCost(p), 0);
    const groups =
      whole <= opts.maxChars ? [prepared] : chunkPieces(prepared, markup, opts.maxChars).map(trimPieces);
    let from = 0;
    const heading = headingAt.some((h) => h >= span.start && h < span.end);
    const kind: ChunkBoundary =
      heading || afterHeading
        ? 'heading'
        : span.breaks === 2
          ? 'paragraph'
          : span.breaks === 1
            ? 'line'
            : 'sentence';
    groups.forEach((group, k) => {
      const piece = plain(group);
      from = Math.max(0, spoken.indexOf(piece, from));
      const sep = k > 0 || span.breaks === 0 ? ' ' : span.breaks === 2 ? '\n\n' : '\n';
      const extra = group.reduce((a, p) => a + markupCost(p), 0);
      if (parts.length > 0 && cost + sep.length + piece.length + extra > budget) {
        close();
        boundary = k > 0 ? 'sentence' : kind;
      }
      if (parts.length === 0 && chunks.length === 0) boundary = 'sentence';
      if (parts.length > 0) {
        pieces.push({ kind: 'text', text: sep });
        length += sep.length;
        cost += sep.length;
      }
      parts.push({ sentence: index, at: length, length: piece.length, from });
      pieces.push(...group);
      length += piece.length;
      cost += piece.length + extra;
      from += piece.length;
    });
    afterHeading = heading;
  }
  close();
  return { sentences, chunks };
}

/** Without whitespace at the edges (so a chunk's plain text is exactly its parts and separators). */
function trimPieces(pieces: Piece[]): Piece[] {
  const out = pieces.filter((p) => p.kind === 'break' || p.text.length > 0);
  const first = out[0];
  if (first && first.kind !== 'break') out[0] = { ...first, text: first.text.replace(/^\s+/, '') };
  const last = out[out.length - 1];
  if (last && last.kind !== 'break') out[out.length - 1] = { ...last, text: last.text.replace(/\s+$/, '') };
  return out.filter((p) => p.kind === 'break' || p.text.length > 0);
}

// ─── Where sentences start inside a chunk's audio ─────────────────────────────────────────────────────────────

/** A run of silence in PCM, in seconds from its start. */
export interface Pause {
  start: number;
  end: number;
}

/** Silences of at least `minS` (samples within ±`threshold`), leading and trailing silence excluded. */
export function findPauses(samples: Int16Array, rate: number, minS = 0.12, threshold = 96): Pause[] {
  const out: Pause[] = [];
  const minLen = Math.round(minS * rate);
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]!) <= threshold) first++;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]!) <= threshold) last--;
  let runStart = -1;
  for (let i = first; i <= last; i++) {
    const quiet = Math.abs(samples[i]!) <= threshold;
    if (quiet && runStart < 0) runStart = i;
    else if (!quiet && runStart >= 0) {
      if (i - runStart >= minLen) out.push({ start: runStart / rate, end: i / rate });
      runStart = -1;
    }
  }
  return out;
}

/** Pauses at least this long are what a sentence end sounds like (espeak-ng: ~300 ms; commas ~150 ms). */
const SENTENCE_PAUSE_S = 0.26;
/** A highlight may switch this much before the next sentence is heard, never after. */
const LEAD_S = 0.04;

/**
 * Start (seconds from the chunk's start) of each of `lengths.length` consecutive parts of a chunk that lasts
 * `durationS`, from the pauses heard in it: part k > 0 starts where speech resumes after the pause that matches
 * it best (in order, near where its share of the characters would put it, long pauses preferred); a part no pause
 * matches keeps the proportional estimate. Part 0 starts at 0.
 */
export function partStarts(lengths: number[], pauses: Pause[], durationS: number): number[] {
  const n = lengths.length;
  if (n === 0) return [];
  const total = lengths.reduce((a, b) => a + b, 0) || 1;
  const estimates: number[] = [];
  let acc = 0;
  for (const len of lengths) {
    estimates.push((acc / total) * durationS);
    acc += len;
  }
  const m = pauses.length;
  const cost = (k: number, j: number) => {
    const p = pauses[j]!;
    const off = Math.abs(p.end - estimates[k]!) / Math.max(1, durationS / n);
    return off + (p.end - p.start >= SENTENCE_PAUSE_S ? 0 : 0.6);
  };
  const UNMATCHED = 1;
  // f[k][j]: least cost of placing boundaries 1..k on pauses 0..j-1 (in order; a boundary may stay unmatched).
  // how[k][j]: 0 = pause j-1 unused, 1 = boundary k at pause j-1, 2 = boundary k unmatched.
  const f = Array.from({ length: n }, () => new Float64Array(m + 1));
  const how = Array.from({ length: n }, () => new Uint8Array(m + 1));
  for (let k = 1; k < n; k++) {
    for (let j = 0; j <= m; j++) {
      let best = f[k - 1]![j]! + UNMATCHED;
      let h = 2;
      if (j > 0) {
        if (f[k]![j - 1]! < best) [best, h] = [f[k]![j - 1]!, 0];
        const v = f[k - 1]![j - 1]! + cost(k, j - 1);
        if (v < best) [best, h] = [v, 1];
      }
      f[k]![j] = best;
      how[k]![j] = h;
    }
  }
  const starts = new Array<number>(n).fill(Number.NaN);
  starts[0] = 0;
  for (let k = n - 1, j = m; k >= 1;) {
    const h = how[k]![j]!;
    if (h === 0) j--;
    else {
      if (h === 1) {
        const p = pauses[j - 1]!;
        starts[k] = Math.max(p.start, p.end - LEAD_S);
        j--;
      }
      k--;
    }
  }
  // Unmatched parts: the estimate, kept between their neighbours.
  for (let k = 1; k < n; k++) {
    if (Number.isNaN(starts[k])) {
      let next = durationS;
      for (let q = k + 1; q < n; q++)
        if (!Number.isNaN(starts[q])) {
          next = starts[q]!;
          break;
        }
      starts[k] = Math.min(Math.max(estimates[k]!, starts[k - 1]!), next);
    }
  }
  return starts;
}

// ─── Offsets of spoken text back in the caller's text ─────────────────────────────────────────────────────────

/**
 * Maps [a, b) of `spoken` (the normalised form of `source`) to a span of `source`: words left as they were map to
 * themselves; words the reading rules wrote ("quince de marzo") map to what they replaced ("15/03").
 */
export function spokenToSource(source: string, spoken: string): (a: number, b: number) => [number, number] {
  const src = tokens(source);
  const spk = tokens(spoken);
  // Longest common subsequence of equal tokens (sentences are short; capped to stay linear-ish on odd input).
  const n = src.length;
  const m = spk.length;
  const map = new Array<[number, number]>(m);
  if (n * m <= 250_000) {
    const L = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        L[i]![j] = src[i]!.t === spk[j]!.t ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
    let i = 0;
    let j = 0;
    let gapSrc = 0;
    let gapSpk = 0;
    const flush = (srcEnd: number, spkEnd: number) => {
      // Spoken tokens [gapSpk, spkEnd) replaced source tokens [gapSrc, srcEnd).
      const from = gapSrc < srcEnd ? src[gapSrc]!.a : (src[gapSrc - 1]?.b ?? 0);
      const to = gapSrc < srcEnd ? src[srcEnd - 1]!.b : from;
      for (let q = gapSpk; q < spkEnd; q++) map[q] = [from, to];
    };
    while (i < n && j < m) {
      if (src[i]!.t === spk[j]!.t) {
        flush(i, j);
        map[j] = [src[i]!.a, src[i]!.b];
        i++;
        j++;
        gapSrc = i;
        gapSpk = j;
      } else if (L[i + 1]![j]! >= L[i]![j + 1]!) i++;
      else j++;
    }
    flush(n, m);
  } else {
    for (let q = 0; q < m; q++) map[q] = [0, source.length];
  }
  return (a, b) => {
    let from = Number.POSITIVE_INFINITY;
    let to = -1;
    spk.forEach((tok, q) => {
      if (tok.b > a && tok.a < b) {
        from = Math.min(from, map[q]![0]);
        to = Math.max(to, map[q]![1]);
      }
    });
    return to < 0 ? [0, source.length] : [from, to];
  };
}

function tokens(s: string): { t: string; a: number; b: number }[] {
  const out: { t: string; a: number; b: number }[] = [];
  for (const m of s.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu))
    out.push({ t: m[0].toLowerCase(), a: m.index, b: m.index + m[0].length });
  return out;
}

// ─── Offsets a page can find ──────────────────────────────────────────────────────────────────────────────────

/** What a page and its narration share whatever was added between them (blank lines, a heading's full stop). */
export const IS_LETTER = /[\p{L}\p{N}]/u;

/**
 * The spans with `start`/`end` counted in letters and digits (UTF-16 units that are one) instead of all units: the
 * player finds those in the page's own element whatever the narrated text added or dropped around them (a URL
 * narration joins blocks with blank lines and ends headings with a full stop). The text is rebuilt from the cues,
 * each the exact slice of its sentence, placed at its offset.
 */
export function letterOffsets<T extends { start: number; end: number }>(
  spans: T[],
  sentences: { start: number; end: number }[],
  cues: string[],
): T[] {
  const units: string[] = [];
  sentences.forEach((s, i) => {
    const cue = cues[i] ?? '';
    for (let k = 0; k < cue.length; k++) units[s.start + k] = cue[k]!;
  });
  // before[i]: letters and digits in units [0, i).
  const before = [0];
  for (let i = 0; i < units.length; i++) before.push(before[i]! + (IS_LETTER.test(units[i] ?? ' ') ? 1 : 0));
  const at = (o: number) => before[Math.min(o, units.length)]!;
  return spans.map((x) => ({ ...x, start: at(x.start), end: at(x.end) }));
}

// ─── WebVTT ───────────────────────────────────────────────────────────────────────────────────────────────────

/** Sentences as WebVTT cues: `cues[i]` is the text of `sentences[i]` (the caller's words). */
export function toVtt(cues: string[], sentences: { start_s: number; end_s: number }[]): string {
  const stamp = (s: number) => {
    const ms = Math.round(s * 1000);
    const pad = (v: number, w = 2) => String(v).padStart(w, '0');
    return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
  };
  const blocks = sentences.map((s, i) => {
    // Cue text is markup: escape it; it may not contain "-->" or a blank line.
    const body = (cues[i] ?? '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\s*\n\s*/g, ' ');
    return `${i + 1}\n${stamp(s.start_s)} --> ${stamp(s.end_s)}\n${body}`;
  });
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}
