// Free-tier watermark. Single documents: drawn in the page before Chromium prints it (watermarkOverlay, a fixed
// element Chromium repeats on every printed page, above everything: ~0 ms instead of a ~40 ms pdf-lib re-parse;
// the free plan renders only built-in templates, whose HTML is ours and whose data is escaped, so nothing can hide
// it). Merged documents: after merging, a subtle diagonal line of text is drawn on top of every page with pdf-lib
// (stampWatermark). Doing it on the finished PDF (not with CSS in the page) means nothing in the caller's HTML or
// CSS can hide, cover or move it: `display:none`, a white box with z-index 2147483647, an unclosed `<!--` that would
// swallow injected markup, header templates... The text is real PDF text (pdftotext finds it).
// pdf-lib (MIT, pure JS, no native code, ~13M downloads a month) is the standard way to edit an existing PDF in
// Node; it loads Chromium's compressed object streams and saves a PDF that `qpdf --check` accepts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { degrees, PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';
import { escapeHtml } from '../../shared/text/html';
import { resolveFontsDir } from './fonts';

/** WinAnsi (the standard fonts' encoding) covers Spanish and €; anything else becomes '?'. */
function winAnsiSafe(text: string): string {
  return [...text]
    .map((ch) => (/[\x20-\x7e\u00a0-\u00ff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/.test(ch) ? ch : '?'))
    .join('');
}

let notoSansBold: Uint8Array | undefined;

/**
 * The watermark's font: Helvetica Bold (one of the 14 standard fonts, not embedded: nothing to add), or, for PDF/A
 * (every font must be embedded), the bundled Noto Sans Bold embedded as a subset with pdf-lib's own fontkit.
 */
async function watermarkFont(doc: PDFDocument, embedded: boolean): Promise<PDFFont> {
  if (!embedded) return doc.embedFont(StandardFonts.HelveticaBold);
  doc.registerFontkit(fontkit);
  notoSansBold ??= readFileSync(join(resolveFontsDir(), 'NotoSans-Bold.ttf'));
  return doc.embedFont(notoSansBold, { subset: true });
}

/**
 * The watermark as markup appended to a document before printing: a fixed, full-page layer (Chromium prints a fixed
 * element on every page) with the text along the page's diagonal (CSS atan2 of the page box), in the bundled Noto
 * Sans Bold (embedded by Chromium like every font, so PDF/A holds), grey at 13 % opacity as stampWatermark draws it.
 * Properties are !important so no rule of the template's stylesheet applies to it.
 */
export function watermarkOverlay(text: string): string {
  const layer = [
    'position:fixed',
    'inset:0',
    'z-index:2147483647',
    'display:flex',
    'align-items:center',
    'justify-content:center',
    'pointer-events:none',
    'overflow:hidden',
    'margin:0',
    'padding:0',
    'border:0',
    'background:none',
    'visibility:visible',
    'opacity:1',
  ];
  const label = [
    'transform:rotate(calc(-1 * atan2(100vh, 100vw)))',
    "font:700 clamp(12pt, 4.2vmax, 64pt)/1 'Noto Sans', sans-serif",
    'color:rgba(115, 115, 115, 0.13)',
    'white-space:nowrap',
    'letter-spacing:0',
    'display:block',
    'visibility:visible',
  ];
  const css = (props: string[]) => props.map((p) => `${p} !important`).join(';');
  return `<div aria-hidden="true" style="${css(layer)}"><span style="${css(label)}">${escapeHtml(text)}</span></div>`;
}

export async function stampWatermark(
  pdf: Uint8Array,
  text: string,
  options: { embeddedFont?: boolean } = {},
): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const font = await watermarkFont(doc, options.embeddedFont ?? false);
  const label = winAnsiSafe(text);
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    const angle = Math.atan2(height, width); // along the diagonal, bottom-left to top-right
    const diagonal = Math.hypot(width, height);
    // As large as fits in 70% of the diagonal, between 12 and 64 pt.
    const size = Math.max(12, Math.min(64, (0.7 * diagonal) / font.widthOfTextAtSize(label, 1)));
    const textWidth = font.widthOfTextAtSize(label, size);
    const capHeight = size * 0.36; // half the cap height of Helvetica Bold: centres the line vertically
    // pdf-lib rotates about the baseline origin: place it so the text's centre lands on the page's centre.
    const x = width / 2 - (textWidth / 2) * Math.cos(angle) + capHeight * Math.sin(angle);
    const y = height / 2 - (textWidth / 2) * Math.sin(angle) - capHeight * Math.cos(angle);
    page.drawText(label, {
      x,
      y,
      size,
      font,
      rotate: degrees((angle * 180) / Math.PI),
      color: rgb(0.45, 0.45, 0.45),
      opacity: 0.13,
    });
  }
  // Plain cross-reference table: saving is ~3× faster than with object streams (5.8 vs 15.3 ms for an invoice).
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
