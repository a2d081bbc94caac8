// Post-processing of a rendered PDF, in the one order every PDF takes (docs/architecture.md): the free plan's
// watermark (a merge's; a single document has it drawn by Chromium) → PDF/A-3b → protection, last, over the finished
// file. A single document and a merge both end here.
// Like every stage after the request, it imports nothing of the request or use-case layer.
import { toPdfA3, type PdfAOptions } from './pdfa';
import { protectPdf, type PdfProtection } from './protect';
import { stampWatermark } from './watermark';

/** The free plan's watermark on PDFs (contract: "a subtle watermark"). */
export const WATERMARK_TEXT = 'Generado con el plan gratuito';

export interface PostProcessing {
  /**
   * Stamp WATERMARK_TEXT on every page here (a merge: once, after merging), in an embedded font when the PDF becomes
   * a PDF/A. A single document has it drawn in the page by Chromium instead (PdfOptions.watermark).
   */
  watermark?: boolean;
  /** Make it a PDF/A-3b with these associated files. */
  pdfa?: PdfAOptions;
  /** Encrypt it (options.password, options.permissions). */
  protection?: PdfProtection;
}

export async function postProcess(pdf: Buffer, steps: PostProcessing): Promise<Buffer> {
  let out = pdf;
  if (steps.watermark) out = await stampWatermark(out, WATERMARK_TEXT, { embeddedFont: !!steps.pdfa });
  if (steps.pdfa) out = await toPdfA3(out, steps.pdfa);
  if (steps.protection) out = await protectPdf(out, steps.protection);
  return out;
}
