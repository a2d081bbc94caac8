// The extraction pipeline, run inside the PDF worker thread: read (pdf.js) → lay out each page (columns, lines) →
// clean (headers, footers, page numbers, hyphenation, paragraphs) → check what is left can and may be narrated.
import { cleanPages, headingsOutline } from './clean';
import { PdfRejected } from './errors';
import { layoutPage } from './layout';
import { readPdf, tooLong, tooSlow } from './pdfjs';
import type { OutlineEntry, PdfExtraction, PdfLimits } from './types';

const key = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * Finds each outline entry, in order, as a paragraph of the text (the heading itself, or a paragraph opening with
 * it), and returns where it starts in code points. Entries not printed in the text (bookmark-only) are left out.
 */
export function locateHeadings(
  paragraphs: string[],
  outline: OutlineEntry[],
): { level: number; text: string; offset: number }[] {
  const offsets: number[] = [];
  let at = 0;
  for (const p of paragraphs) {
    offsets.push(at);
    at += [...p].length + 2;
  }
  const keys = paragraphs.map(key);
  const out: { level: number; text: string; offset: number }[] = [];
  let from = 0;
  for (const entry of outline) {
    const k = key(entry.title);
    if (!k) continue;
    for (let i = from; i < keys.length; i++) {
      if (keys[i] === k || (keys[i]!.startsWith(k + ' ') && k.length >= 8)) {
        out.push({ level: entry.level, text: entry.title, offset: offsets[i]! });
        from = i + 1;
        break;
      }
    }
  }
  return out;
}

export async function extractInThisThread(
  bytes: Uint8Array,
  limits: PdfLimits,
  expired: () => boolean = () => false,
): Promise<PdfExtraction> {
  const raw = await readPdf(bytes, { limits, expired });
  const pages = raw.pages.map((p, i) => layoutPage(p, i));
  if (expired()) throw tooSlow();
  const cleaned = cleanPages(pages, { title: raw.title, outline: raw.outline });
  if (!/[\p{L}\p{N}]/u.test(cleaned.text))
    throw new PdfRejected(
      'pdf_no_text',
      `The PDF has no text that can be read aloud: its ${raw.pageCount === 1 ? 'page is' : `${raw.pageCount} pages are`} ` +
        'only images or drawings, no text (e.g. a scan). Run text recognition (OCR) on it, e.g. "Recognize text" in your ' +
        'PDF app or ocrmypdf, and upload the result, or paste the text into /convert/text.',
    );
  const chars = [...cleaned.text].length;
  if (chars > limits.maxChars) throw tooLong(limits.maxChars, chars);
  const found = raw.outline.length ? [] : headingsOutline(cleaned.lines);
  const outline = raw.outline.length ? raw.outline : found;
  return {
    text: cleaned.text,
    chars,
    pageCount: raw.pageCount,
    outline,
    outlineSource: raw.outline.length ? 'bookmarks' : found.length ? 'headings' : 'none',
    headings: locateHeadings(cleaned.paragraphs, outline),
    ...(raw.title !== undefined ? { title: raw.title } : {}),
    removed: {
      furnitureLines: cleaned.furnitureLines,
      pageNumbers: cleaned.pageNumbers,
      hyphenJoins: cleaned.hyphenJoins,
    },
  };
}
