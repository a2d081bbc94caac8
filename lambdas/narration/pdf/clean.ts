// Cleaning for listening: drops what a reader's eye skips but a voice would read out — running headers and
// footers, page numbers — joins words hyphenated at line ends, and rebuilds paragraphs from lines.
//
// Page furniture is found by position and repetition, never by content alone:
//  1. the same text at the same height in the top or bottom band of several pages (running header/footer);
//  2. the same text except for a number that follows the page number ("Informe 2024 · Página 7 de 10");
//  3. a page-number-shaped line ("12", "- 12 -", "Pág. 3", "3 / 10", "xiv") as the first or last lines of a page;
//  4. a top/bottom line in smaller type than the body repeating the document title or a bookmark title (chapter running headers).
// A chapter heading in large type at the top of a page is kept: rules 1–2 need repetition at the same height, and
// rule 4 only takes lines no larger than the body text.
import { BAND, dominantSize, type Line } from './layout';
import type { OutlineEntry } from './types';

const PAGE_NUMBER = [
  /^[-–—([]?\s*\d{1,4}\s*[-–—)\]]?$/u,
  /^(p[áa]g(ina)?|p\.|page|hoja|folio)\.?\s*\d{1,4}(\s*(de|of|\/)\s*\d{1,4})?$/iu,
  /^\d{1,4}\s*(\/|de|of)\s*\d{1,4}$/iu,
  /^[ivxlcdm]{1,7}$/u,
];

export function isPageNumber(text: string): boolean {
  const t = text.trim();
  return PAGE_NUMBER.some((re) => re.test(t));
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

export interface Furniture {
  /** Keys `${page}:${index}` of lines to drop. */
  drop: Set<string>;
  furnitureLines: number;
  pageNumbers: number;
}

function inBand(l: Line): boolean {
  return l.y <= BAND * l.pageHeight || l.y >= (1 - BAND) * l.pageHeight;
}

/** Indices of the `n` top-most and `n` bottom-most lines of a page. */
function extremes(lines: Line[], n: number): Set<number> {
  const idx = lines.map((_, i) => i).sort((a, b) => lines[a]!.y - lines[b]!.y);
  return new Set([...idx.slice(0, n), ...idx.slice(-n)]);
}

/** Groups occurrences whose heights are within `tol` points of each other. */
function clusterByY<T extends { line: Line }>(items: T[]): T[][] {
  const sorted = [...items].sort((a, b) => a.line.y - b.line.y);
  const out: T[][] = [];
  for (const it of sorted) {
    const last = out[out.length - 1];
    const tol = Math.max(3, 0.01 * it.line.pageHeight);
    if (last && Math.abs(it.line.y - last[last.length - 1]!.line.y) <= tol) last.push(it);
    else out.push([it]);
  }
  return out;
}

export function findFurniture(
  pages: Line[][],
  opts: { title?: string; outline?: OutlineEntry[] } = {},
): Furniture {
  const drop = new Set<string>();
  let furnitureLines = 0;
  let pageNumbers = 0;
  const mark = (page: number, i: number, text: string) => {
    const key = `${page}:${i}`;
    if (drop.has(key)) return;
    drop.add(key);
    if (isPageNumber(text)) pageNumbers++;
    else furnitureLines++;
  };
  const pageCount = pages.length;
  const minRepeat = pageCount >= 4 ? 3 : 2;
  type Occ = { page: number; i: number; line: Line; key: string };
  const band: Occ[] = [];
  pages.forEach((lines, page) =>
    lines.forEach((line, i) => {
      if (inBand(line) && line.text.length <= 200) band.push({ page, i, line, key: norm(line.text) });
    }),
  );

  if (pageCount >= 2) {
    // 1. Exact repeats at the same height.
    const byKey = new Map<string, Occ[]>();
    for (const o of band) push(byKey, o.key, o);
    for (const occs of byKey.values())
      for (const cluster of clusterByY(occs))
        if (new Set(cluster.map((o) => o.page)).size >= minRepeat)
          for (const o of cluster) mark(o.page, o.i, o.line.text);

    // 2. Repeats that differ only in numbers, one of which follows the page number.
    const byDigits = new Map<string, Occ[]>();
    for (const o of band) {
      if (!/\d/.test(o.key)) continue;
      push(byDigits, o.key.replace(/\d+/g, '#'), o);
    }
    for (const occs of byDigits.values()) {
      for (const cluster of clusterByY(occs)) {
        const pagesIn = new Set(cluster.map((o) => o.page));
        if (pagesIn.size < minRepeat) continue;
        const votes = new Map<string, Set<number>>();
        for (const o of cluster) {
          const nums = (o.key.match(/\d+/g) ?? []).map(Number);
          nums.forEach((n, j) => {
            const k = `${j}:${n - (o.page + 1)}`;
            votes.set(k, (votes.get(k) ?? new Set()).add(o.page));
          });
        }
        const best = Math.max(0, ...[...votes.values()].map((s) => s.size));
        if (best >= minRepeat && best >= 0.6 * pagesIn.size)
          for (const o of cluster) mark(o.page, o.i, o.line.text);
      }
    }
  }

  // 3 and 4: page numbers, and small lines repeating the title or a bookmark, at the very top or bottom of a page.
  const titles = new Set(
    [opts.title, ...(opts.outline ?? []).map((o) => o.title)].filter((t): t is string => !!t).map(norm),
  );
  const body = dominantSize(pages.flat());
  pages.forEach((lines, page) => {
    const edge = extremes(lines, 2);
    lines.forEach((line, i) => {
      if (!edge.has(i) || !inBand(line)) return;
      if (isPageNumber(line.text)) mark(page, i, line.text);
      else if (pageCount >= 2 && line.size < body * 0.95 && titles.has(norm(line.text)))
        mark(page, i, line.text);
    });
  });
  return { drop, furnitureLines, pageNumbers };
}

const TERMINAL = /[.!?…:;»"”’)\]]$/u;
const HYPHEN_END = /\S[-\u2010]$/u;

/** Joins two lines of one paragraph: a word split by a hyphen at the line end is rejoined. */
export function joinLines(prev: string, next: string): { text: string; hyphenJoin: boolean } {
  if (prev.endsWith('\u00AD')) return { text: prev.slice(0, -1) + next, hyphenJoin: true };
  if (HYPHEN_END.test(prev)) {
    // "infor-" + "mación" → "información"; "franco-" + "Alemán" or "1990-" + "2000" keep their hyphen.
    if (/\p{L}.$/u.test(prev) && /^\p{Ll}/u.test(next))
      return { text: prev.slice(0, -1) + next, hyphenJoin: true };
    return { text: prev + next, hyphenJoin: false };
  }
  return { text: `${prev} ${next}`, hyphenJoin: false };
}

/**
 * Tidies a paragraph for a voice: zero-width characters and leftover soft hyphens go, and a paragraph that does not
 * end a sentence (a heading, a list item) gets a full stop so the voice pauses, as article text does.
 */
export function finishParagraph(p: string): string {
  const t = p
    .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!t) return t;
  return /[.!?…:;»"'”’)\]]$/u.test(t) ? t : `${t}.`;
}

/** Most frequent value (rounded to half points; the smaller on ties). */
function mode(xs: number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const x of xs) {
    const k = Math.round(x * 2) / 2;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  let best: number | undefined;
  let n = 0;
  for (const [k, c] of counts) if (c > n || (c === n && k < best!)) [best, n] = [k, c];
  return best;
}

/**
 * True when `prev` ended before the column edge although the first word of `next` would have fitted after it:
 * the line was ended on purpose (end of a paragraph), not by wrapping. Works for justified and ragged text.
 */
export function endedEarly(prev: Line, next: Line): boolean {
  const perChar = (next.x1 - next.x0) / Math.max(1, next.text.length);
  const firstWord = next.text.split(' ')[0] ?? '';
  return prev.x1 + perChar * (firstWord.length + 1) < prev.colRight - 0.5 * perChar;
}

/** A short line without closing punctuation followed by a paragraph gap or a change of type size. */
function headingLike(lines: Line[], i: number, leading: number): boolean {
  const line = lines[i]!;
  const next = lines[i + 1];
  if (!next || TERMINAL.test(line.text)) return false;
  if (line.x1 > line.colRight - 0.25 * (line.colRight - line.colLeft)) return false;
  if (Math.abs(next.size - line.size) > 0.12 * Math.max(next.size, line.size)) return true;
  return (
    next.page === line.page &&
    next.column === line.column &&
    next.y - line.y > 1.25 * Math.max(leading, line.size)
  );
}

export interface Paragraphs {
  paragraphs: string[];
  hyphenJoins: number;
}

/** Rebuilds paragraphs from lines in reading order (all pages, furniture already removed). */
export function buildParagraphs(lines: Line[]): Paragraphs {
  if (!lines.length) return { paragraphs: [], hyphenJoins: 0 };
  const body = dominantSize(lines);
  // Typical (most frequent) distance between baselines of consecutive body lines in one column.
  const steps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1]!,
      b = lines[i]!;
    const dy = b.y - a.y;
    if (
      a.page === b.page &&
      a.column === b.column &&
      Math.abs(a.size - body) < 0.5 &&
      Math.abs(b.size - body) < 0.5
    )
      if (dy > 0 && dy < 3 * body) steps.push(dy);
  }
  const leading = mode(steps) ?? body * 1.2;

  const paragraphs: string[] = [];
  let cur = lines[0]!.text;
  let hyphenJoins = 0;
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!;
    const line = lines[i]!;
    const prevEnds = TERMINAL.test(prev.text);
    const prevShort = endedEarly(prev, line);
    const indented =
      line.x0 > line.colLeft + 0.8 * line.size &&
      line.x0 < line.colLeft + 0.25 * (line.colRight - line.colLeft);
    // Further down the same page (same column, or from a full-width line into the columns below it).
    const down =
      prev.page === line.page &&
      line.y > prev.y &&
      (prev.column === line.column || prev.column < 0 || line.column < 0);
    let brk: boolean;
    if (Math.abs(line.size - prev.size) > 0.12 * Math.max(line.size, prev.size)) brk = true;
    // An unfinished sentence going on in lower case continues, whatever lies between (a figure, a page break).
    else if (!prevEnds && /^\p{Ll}/u.test(line.text)) brk = false;
    else if (down && line.y - prev.y > 1.25 * Math.max(leading, line.size))
      brk = true; // paragraph spacing
    else {
      // Same column, or a new column or page: the paragraph goes on unless the last line closed a sentence and
      // looks final (short, or the next line is indented), or the next line is a heading.
      brk = prevEnds && (prevShort || indented || headingLike(lines, i, leading));
    }
    if (brk) {
      paragraphs.push(cur);
      cur = line.text;
    } else {
      const j = joinLines(cur, line.text);
      cur = j.text;
      if (j.hyphenJoin) hyphenJoins++;
    }
  }
  paragraphs.push(cur);
  return { paragraphs: paragraphs.map(finishParagraph).filter(Boolean), hyphenJoins };
}

/** Headings by font size (levels from the largest size down), for documents without bookmarks. */
export function headingsOutline(lines: Line[]): OutlineEntry[] {
  const body = dominantSize(lines);
  const heads = lines.filter((l) => l.size >= body * 1.2 && l.text.length <= 120 && /\p{L}/u.test(l.text));
  const sizes = [...new Set(heads.map((l) => Math.round(l.size)))].sort((a, b) => b - a).slice(0, 3);
  const out: OutlineEntry[] = [];
  for (const l of heads) {
    const level = sizes.indexOf(Math.round(l.size));
    if (level < 0) continue;
    const last = out[out.length - 1];
    // A heading wrapped over two lines is one entry.
    if (last && last.page === l.page + 1 && last.level === level) last.title += ` ${l.text}`;
    else out.push({ title: l.text, level, page: l.page + 1 });
  }
  return out.slice(0, 500);
}

export interface CleanResult {
  text: string;
  paragraphs: string[];
  furnitureLines: number;
  pageNumbers: number;
  hyphenJoins: number;
  /** Lines left after furniture removal, in reading order. */
  lines: Line[];
}

export function cleanPages(
  pages: Line[][],
  opts: { title?: string; outline?: OutlineEntry[] } = {},
): CleanResult {
  const furniture = findFurniture(pages, opts);
  const kept: Line[] = [];
  pages.forEach((lines, page) => lines.forEach((l, i) => furniture.drop.has(`${page}:${i}`) || kept.push(l)));
  const { paragraphs, hyphenJoins } = buildParagraphs(kept);
  return {
    text: paragraphs.join('\n\n'),
    paragraphs,
    furnitureLines: furniture.furnitureLines,
    pageNumbers: furniture.pageNumbers,
    hyphenJoins,
    lines: kept,
  };
}
