// Cheap checks on the raw bytes before any PDF parser sees them: empty, not a PDF at all (and what it looks like),
// or cut short. They make the common mistakes answer fast and precisely.
import { PdfRejected } from './errors';

/** Readers look for the header in the first 1,024 bytes (PDF 32000-1 §7.5.2 note; Acrobat does the same). */
const HEADER_WINDOW = 1024;
/** %%EOF must be near the end; the spec says within the last 1,024 bytes, we allow some trailing junk. */
const EOF_WINDOW = 4096;

const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  [
    'a PNG image',
    (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  ],
  ['a JPEG image', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['a GIF image', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['a TIFF image', (b) => ['II*\0', 'MM\0*'].includes(b.subarray(0, 4).toString('latin1'))],
  [
    'a WebP image',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
  [
    'a ZIP archive or Office document (DOCX, XLSX, ODT...)',
    (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  ],
  ['an old Word/Excel document', (b) => b.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex'))],
  ['a RTF document', (b) => b.subarray(0, 5).toString('latin1') === '{\\rtf'],
  ['a PostScript file', (b) => b.subarray(0, 2).toString('latin1') === '%!'],
  [
    'an HTML page',
    (b) => /^\s*(<!doctype html|<html|<head|<body)/i.test(b.subarray(0, 512).toString('latin1')),
  ],
];

export function describeContent(bytes: Buffer): string {
  for (const [what, test] of SIGNATURES) if (test(bytes)) return what;
  const head = bytes.subarray(0, 512);
  // Text (UTF-8 or Latin-1) has almost no control bytes; binary data has plenty.
  const printable = head.filter((c) => c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 127)).length;
  return printable / Math.max(1, head.length) > 0.95 ? 'plain text' : 'not a PDF';
}

/** Throws PdfRejected when `bytes` is obviously not a complete PDF. */
export function checkPdfBytes(bytes: Buffer): void {
  if (bytes.length === 0)
    throw new PdfRejected(
      'pdf_empty',
      'The uploaded file is empty (0 bytes). Select the PDF again and re-send it.',
    );
  if (bytes.subarray(0, HEADER_WINDOW).indexOf('%PDF-') === -1) {
    const what = describeContent(bytes);
    throw new PdfRejected(
      'not_pdf',
      what === 'not a PDF'
        ? 'The file is not a PDF (it has no %PDF- header). Upload a PDF file, or send text to /convert/text.'
        : `The file is ${what}, not a PDF. Export or save it as PDF and upload that, or send its text to /convert/text.`,
    );
  }
  if (bytes.subarray(Math.max(0, bytes.length - EOF_WINDOW)).indexOf('%%EOF') === -1)
    throw new PdfRejected(
      'pdf_truncated',
      'The PDF is incomplete: it has no end-of-file marker, so the upload or download was probably cut short. ' +
        'Upload the complete file again.',
    );
}
