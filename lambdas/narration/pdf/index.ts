// PDF → text for narration. Checks the bytes, then extracts and cleans the text in a worker thread (isolate.ts)
// within the limits; every problem with the caller's file is a PdfRejected saying why and what to do.
import { extractInWorker } from './isolate';
import { checkPdfBytes } from './sniff';
import { DEFAULT_LIMITS, type PdfExtraction, type PdfLimits } from './types';

export { PdfRejected, type PdfRejectionType } from './errors';
export { prewarmPdfWorker, stopPdfWorkers } from './isolate';
export { DEFAULT_LIMITS, type OutlineEntry, type PdfExtraction, type PdfLimits } from './types';

export async function extractPdf(bytes: Uint8Array, limits: Partial<PdfLimits> = {}): Promise<PdfExtraction> {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  checkPdfBytes(buf);
  return extractInWorker(buf, { ...DEFAULT_LIMITS, ...limits });
}
