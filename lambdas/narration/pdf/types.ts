// Shapes passed between the PDF reader (pdf.js, in a worker thread), the layout step and the cleaning step.

/** One piece of text as the PDF draws it, in page space: origin top-left, y down, points. */
export interface TextRun {
  text: string;
  /** Left edge. */
  x: number;
  /** Baseline, from the top of the page. */
  y: number;
  width: number;
  /** Font size as drawn (height of the text matrix). */
  size: number;
}

export interface RawPage {
  width: number;
  height: number;
  runs: TextRun[];
}

export interface OutlineEntry {
  title: string;
  /** 0 for top-level bookmarks. */
  level: number;
  /** 1-based page the bookmark points to, when it could be resolved. */
  page: number | null;
}

export interface PdfLimits {
  /** Documents with more pages are refused before any page is read. */
  maxPages: number;
  /** Wall-clock budget for reading the whole document, in milliseconds. */
  timeoutMs: number;
  /** Growth of the process's resident memory allowed while reading, in MiB. */
  maxMemoryMb: number;
  /** Most characters of narrated text (after cleaning). */
  maxChars: number;
}

export const DEFAULT_LIMITS: PdfLimits = {
  maxPages: 1000,
  timeoutMs: 10_000,
  maxMemoryMb: 768,
  maxChars: 100_000,
};

/** What a PDF yields for narration. */
export interface PdfExtraction {
  /** Clean text for listening: paragraphs separated by a blank line. */
  text: string;
  /** Characters (code points) of `text`. */
  chars: number;
  pageCount: number;
  /** Bookmarks of the document (chapter titles), or headings found by font size when it has none. */
  outline: OutlineEntry[];
  outlineSource: 'bookmarks' | 'headings' | 'none';
  /** Outline entries found in `text`: where each starts, in characters (code points), for chapter previews. */
  headings: { level: number; text: string; offset: number }[];
  /** Document title from its metadata, when set. */
  title?: string;
  removed: { furnitureLines: number; pageNumbers: number; hyphenJoins: number };
}
