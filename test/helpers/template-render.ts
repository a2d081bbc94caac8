// The built-in templates end to end without HTTP: renderDocument() with one real Chromium Renderer per test file,
// the outputs written to a temp dir, and the independent tools (poppler's pdfinfo, pdftotext, pdftoppm; zbarimg) that
// read them back. `templateRenderer(slug)` registers its own beforeAll/afterAll; call it at the top of a test file.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  renderDocument,
  validateRenderRequest,
  type RenderContext,
} from '../../lambdas/documents/use-cases/render-request';
import { Renderer } from '../../lambdas/documents/render/chromium';
import { tempDir } from './env';
import { pdftotext, requirePdftotext } from './pdftotext';

/** Part of a page, in fractions of its width (x, w) and height (y, h), from the top left corner. */
export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TemplateRenderer {
  /** The temp dir the outputs are written to (set in beforeAll). */
  readonly dir: string;
  /** Validates (a 400 would throw with its problems) and renders; the bytes are also written to `file`. */
  render(data: unknown, format?: string, options?: unknown): Promise<{ file: string; bytes: Buffer }>;
  /** Any POST /v1/render body for this template (e.g. with cfdi_xml instead of data). */
  renderBody(
    body: Record<string, unknown>,
    ctx?: RenderContext,
  ): Promise<{ file: string; bytes: Buffer; warnings?: string[] }>;
  /** `render`, answering only the file written. */
  renderFile(data: unknown, format?: string, options?: unknown): Promise<string>;
  /**
   * The QR code zbarimg finds on `page` of a PDF, rasterised in grey at `dpi` by pdftoppm; only `region` (fractions
   * of the page from its top left corner) is rasterised. (zbarimg reads a page region in ~10 ms where jsQR and a
   * PNG decode took 1–3 s on a loaded machine.)
   */
  qrInPdf(file: string, opts?: { page?: number; dpi?: number; region?: Region }): string | undefined;
}

export function templateRenderer(slug: string): TemplateRenderer {
  let renderer: Renderer;
  let dir: { path: string; cleanup(): void } | undefined;
  let n = 0;

  beforeAll(() => {
    requirePdftotext();
    renderer = new Renderer();
    dir = tempDir(`tpl-${slug}-`);
  });
  afterAll(async () => {
    await renderer?.close();
    dir?.cleanup();
  });

  const renderBody = async (body: Record<string, unknown>, ctx?: RenderContext) => {
    const check = validateRenderRequest({ template: slug, format: 'pdf', ...body });
    if (!check.ok) throw new Error(JSON.stringify(check.problems));
    const doc = await renderDocument(
      check.request,
      {
        renderPdf: (html, o) => renderer.renderPdf(html, o),
        renderPng: (html, o) => renderer.renderPng(html, o),
      },
      ctx,
    );
    const file = join(dir!.path, `${slug}-${++n}.${check.request.format}`);
    writeFileSync(file, doc.bytes);
    return { file, bytes: doc.bytes, warnings: doc.warnings };
  };
  const render = (data: unknown, format = 'pdf', options?: unknown) => renderBody({ format, data, options });

  return {
    get dir() {
      return dir!.path;
    },
    render,
    renderBody,
    renderFile: async (data, format, options) => (await render(data, format, options)).file,
    qrInPdf(file, { page = 1, dpi = 300, region = { x: 0, y: 0, w: 1, h: 1 } } = {}) {
      const { width, height } = pdfInfo(file);
      const px = (pt: number) => String(Math.round((pt * dpi) / 72));
      const { x, y, w, h } = region;
      const base = join(dir!.path, `qr-${++n}`);
      execFileSync('pdftoppm', [
        '-gray',
        '-r',
        String(dpi),
        '-f',
        String(page),
        '-l',
        String(page),
        '-x',
        px(width * x),
        '-y',
        px(height * y),
        '-W',
        px(width * w),
        '-H',
        px(height * h),
        '-singlefile',
        file,
        base,
      ]);
      return zbarQr(`${base}.pgm`);
    },
  };
}

/**
 * The QR code zbarimg (ZBar, Debian's zbar-tools: a decoder we did not write, in C) reads in an image file, or
 * undefined when it finds none (exit status 4).
 */
export function zbarQr(image: string): string | undefined {
  try {
    const out = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', image], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return out.replace(/\n$/, '');
  } catch (err) {
    if ((err as { status?: number }).status === 4) return undefined;
    throw err;
  }
}

/** pdfinfo's page count and the first page's size in points (`size` as pdfinfo writes it, e.g. "612 x 792"). */
export function pdfInfo(file: string): { pages: number; width: number; height: number; size: string } {
  const out = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const size = /Page size:\s+(([\d.]+) x ([\d.]+))/.exec(out)!;
  return {
    pages: Number(/Pages:\s+(\d+)/.exec(out)![1]),
    width: Number(size[2]),
    height: Number(size[3]),
    size: size[1]!,
  };
}

/** pdftotext's text page by page (it ends each with a form feed); `layout` keeps each table row on one line. */
export function pdfTextPages(file: string, layout = false): string[] {
  const text = layout
    ? execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-q', file, '-'], { encoding: 'utf8' })
    : pdftotext(file);
  return text
    .split('\f')
    .slice(0, -1)
    .map((p) => (layout ? p.replace(/[ \t]+/g, ' ') : p));
}

/** Text with every run of whitespace (pdftotext's layout gaps, line breaks, no-break spaces) as one space. */
export const flat = (s: string) => s.replace(/\s+/g, ' ');
