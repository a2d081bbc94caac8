// Splits a text into pieces a speech engine accepts in one call (Polly SynthesizeSpeech: 3,000 characters).
// Pieces end at the most natural boundary that fits: paragraph, then sentence, then clause, then word; a word is
// cut only when it alone is longer than the limit. Nothing is dropped except whitespace at the pieces' edges.

import { ABBREVIATIONS as READ_AS } from './normalize/abbreviations';

/** Boundary strength: higher is a more natural place to pause. */
const Level = { Word: 1, Clause: 2, Sentence: 3, Paragraph: 4 } as const;
type Level = (typeof Level)[keyof typeof Level];

// Characters that may close a sentence or clause after its punctuation: quotes, brackets.
const CLOSERS = new Set([')', ']', '}', '"', "'", '»', '”', '’', '›']);
const SENTENCE_END = new Set(['.', '!', '?', '…']);
const CLAUSE_END = new Set([',', ';', ':', '—', '–']);

// A period after these does not end a sentence ("Sr. García", "pág. 3", "etc. y más"): this list, plus every
// abbreviation the reading rules expand that never closes a sentence (core/normalize/abbreviations.ts: "Col." read
// as "colonia", "Blvd.", "Esq."…), so a sentence the voice reads as one is one sentence in the timings too. Entries
// read as abbreviations only before a number ("No. 5") are left out: "Dijo que no. Luego" ends a sentence.
const ABBREVIATIONS = new Set([
  ...(
    'sr sra srta sres dr dra lic ing arq prof profa ud uds vd vds d dña etc pág págs núm nº art cap ' +
    'vol tel av avda cía gral mtro mtra ej aprox admón depto dpto fig ca vs a.c d.c p.ej ee.uu uu cf sta sto'
  ).split(' '),
  ...READ_AS.filter((a) => !a.end && !a.number)
    .flatMap((a) => a.forms)
    .filter((f) => f.endsWith('.'))
    .map((f) => f.split(/\s+/).pop()!.slice(0, -1).toLowerCase()),
]);

/**
 * Splits `text` into chunks of at most `maxChars` UTF-16 code units (JavaScript string length), preferring paragraph,
 * sentence, clause and word boundaries in that order. Chunks are trimmed; empty chunks are dropped.
 */
export function splitText(text: string, maxChars: number): string[] {
  if (!Number.isInteger(maxChars) || maxChars < 1)
    throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
  const chunks: string[] = [];
  let start = skipSpace(text, 0);
  while (start < text.length) {
    const rest = trimEndIndex(text, start, text.length);
    if (rest - start <= maxChars) {
      chunks.push(text.slice(start, rest));
      break;
    }
    const cut = bestCut(text, start, maxChars);
    if (cut) {
      chunks.push(text.slice(start, cut.end));
      start = skipSpace(text, cut.next);
    } else {
      const end = hardCut(text, start, maxChars);
      chunks.push(text.slice(start, end));
      start = skipSpace(text, end);
    }
  }
  return chunks;
}

/** A sentence (or heading, list item, paragraph without final punctuation) of a text: UTF-16 [start, end), trimmed. */
export interface SentenceSpan {
  start: number;
  end: number;
  /** Line breaks in the whitespace before it (0 within a paragraph; 2 means a new paragraph). */
  breaks: 0 | 1 | 2;
}

/** The sentences of `text`, in order, at the boundaries splitText prefers most (sentence and paragraph ends). */
export function sentenceSpans(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let start = skipSpace(text, 0);
  let breaks: 0 | 1 | 2 = 0;
  const space = /\s+/gu;
  space.lastIndex = start;
  for (let m = space.exec(text); m; m = space.exec(text)) {
    const end = m.index;
    const next = end + m[0].length;
    if (next >= text.length) break;
    if (classify(text, start, end, m[0]) >= Level.Sentence) {
      out.push({ start, end, breaks });
      const n = countNewlines(m[0]);
      breaks = n >= 2 || m[0].includes('\u2029') ? 2 : n === 1 ? 1 : 0;
      start = next;
    }
  }
  const end = trimEndIndex(text, start, text.length);
  if (end > start) out.push({ start, end, breaks });
  return out;
}

/** The latest strongest boundary whose content ends within `maxChars` of `start`; undefined if none. */
function bestCut(text: string, start: number, maxChars: number): { end: number; next: number } | undefined {
  const limit = start + maxChars;
  const space = /\s+/gu;
  space.lastIndex = start;
  let best: { end: number; next: number; level: Level } | undefined;
  for (let m = space.exec(text); m && m.index <= limit; m = space.exec(text)) {
    const end = m.index;
    const next = end + m[0].length;
    if (next >= text.length) break; // trailing whitespace: not a boundary between two chunks
    const level = classify(text, start, end, m[0]);
    if (!best || level >= best.level) best = { end, next, level };
  }
  return best;
}

/** How natural a pause is at a whitespace run `ws` starting at `end` (content before it starts at `start`). */
function classify(text: string, start: number, end: number, ws: string): Level {
  const newlines = countNewlines(ws);
  if (newlines >= 2 || ws.includes('\u2029')) return Level.Paragraph;
  if (newlines === 1) return Level.Sentence; // a line break: heading, list item, verse
  let i = end - 1;
  while (i > start && CLOSERS.has(text[i]!)) i--;
  const punct = text[i]!;
  const after = text[end + ws.length]!;
  if (SENTENCE_END.has(punct)) {
    // "¿Vienes? dijo" and "Sr. García" continue the sentence; "¿Vienes? ¿O no?" and "Fin. Luego" do not.
    if (/\p{Ll}/u.test(after)) return Level.Clause;
    if (punct === '.' && isAbbreviation(text, start, i)) return Level.Word;
    return Level.Sentence;
  }
  if (CLAUSE_END.has(punct)) return Level.Clause;
  // Spanish opens questions and exclamations: "Dime ¿vienes?" may pause before the "¿".
  if (after === '¿' || after === '¡' || after === '—' || after === '(') return Level.Clause;
  return Level.Word;
}

function isAbbreviation(text: string, start: number, dot: number): boolean {
  let i = dot;
  while (i > start && /[\p{L}\p{N}.º]/u.test(text[i - 1]!)) i--;
  const word = text.slice(i, dot).toLowerCase();
  if (word.length === 0) return false;
  if (ABBREVIATIONS.has(word)) return true;
  // A single capital initial: "J. R. Jiménez".
  return /^\p{Lu}$/u.test(text.slice(i, dot));
}

function countNewlines(ws: string): number {
  // \r\n counts once; a lone \r (old Mac files) counts too.
  return (ws.match(/\r\n|\n|\r/g) ?? []).length;
}

/** Cuts inside a word longer than the limit, never between a surrogate pair or before a combining mark. */
function hardCut(text: string, start: number, maxChars: number): number {
  let end = start + maxChars;
  while (end > start + 1 && (isLowSurrogate(text.charCodeAt(end)) || /\p{M}/u.test(text[end] ?? ''))) end--;
  return end;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/u.test(text[i]!)) i++;
  return i;
}

function trimEndIndex(text: string, start: number, end: number): number {
  while (end > start && /\s/u.test(text[end - 1]!)) end--;
  return end;
}
