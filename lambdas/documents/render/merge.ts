// POST /v1/render with `documents`: the parts, each already a finished PDF, become one PDF in order, every page
// copied whole (its content, fonts and annotations) by pdf-lib's copyPages; each part starts a top-level bookmark
// ("1. Factura A-1024") so a reader's outline jumps between them.
import { PDFDocument, PDFHexString, PDFName, PDFNumber, type PDFRef } from 'pdf-lib';

export interface MergePart {
  bytes: Uint8Array;
  /** Its bookmark's title. */
  title: string;
}

export async function mergePdfs(parts: MergePart[], title: string): Promise<Buffer> {
  const out = await PDFDocument.create({ updateMetadata: false });
  out.setTitle(title);
  const starts: PDFRef[] = [];
  for (const part of parts) {
    const src = await PDFDocument.load(part.bytes, { updateMetadata: false });
    const pages = await out.copyPages(src, src.getPageIndices());
    pages.forEach((page) => out.addPage(page));
    starts.push(pages[0]!.ref);
  }
  addOutline(
    out,
    parts.map((p, i) => ({ title: `${i + 1}. ${p.title}`, page: starts[i]! })),
  );
  return Buffer.from(await out.save({ useObjectStreams: false }));
}

/** A flat outline (ISO 32000 12.3.3): one item per part, pointing at its first page. pdf-lib has no outline API. */
function addOutline(doc: PDFDocument, items: { title: string; page: PDFRef }[]): void {
  if (items.length === 0) return;
  const { context } = doc;
  const root = context.nextRef();
  const refs = items.map(() => context.nextRef());
  items.forEach((item, i) => {
    const dict = context.obj({
      Title: PDFHexString.fromText(item.title),
      Parent: root,
      Dest: [item.page, 'Fit'],
    });
    if (i > 0) dict.set(PDFName.of('Prev'), refs[i - 1]!);
    if (i < items.length - 1) dict.set(PDFName.of('Next'), refs[i + 1]!);
    context.assign(refs[i]!, dict);
  });
  context.assign(
    root,
    context.obj({
      Type: 'Outlines',
      First: refs[0]!,
      Last: refs[refs.length - 1]!,
      Count: PDFNumber.of(items.length),
    }),
  );
  doc.catalog.set(PDFName.of('Outlines'), root);
}
