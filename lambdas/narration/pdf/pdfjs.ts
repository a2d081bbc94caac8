// Reads a PDF with Mozilla's pdf.js (pdfjs-dist, legacy build for Node): positioned text runs per page, the outline
// and the metadata title. Runs inside a worker thread (isolate.ts), never on the request thread: a crafted content
// stream can keep pdf.js busy synchronously for minutes, and only terminating the thread stops it.
// Why pdf.js: the most used PDF engine in JavaScript, maintained by Mozilla, pure JS (no native binary for arm64
// Lambda), and its getTextContent gives each run's position, which finding headers, footers and columns needs.
// Pinned to 5.4.x: 5.5+ requires Node 22.13, and local development runs Node 20.
import { PdfRejected } from './errors';
import type { OutlineEntry, PdfLimits, RawPage, TextRun } from './types';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;

let pdfjsModule: Promise<Pdfjs> | undefined;

/**
 * pdf.js's display layer builds a DOMMatrix when it loads (for canvas rendering, which we never do). In Node it
 * borrows one from the optional native @napi-rs/canvas, which is not in the Lambda bundle (and is x64 here, arm64
 * there): without this stand-in the import fails there with "DOMMatrix is not defined". Text extraction never
 * computes with it.
 */
function ensureDomMatrix(): void {
  const g = globalThis as { DOMMatrix?: unknown };
  if (g.DOMMatrix) return;
  g.DOMMatrix = class DOMMatrix {
    a = 1;
    b = 0;
    c = 0;
    d = 1;
    e = 0;
    f = 0;
    constructor(init?: [number, number, number, number, number, number]) {
      if (Array.isArray(init) && init.length === 6) [this.a, this.b, this.c, this.d, this.e, this.f] = init;
    }
  };
}

/** Loads pdf.js with its "worker" in this thread: no worker file to fetch, nothing loaded from disk or network. */
export function loadPdfjs(): Promise<Pdfjs> {
  pdfjsModule ??= (async () => {
    ensureDomMatrix();
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return pdfjsModule;
}

export interface RawDocument {
  pageCount: number;
  pages: RawPage[];
  outline: OutlineEntry[];
  title?: string;
}

const MAX_OUTLINE_ENTRIES = 500;

function describe(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.replace(/\s+/g, ' ').slice(0, 160);
}

function readFailure(err: unknown): PdfRejected {
  const name = (err as { name?: string })?.name;
  if (name === 'PasswordException')
    return new PdfRejected(
      'pdf_encrypted',
      'The PDF is protected with a password, so its text cannot be read. Open it, save or print a copy without ' +
        'a password (e.g. "Print to PDF"), and upload that copy.',
    );
  return new PdfRejected(
    'pdf_invalid',
    `The PDF is damaged and cannot be read (${describe(err)}). Open it in a PDF viewer and save or export it ` +
      'again (e.g. "Print to PDF"), then upload the new file.',
  );
}

/** Counts characters the way the limit does, without building the whole text. */
function runChars(runs: TextRun[]): number {
  let n = 0;
  for (const r of runs) n += r.text.length + 1;
  return n;
}

export interface ReadOptions {
  limits: Pick<PdfLimits, 'maxPages' | 'maxChars'>;
  /** Stops reading pages when this returns true (time budget), with a rejection. */
  expired?: () => boolean;
}

export async function readPdf(bytes: Uint8Array, options: ReadOptions): Promise<RawDocument> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: bytes,
    // Font programs are never compiled to JS functions (the CVE-2024-4367 class of bugs) nor loaded as FontFace.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    // No fetches of any kind: the bytes are all there is (no standard-font, CMap or wasm files are read).
    useWorkerFetch: false,
    disableRange: true,
    disableStream: true,
    disableAutoFetch: true,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    // Recover what can be recovered from sloppy producers, as viewers do.
    stopAtErrors: false,
    verbosity: 0,
  });
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw readFailure(err);
  }
  try {
    const pageCount = doc.numPages;
    if (pageCount > options.limits.maxPages)
      throw new PdfRejected(
        'pdf_too_many_pages',
        `The PDF has ${pageCount} pages; at most ${options.limits.maxPages} pages can be narrated at once. ` +
          'Split it into parts (e.g. by chapter) and convert each part.',
      );
    const pages: RawPage[] = [];
    // Raw text carries headers, footers and spacing that cleaning removes; stop once it is far past the limit.
    const rawCap = options.limits.maxChars * 2;
    let raw = 0;
    for (let i = 1; i <= pageCount; i++) {
      if (options.expired?.()) throw tooSlow();
      let page;
      try {
        page = await doc.getPage(i);
      } catch (err) {
        throw readFailure(err);
      }
      const viewport = page.getViewport({ scale: 1 });
      let content;
      try {
        content = await page.getTextContent();
      } catch (err) {
        // A broken page is skipped (viewers show it blank); the rest of the document is still narrated.
        content = { items: [] };
        void err;
      }
      const runs: TextRun[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        // Page space → viewport space (origin top-left, page rotation applied).
        const [a, b, c, d, e, f] = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
        const size = Math.hypot(c!, d!);
        // Only left-to-right horizontal text: rotated stamps, watermarks and margin notes are not narrated.
        if (!(a! > 0) || Math.abs(b!) > Math.abs(a!) * 0.05 || size < 1) continue;
        const scaleX = Math.hypot(a!, b!) / Math.max(1e-6, Math.hypot(item.transform[0], item.transform[1]));
        runs.push({ text: item.str, x: e!, y: f!, width: item.width * scaleX, size });
      }
      pages.push({ width: viewport.width, height: viewport.height, runs });
      page.cleanup();
      raw += runChars(runs);
      if (raw > rawCap) throw tooLong(options.limits.maxChars, raw, i, pageCount);
    }
    return { pageCount, pages, outline: await readOutline(doc), title: await readTitle(doc) };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

export function tooSlow(): PdfRejected {
  return new PdfRejected(
    'pdf_too_complex',
    'The PDF is too complex to read in the time or memory available (it may contain huge or deeply compressed ' +
      'content). Re-export it with "Print to PDF" or "Reduce file size", or split it, and upload it again.',
  );
}

export function tooLong(
  maxChars: number,
  chars: number,
  pagesRead?: number,
  pageCount?: number,
): PdfRejected {
  const where =
    pagesRead && pageCount && pagesRead < pageCount
      ? ` (counted in the first ${pagesRead} of ${pageCount} pages)`
      : '';
  return new PdfRejected(
    'pdf_text_too_long',
    `The PDF has more than ${maxChars.toLocaleString('en-US')} characters of text${where}, the limit for one ` +
      `conversion (about ${Math.round(chars / 1000)}k found). Split it into parts (e.g. by chapter) and convert each part.`,
  );
}

async function readTitle(doc: PdfDocument): Promise<string | undefined> {
  try {
    const meta = await doc.getMetadata();
    const title = (meta.info as { Title?: unknown } | undefined)?.Title;
    return typeof title === 'string' && title.trim() ? title.trim().slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

type OutlineNode = Awaited<ReturnType<PdfDocument['getOutline']>>[number];

async function readOutline(doc: PdfDocument): Promise<OutlineEntry[]> {
  let roots: OutlineNode[] | null;
  try {
    roots = await doc.getOutline();
  } catch {
    return [];
  }
  const out: OutlineEntry[] = [];
  const walk = async (nodes: OutlineNode[], level: number): Promise<void> => {
    for (const node of nodes) {
      if (out.length >= MAX_OUTLINE_ENTRIES || level > 16) return;
      const title = (node.title ?? '').replace(/\s+/g, ' ').trim();
      if (title) out.push({ title, level, page: await destinationPage(doc, node.dest) });
      if (node.items?.length) await walk(node.items, level + 1);
    }
  };
  await walk(roots ?? [], 0);
  return out;
}

async function destinationPage(doc: PdfDocument, dest: OutlineNode['dest']): Promise<number | null> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    const target = explicit?.[0];
    if (target === undefined || target === null) return null;
    if (typeof target === 'number') return target + 1;
    return (await doc.getPageIndex(target as Parameters<PdfDocument['getPageIndex']>[0])) + 1;
  } catch {
    return null;
  }
}
