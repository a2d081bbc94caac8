// Page layout: positioned text runs → lines in reading order. Finds column gutters (vertical strips nearly no
// text crosses, with text-like columns on both sides), reads columns left to right within each band between
// full-width lines (titles, footers), and rebuilds each line's text with spaces where the PDF only leaves gaps.
import type { RawPage, TextRun } from './types';

export interface Line {
  text: string;
  x0: number;
  x1: number;
  /** Baseline from the top of the page. */
  y: number;
  /** Dominant font size. */
  size: number;
  /** Column index from the left; -1 for a line crossing a gutter (title, centred footer). */
  column: number;
  /** 0-based page index. */
  page: number;
  pageWidth: number;
  pageHeight: number;
  /** Horizontal extent of the column (or of the page's text for spanning lines). */
  colLeft: number;
  colRight: number;
}

/** Share of the page height, from the top and from the bottom, where headers and footers live. */
export const BAND = 0.14;

export interface Gutter {
  start: number;
  end: number;
}

const median = (xs: number[]): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const minOf = (xs: number[]): number => xs.reduce((m, x) => (x < m ? x : m), Infinity);
const maxOf = (xs: number[]): number => xs.reduce((m, x) => (x > m ? x : m), -Infinity);

const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))]!;
};

/** Font size of most of the text (weighted by characters). */
export function dominantSize(runs: { text: string; size: number }[]): number {
  const weight = new Map<number, number>();
  for (const r of runs) {
    const k = Math.round(r.size * 2) / 2;
    weight.set(k, (weight.get(k) ?? 0) + r.text.length);
  }
  let best = 0;
  let bestW = -1;
  for (const [k, w] of weight) if (w > bestW || (w === bestW && k < best)) [best, bestW] = [k, w];
  return best || 10;
}

/** Groups runs whose baselines are within a fraction of the font size into rows (sorted top to bottom). */
function rows(runs: TextRun[]): TextRun[][] {
  const sorted = [...runs].sort((a, b) => a.y - b.y || a.x - b.x);
  const out: TextRun[][] = [];
  let cur: TextRun[] = [];
  let y = -Infinity;
  let size = 0;
  for (const r of sorted) {
    if (cur.length && Math.abs(r.y - y) <= 0.4 * Math.min(size, r.size)) {
      cur.push(r);
      continue;
    }
    if (cur.length) out.push(cur);
    cur = [r];
    y = r.y;
    size = r.size;
  }
  if (cur.length) out.push(cur);
  return out;
}

/**
 * Column gutters of a page: maximal x-intervals at least ~0.9 em wide that almost no run covers (full-width lines
 * like a title or a centred footer may cross them), inside the text area, with at least a few rows of text on both
 * sides that overlap vertically, and whose neighbouring columns look like running text (rows reach the gutter on
 * the left and start at a common edge on the right), which keeps tables of short labels from being split.
 */
export function findGutters(runs: TextRun[], pageWidth: number): Gutter[] {
  if (runs.length < 6) return [];
  const body = dominantSize(runs);
  const left = Math.max(
    0,
    Math.floor(
      quantile(
        runs.map((r) => r.x),
        0.02,
      ),
    ),
  );
  const right = Math.min(
    Math.ceil(pageWidth),
    Math.ceil(
      quantile(
        runs.map((r) => r.x + r.width),
        0.98,
      ),
    ),
  );
  if (right - left < 10 * body) return [];
  const cov = new Int32Array(Math.ceil(pageWidth) + 2);
  for (const r of runs) {
    const a = Math.max(0, Math.floor(r.x + 0.5));
    const b = Math.min(cov.length - 1, Math.ceil(r.x + r.width - 0.5));
    for (let x = a; x < b; x++) cov[x]!++;
  }
  const inside: number[] = [];
  for (let x = left; x < right; x++) inside.push(cov[x]!);
  const ref = quantile(inside, 0.75);
  const low = Math.max(2, ref * 0.15);
  // Gutters are at least about an em (LaTeX 1 em, pdfkit 1.5 em, Word 3 em); word spaces are a third of one.
  const minWidth = Math.max(6, 0.9 * body);
  const margin = 0.1 * (right - left);
  const candidates: Gutter[] = [];
  let start = -1;
  for (let x = left; x <= right; x++) {
    const isLow = x < right && cov[x]! <= low;
    if (isLow && start < 0) start = x;
    if (!isLow && start >= 0) {
      if (x - start >= minWidth && start > left + margin && x < right - margin)
        candidates.push({ start, end: x });
      start = -1;
    }
  }
  return candidates.filter((g, i) => {
    const colLeft = i > 0 ? candidates[i - 1]!.end : left;
    const colRight = i + 1 < candidates.length ? candidates[i + 1]!.start : right;
    const leftRows = rows(runs.filter((r) => r.x >= colLeft - 1 && r.x + r.width <= g.start + 1));
    const rightRows = rows(runs.filter((r) => r.x >= g.end - 1 && r.x + r.width <= colRight + 1));
    if (leftRows.length < 3 || rightRows.length < 3) return false;
    const span = (rs: TextRun[][]) => [rs[0]![0]!.y, rs[rs.length - 1]![0]!.y] as const;
    const [la, lb] = span(leftRows);
    const [ra, rb] = span(rightRows);
    const overlap = Math.min(lb, rb) - Math.max(la, ra);
    if (overlap < 0.5 * Math.min(lb - la, rb - ra)) return false;
    const leftWidth = g.start - colLeft;
    const reach = leftRows.filter((row) => maxOf(row.map((r) => r.x + r.width)) >= colLeft + 0.6 * leftWidth);
    const rightWidth = colRight - g.end;
    const edge = rightRows.filter((row) => minOf(row.map((r) => r.x)) <= g.end + 0.3 * rightWidth);
    return reach.length >= 0.5 * leftRows.length && edge.length >= 0.7 * rightRows.length;
  });
}

/** Joins the runs of one row left to right, adding a space where the PDF leaves a gap instead of one. */
export function joinRow(row: TextRun[]): string {
  const sorted = [...row].sort((a, b) => a.x - b.x);
  let text = '';
  let prev: TextRun | undefined;
  for (const r of sorted) {
    // Faux bold: the same text drawn twice a fraction of a point apart.
    if (prev && r.text === prev.text && Math.abs(r.x - prev.x) < 0.2 * r.size) continue;
    if (prev) {
      const gap = r.x - (prev.x + prev.width);
      if (gap > 0.15 * Math.min(r.size, prev.size) && !/\s$/.test(text) && !/^\s/.test(r.text)) text += ' ';
    }
    text += r.text;
    prev = r;
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** Lines of one page in reading order. */
export function layoutPage(page: RawPage, pageIndex: number): Line[] {
  const runs = page.runs;
  if (!runs.length) return [];
  const gutters = findGutters(runs, page.width);
  const textLeft = minOf(runs.map((r) => r.x));
  const textRight = maxOf(runs.map((r) => r.x + r.width));
  const bounds = [textLeft, ...gutters.flatMap((g) => [g.start, g.end]), textRight];
  const columnOf = (r: TextRun): number => {
    for (const g of gutters) if (r.x < g.start - 1 && r.x + r.width > g.end + 1) return -1;
    const centre = r.x + r.width / 2;
    return gutters.filter((g) => g.end <= centre).length;
  };
  const groups = new Map<number, TextRun[]>();
  for (const r of runs) {
    const c = columnOf(r);
    const group = groups.get(c);
    if (group) group.push(r);
    else groups.set(c, [r]);
  }
  const lines: Line[] = [];
  for (const [column, group] of groups) {
    const colLeft = column < 0 ? textLeft : bounds[column * 2]!;
    const colRight = column < 0 ? textRight : bounds[column * 2 + 1]!;
    for (const row of rows(group)) {
      const text = joinRow(row);
      if (!text) continue;
      lines.push({
        text,
        x0: minOf(row.map((r) => r.x)),
        x1: maxOf(row.map((r) => r.x + r.width)),
        y: median(row.map((r) => r.y)),
        size: dominantSize(row),
        column,
        page: pageIndex,
        pageWidth: page.width,
        pageHeight: page.height,
        colLeft,
        colRight,
      });
    }
  }
  // A line alone at the top or bottom of the page (a header, a footer, a page number) is read on its own, before
  // or after the columns, even when it happens to sit inside one column's width.
  const body = dominantSize(runs);
  for (const line of lines) {
    if (line.column < 0) continue;
    const top = line.y <= BAND * page.height;
    const bottom = line.y >= (1 - BAND) * page.height;
    if (!top && !bottom) continue;
    let gap = Infinity;
    for (const other of lines)
      if (other !== line) {
        const d = top ? other.y - line.y : line.y - other.y;
        if (d > 0.4 * body && d < gap) gap = d;
      }
    if (gap > 1.8 * body) {
      line.column = -1;
      line.colLeft = textLeft;
      line.colRight = textRight;
    }
  }
  // Bands: full-width lines cut the page; inside a band, columns are read left to right, each top to bottom.
  lines.sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const ordered: Line[] = [];
  let band: Line[] = [];
  const flush = () => {
    band.sort((a, b) => a.column - b.column || a.y - b.y || a.x0 - b.x0);
    ordered.push(...band);
    band = [];
  };
  for (const line of lines) {
    if (line.column < 0) {
      flush();
      ordered.push(line);
    } else band.push(line);
  }
  flush();
  return ordered;
}
