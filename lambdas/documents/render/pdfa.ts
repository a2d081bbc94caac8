// PDF/A-3b from Chromium's PDF (options.pdfa; the default for a factura printed from its CFDI XML): what ISO 19005-3
// asks of a file whose fonts Chromium already embeds (subsets, checked with pdffonts in the tests):
//   - the XMP metadata stream (uncompressed) declaring pdfaid:part 3 / conformance B, with dc:title, producer and
//     dates equal to the Info dictionary's;
//   - an sRGB output intent (/GTS_PDFA1, ICC's sRGB2014 profile, srgb-icc.ts);
//   - the source file (the CFDI XML; one per document of a merge) as an associated file: an embedded file with its MIME type and dates, its
//     file specification with /AFRelationship, the catalog's /AF array and its EmbeddedFiles name tree;
//   - a document ID in the trailer.
// Written as an incremental update (ISO 32000-1 7.5.6): the file as it came, then the new objects, a new catalog and
// Info dictionary, and an xref section whose trailer points back (/Prev) at the file's own. Nothing of the pages is
// read or written again, so the step costs the same for a 1-page and a 20-page document (re-parsing and re-saving the
// whole file with pdf-lib cost ~2–4 ms a page and grew with the text). That needs the file to end in a classic xref
// table, as Chromium's (Skia) and pdf-lib's saves (merge, watermark) do; any other input (an xref stream, encryption,
// files already embedded) is rewritten whole by pdf-lib instead (rewritePdfA3).
// Not checked here by a PDF/A validator (veraPDF is Java); the tests read the result back with qpdf and poppler.
import {
  AFRelationship,
  ParseSpeeds,
  PDFArray,
  PDFBool,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
  PDFString,
} from 'pdf-lib';
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
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
  const base = readLastRevision(pdf);
  return base ? appendPdfA3(pdf, base, options, date) : rewritePdfA3(pdf, options, date);
}

/** A permanent and a changing ID (ISO 32000 14.4); Chromium's PDFs carry none. */
function documentId(pdf: Uint8Array, date: Date): PDFHexString {
  return PDFHexString.of(createHash('md5').update(pdf).update(date.toISOString()).digest('hex'));
}

/** The same profile in every file: compressed once per process. */
let iccFlate: Buffer | undefined;
const compressedIcc = () => (iccFlate ??= deflateSync(Buffer.from(SRGB_ICC_BASE64, 'base64')));

/**
 * What either way of writing adds the same: the XMP stream (uncompressed, UTF-8) and the sRGB output intent with its
 * ICC profile, each stored by `store` (a new object of the update, or of pdf-lib's document).
 */
function pdfAParts(context: PDFContext, title: string, date: Date, store: (o: PDFObject) => PDFRef) {
  const xmpBytes = new Uint8Array(Buffer.from(xmp(title, date), 'utf8'));
  const metadata = store(PDFRawStream.of(context.obj({ Type: 'Metadata', Subtype: 'XML' }), xmpBytes));
  const profile = store(PDFRawStream.of(context.obj({ N: 3, Filter: 'FlateDecode' }), compressedIcc()));
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: profile,
  });
  return { metadata, intents: context.obj([store(intent)]) };
}

// ---- the incremental update ------------------------------------------------------------------------------------

interface Revision {
  context: PDFContext;
  /** The last xref table's offset (the update's /Prev). */
  xrefAt: number;
  trailer: PDFDict;
  catalogRef: PDFRef;
  catalog: PDFDict;
  /** Reads an object of the file by reference (direct objects only: a dictionary, array, name, number…). */
  lookup(ref: PDFRef): PDFObject | undefined;
}

const latin1 = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, Math.min(to, bytes.length) - from)).toString(
    'latin1',
  );

/**
 * The file's last revision as the update needs it: its xref table (classic, with /Prev chains followed), trailer and
 * catalog. Undefined when the file is not one the update can extend safely: an xref stream (or no xref), encryption,
 * or a catalog that already carries associated or embedded files (the whole-file rewrite handles those).
 */
function readLastRevision(pdf: Uint8Array): Revision | undefined {
  const end = latin1(pdf, Math.max(0, pdf.length - 64), pdf.length);
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(end);
  if (!m) return undefined;
  const xrefAt = Number(m[1]);
  const context = PDFContext.create();
  const sections: { at: number; trailer: PDFDict }[] = [];
  // Each section: "xref", subsection headers ("first count") each followed by count 20-byte entries, "trailer <<…>>".
  for (let at: number | undefined = xrefAt; at !== undefined;) {
    if (sections.length > 64 || at < 0 || at >= pdf.length || latin1(pdf, at, at + 4) !== 'xref')
      return undefined;
    const t = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.length).indexOf('trailer', at, 'latin1');
    if (t < 0) return undefined;
    const trailer = parseAt(pdf, t + 'trailer'.length, context);
    if (!(trailer instanceof PDFDict)) return undefined;
    sections.push({ at, trailer });
    const prev = trailer.get(PDFName.of('Prev'));
    at = prev instanceof PDFNumber ? prev.asNumber() : undefined;
  }
  const trailer = sections[0]!.trailer;
  if (trailer.has(PDFName.of('Encrypt'))) return undefined;

  /** Where object `ref` starts: its entry in the newest section that lists it. */
  const offsetOf = (ref: PDFRef): number | undefined => {
    for (const { at } of sections) {
      let pos = at + 4;
      for (;;) {
        const head = /^\s*(\d+) (\d+)[ \t]*\r?\n?/.exec(latin1(pdf, pos, pos + 48));
        if (!head) break; // "trailer"
        const first = Number(head[1]);
        const count = Number(head[2]);
        pos += head[0].length;
        if (ref.objectNumber >= first && ref.objectNumber < first + count) {
          const entry = /^(\d{10}) (\d{5}) ([nf])/.exec(
            latin1(pdf, pos + 20 * (ref.objectNumber - first), pos + 20 * (ref.objectNumber - first) + 18),
          );
          if (!entry || entry[3] !== 'n' || Number(entry[2]) !== ref.generationNumber) return undefined;
          return Number(entry[1]);
        }
        pos += 20 * count;
      }
    }
    return undefined;
  };
  const lookup = (ref: PDFRef): PDFObject | undefined => {
    const at = offsetOf(ref);
    if (at === undefined) return undefined;
    const head = /^\s*(\d+)\s+(\d+)\s+obj/.exec(latin1(pdf, at, at + 40));
    if (!head || Number(head[1]) !== ref.objectNumber) return undefined;
    return parseAt(pdf, at + head[0].length, context);
  };

  const catalogRef = trailer.get(PDFName.of('Root'));
  const catalog = catalogRef instanceof PDFRef ? lookup(catalogRef) : undefined;
  if (!(catalogRef instanceof PDFRef) || !(catalog instanceof PDFDict)) return undefined;
  if (catalog.has(PDFName.of('AF'))) return undefined;
  const names = resolve(catalog.get(PDFName.of('Names')), lookup);
  if (names !== undefined && !(names instanceof PDFDict)) return undefined;
  if (names?.has(PDFName.of('EmbeddedFiles'))) return undefined;
  return { context, xrefAt, trailer, catalogRef, catalog, lookup };
}

/** The object at `offset` (a dictionary, array…; not a stream: its /Length may be a reference we have not read). */
function parseAt(pdf: Uint8Array, offset: number, context: PDFContext): PDFObject | undefined {
  try {
    return PDFObjectParser.forBytes(pdf.subarray(offset), context).parseObject();
  } catch {
    return undefined;
  }
}

const resolve = (o: PDFObject | undefined, lookup: Revision['lookup']) =>
  o instanceof PDFRef ? lookup(o) : o;

function appendPdfA3(pdf: Uint8Array, base: Revision, options: PdfAOptions, date: Date): Buffer {
  const { context, trailer, lookup } = base;
  const size = (trailer.get(PDFName.of('Size')) as PDFNumber | undefined)?.asNumber() ?? 0;
  let next = size;
  const objects = new Map<number, PDFObject>();
  /** A new object of the update. */
  const add = (o: PDFObject) => {
    const ref = PDFRef.of(next++);
    objects.set(ref.objectNumber, o);
    return ref;
  };
  /** A dictionary the catalog holds, by value or by reference: the copy to change, and how to store it back. */
  const owned = (key: string): { dict: PDFDict; store(): PDFObject } => {
    const held = base.catalog.get(PDFName.of(key));
    const found = resolve(held, lookup);
    const dict = found instanceof PDFDict ? found : context.obj({});
    return {
      dict,
      store: () => {
        if (held instanceof PDFRef && found instanceof PDFDict) {
          objects.set(held.objectNumber, dict); // the same object, redefined by the update
          return held;
        }
        return dict;
      },
    };
  };
  const catalog = base.catalog;
  const info = trailer.get(PDFName.of('Info'));
  const infoDict = context.obj({
    Title: PDFHexString.fromText(options.title),
    Creator: PDFHexString.fromText(PDFA_PRODUCER),
    Producer: PDFHexString.fromText(PDFA_PRODUCER),
    CreationDate: PDFString.fromDate(date),
    ModDate: PDFString.fromDate(date),
  });
  let infoRef: PDFRef;
  if (info instanceof PDFRef) {
    objects.set(info.objectNumber, infoDict);
    infoRef = info;
  } else infoRef = add(infoDict);

  const { metadata, intents } = pdfAParts(context, options.title, date, add);
  catalog.set(PDFName.of('Metadata'), metadata);
  catalog.set(PDFName.of('OutputIntents'), intents);
  // The title in the viewer's window (ISO 32000 12.2; what pdf-lib's setTitle(…, { showInWindowTitleBar }) sets).
  const prefs = owned('ViewerPreferences');
  prefs.dict.set(PDFName.of('DisplayDocTitle'), PDFBool.True);
  catalog.set(PDFName.of('ViewerPreferences'), prefs.store());

  // Associated files: each an embedded file stream and its file specification, listed in the catalog's /AF and in
  // its EmbeddedFiles name tree (one leaf, its names in order, as ISO 32000 7.9.6 asks).
  const specs = (options.attachments ?? []).map((a) => {
    const file = add(
      PDFRawStream.of(
        context.obj({
          Type: 'EmbeddedFile',
          Subtype: a.mimeType,
          Filter: 'FlateDecode',
          Params: {
            Size: a.bytes.length,
            CreationDate: PDFString.fromDate(date),
            ModDate: PDFString.fromDate(date),
          },
        }),
        deflateSync(a.bytes),
      ),
    );
    const spec = context.obj({
      Type: 'Filespec',
      F: PDFString.of(a.name),
      UF: PDFHexString.fromText(a.name),
      EF: { F: file },
      Desc: a.description ? PDFHexString.fromText(a.description) : undefined,
      AFRelationship: a.relationship === 'Data' ? AFRelationship.Data : AFRelationship.Source,
    });
    return { name: a.name, ref: add(spec) };
  });
  if (specs.length) {
    catalog.set(PDFName.of('AF'), context.obj(specs.map((s) => s.ref)));
    const tree = [...specs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const names = owned('Names');
    names.dict.set(
      PDFName.of('EmbeddedFiles'),
      context.obj({ Names: tree.flatMap((s) => [PDFHexString.fromText(s.name), s.ref]) }),
    );
    catalog.set(PDFName.of('Names'), names.store());
  }
  // The header says what the writer knew (Chromium: 1.4); associated files and PDF/A-3 are PDF 1.7 (ISO 32000-1).
  const header = /^%PDF-(\d)\.(\d)/.exec(latin1(pdf, 0, 16));
  if (!header || Number(header[1]) * 10 + Number(header[2]) < 17)
    catalog.set(PDFName.of('Version'), PDFName.of('1.7'));
  objects.set(base.catalogRef.objectNumber, catalog);

  // The update: the objects, an xref section of their offsets (in runs of consecutive numbers), the trailer.
  const chunks: Uint8Array[] = [pdf];
  let offset = pdf.length;
  const push = (b: Uint8Array) => {
    chunks.push(b);
    offset += b.length;
  };
  const last = pdf[pdf.length - 1];
  if (last !== 0x0a && last !== 0x0d) push(Buffer.from('\n'));
  const offsets: [number, number][] = [];
  for (const [n, o] of [...objects].sort((a, b) => a[0] - b[0])) {
    offsets.push([n, offset]);
    const body = new Uint8Array(o.sizeInBytes());
    o.copyBytesInto(body, 0);
    push(Buffer.from(`${n} 0 obj\n`, 'latin1'));
    push(body);
    push(Buffer.from('\nendobj\n', 'latin1'));
  }
  const xrefAt = offset;
  let xref = 'xref\n';
  for (let i = 0; i < offsets.length;) {
    let j = i;
    while (j + 1 < offsets.length && offsets[j + 1]![0] === offsets[j]![0] + 1) j++;
    xref += `${offsets[i]![0]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) xref += `${String(offsets[k]![1]).padStart(10, '0')} 00000 n \n`;
    i = j + 1;
  }
  // The ID's first part is the file's permanent one (kept when it has one); the second changes with each revision.
  const id = documentId(pdf, date);
  const before = trailer.get(PDFName.of('ID'));
  const permanent = before instanceof PDFArray && before.size() === 2 ? before.get(0) : id;
  const newTrailer = context.obj({
    Size: next,
    Root: base.catalogRef,
    Info: infoRef,
    Prev: base.xrefAt,
    ID: [permanent, id],
  });
  push(Buffer.from(`${xref}trailer\n${newTrailer.toString()}\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(chunks);
}

// ---- the whole-file rewrite (any other input) ------------------------------------------------------------------

async function rewritePdfA3(pdf: Uint8Array, options: PdfAOptions, date: Date): Promise<Buffer> {
  // pdf-lib yields to the event loop with a setTimeout(0) every 100 objects parsed (and every 50 saved) by default:
  // a multi-page invoice then waits ~1 ms per yield, more on a loaded machine. One document per invocation has
  // nothing to yield to.
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const { context, catalog } = doc;

  doc.setTitle(options.title, { showInWindowTitleBar: true });
  doc.setCreator(PDFA_PRODUCER);
  doc.setProducer(PDFA_PRODUCER);
  doc.setCreationDate(date);
  doc.setModificationDate(date);

  const { metadata, intents } = pdfAParts(context, options.title, date, (o) => context.register(o));
  catalog.set(PDFName.of('Metadata'), metadata);
  catalog.set(PDFName.of('OutputIntents'), intents);

  for (const a of options.attachments ?? []) {
    await doc.attach(a.bytes, a.name, {
      mimeType: a.mimeType,
      description: a.description,
      creationDate: date,
      modificationDate: date,
      afRelationship: a.relationship === 'Data' ? AFRelationship.Data : AFRelationship.Source,
    });
  }

  if (!context.trailerInfo.ID) {
    const id = documentId(pdf, date);
    context.trailerInfo.ID = context.obj([id, id]);
  }
  return Buffer.from(await doc.save({ useObjectStreams: false, objectsPerTick: Infinity }));
}
