// PDF/A-3b from Chromium's PDF (options.pdfa; the default for a factura printed from its CFDI XML): pdf-lib adds
// what ISO 19005-3 asks of a file whose fonts Chromium already embeds (subsets, checked with pdffonts in the tests):
//   - the XMP metadata stream (uncompressed) declaring pdfaid:part 3 / conformance B, with dc:title, producer and
//     dates equal to the Info dictionary's;
//   - an sRGB output intent (/GTS_PDFA1, ICC's sRGB2014 profile, srgb-icc.ts);
//   - the source file (the CFDI XML; one per document of a merge) as an associated file: an embedded file with its MIME type and dates, its
//     file specification with /AFRelationship and the catalog's /AF array (pdf-lib's attach does both);
//   - a document ID in the trailer.
// Not checked here by a PDF/A validator (veraPDF is Java); the tests read the result back with qpdf and poppler.
import {
  AFRelationship,
  ParseSpeeds,
  PDFArray,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFString,
} from 'pdf-lib';
import { createHash } from 'node:crypto';
import { SRGB_ICC_BASE64 } from './srgb-icc';

export interface PdfAAttachment {
  name: string;
  bytes: Uint8Array;
  mimeType: string;
  description?: string;
  /** Source (the document the PDF was made from; the default) or Data. */
  relationship?: 'Source' | 'Data';
}

export interface PdfAOptions {
  title: string;
  /** Its associated files (a merge of several documents carries each one's source). */
  attachments?: PdfAAttachment[];
  /** The document's dates (Info and XMP); now by default. */
  date?: Date;
}

export const PDFA_PRODUCER = 'Documents API (Chromium + pdf-lib)';

const xmlEscape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** XMP dates are ISO 8601; whole seconds in UTC, as the Info dictionary's D:YYYYMMDDHHmmSSZ. */
const xmpDate = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function xmp(title: string, date: Date): string {
  const when = xmpDate(date);
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdfaid:part>3</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlEscape(title)}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreatorTool>${PDFA_PRODUCER}</xmp:CreatorTool>
   <xmp:CreateDate>${when}</xmp:CreateDate>
   <xmp:ModifyDate>${when}</xmp:ModifyDate>
   <xmp:MetadataDate>${when}</xmp:MetadataDate>
   <pdf:Producer>${PDFA_PRODUCER}</pdf:Producer>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/** Chromium's PDF → PDF/A-3b, with `attachments` (if any) embedded as its associated files. */
export async function toPdfA3(pdf: Uint8Array, options: PdfAOptions): Promise<Buffer> {
  // Whole seconds: the Info dictionary's dates carry no fractions, and the XMP must say the same.
  const date = new Date(Math.floor((options.date ?? new Date()).getTime() / 1000) * 1000);
  // pdf-lib yields to the event loop with a setTimeout(0) every 100 objects parsed (and every 50 saved) by default:
  // a multi-page invoice then waits ~1 ms per yield, more on a loaded machine (measured: a 5-page CFDI spent more
  // time here than in Chromium). One document per invocation has nothing to yield to.
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const { context, catalog } = doc;

  doc.setTitle(options.title, { showInWindowTitleBar: true });
  doc.setCreator(PDFA_PRODUCER);
  doc.setProducer(PDFA_PRODUCER);
  doc.setCreationDate(date);
  doc.setModificationDate(date);

  // UTF-8 bytes: pdf-lib writes a string's UTF-16 code units as single bytes (Latin-1).
  const metadata = context.stream(new Uint8Array(Buffer.from(xmp(options.title, date), 'utf8')), {
    Type: 'Metadata',
    Subtype: 'XML',
  });
  catalog.set(PDFName.of('Metadata'), context.register(metadata));

  const icc = context.flateStream(Buffer.from(SRGB_ICC_BASE64, 'base64'), { N: 3 });
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: context.register(icc),
  });
  catalog.set(PDFName.of('OutputIntents'), context.obj([context.register(intent)]));

  for (const a of options.attachments ?? []) {
    await doc.attach(a.bytes, a.name, {
      mimeType: a.mimeType,
      description: a.description,
      creationDate: date,
      modificationDate: date,
      afRelationship: a.relationship === 'Data' ? AFRelationship.Data : AFRelationship.Source,
    });
  }

  // A permanent and a changing ID (ISO 32000 14.4); Chromium's PDFs carry none.
  if (!context.trailerInfo.ID) {
    const id = createHash('md5').update(pdf).update(date.toISOString()).digest('hex');
    const hex = PDFHexString.of(id);
    context.trailerInfo.ID = PDFArray.withContext(context);
    (context.trailerInfo.ID as PDFArray).push(hex);
    (context.trailerInfo.ID as PDFArray).push(hex);
  }
  return Buffer.from(await doc.save({ useObjectStreams: false, objectsPerTick: Infinity }));
}
