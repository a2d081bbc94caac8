// Pure translation of the renderer's page options (page size, margins, orientation, header/footer templates, PNG
// viewport) into puppeteer's PDF/screenshot options, with validation whose messages name the fix. No Chromium here:
// unit-tested in test/unit/documents-render.test.ts.
import type { PDFOptions } from 'puppeteer-core';
import { RenderInputError } from './errors';

export const PAGE_FORMATS = ['A4', 'Letter', 'Legal', 'A3', 'A5', 'Tabloid'] as const;
export type PageFormat = (typeof PAGE_FORMATS)[number];

/** A CSS length with a unit Chromium's printer understands: `210mm`, `21cm`, `8.5in`, `800px`. */
export type Length = string;
export interface CustomPageSize {
  width: Length;
  height: Length;
}
export interface Margin {
  top?: Length;
  right?: Length;
  bottom?: Length;
  left?: Length;
}

export interface PdfOptions {
  /** A named size (case-insensitive), `"210mm x 297mm"`, or `{width, height}`. Default: the CSS `@page { size }`
   * of the document when it declares one, else A4. */
  pageSize?: PageFormat | string | CustomPageSize;
  /** Swap width and height. */
  landscape?: boolean;
  /** One length for all sides, or per side. Default 10 mm; 20 mm top/bottom where a header/footer is drawn. */
  margin?: Length | Margin;
  /** Chromium header template, drawn in the top margin of every page (see docs/documents-rendering.md). */
  headerHtml?: string;
  /** Chromium footer template, drawn in the bottom margin of every page. */
  footerHtml?: string;
  /** Free tier: this text is drawn diagonally on every page, in the page before printing (render/watermark.ts). */
  watermark?: string;
  /** Print CSS backgrounds and colours (default true). */
  printBackground?: boolean;
  /** Run the document's inline scripts. Only for trusted built-in templates, never for caller HTML. */
  allowScripts?: boolean;
  /** Overrides the renderer's per-render timeout. */
  timeoutMs?: number;
}

export interface PngOptions {
  /** Viewport width in CSS pixels (default 1024, 100–4000). */
  width?: number;
  /** Viewport height in CSS pixels (default 768, 100–16384); with fullPage the image grows to the content. */
  height?: number;
  /** Capture the whole document height, up to `MAX_PNG_HEIGHT` CSS pixels (default true). */
  fullPage?: boolean;
  /** Device pixels per CSS pixel (default 1, 1–3). */
  deviceScaleFactor?: number;
  /** Transparent background where the document paints none (default false: white). */
  transparent?: boolean;
  allowScripts?: boolean;
  timeoutMs?: number;
}

export const MAX_PNG_HEIGHT = 16_384;
const MAX_TEMPLATE_CHARS = 100_000;

const LENGTH_RE = /^(\d+(?:\.\d+)?)(mm|cm|in|px)$/;
const PX_PER_UNIT: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

/** CSS pixels of a length, or undefined when it is not `<number><mm|cm|in|px>` (or a bare 0). */
export function lengthToPx(value: string): number | undefined {
  const v = value.trim().toLowerCase();
  if (v === '0') return 0;
  const m = LENGTH_RE.exec(v);
  return m ? Number(m[1]) * PX_PER_UNIT[m[2]!]! : undefined;
}

function length(
  value: unknown,
  label: string,
  { min, max }: { min: number; max: number },
  field = label,
): string {
  const px = typeof value === 'string' ? lengthToPx(value) : undefined;
  if (px === undefined)
    throw new RenderInputError(
      `${label} must be a length with a unit, such as "10mm", "1.5cm", "0.5in" or "40px"`,
      field,
    );
  if (px < min || px > max)
    throw new RenderInputError(
      `${label} must be between ${(min / PX_PER_UNIT.mm!).toFixed(0)}mm and ${(max / PX_PER_UNIT.mm!).toFixed(0)}mm`,
      field,
    );
  return (value as string).trim().toLowerCase();
}

const PAGE_MIN = 25 * PX_PER_UNIT.mm!; // 25 mm: a label
const PAGE_MAX = 2000 * PX_PER_UNIT.mm!; // 2 m: a banner

/** Named or custom page size → puppeteer's `format` or `width`/`height`. */
export function parsePageSize(
  input: PdfOptions['pageSize'],
  field = 'options.page_size',
): Pick<PDFOptions, 'format' | 'width' | 'height'> {
  if (input === undefined) return { format: 'A4' };
  if (typeof input === 'string') {
    const named = PAGE_FORMATS.find((f) => f.toLowerCase() === input.trim().toLowerCase());
    if (named) return { format: named };
    const m = /^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|px)?\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|px)\s*$/i.exec(
      input,
    );
    if (!m)
      throw new RenderInputError(
        `${field} must be one of ${PAGE_FORMATS.join(', ')} or a custom size such as "210mm x 297mm" or ` +
          '{"width": "8.5in", "height": "11in"}',
        field,
      );
    const unit = (m[2] ?? m[4]!).toLowerCase();
    return {
      width: length(`${m[1]}${unit}`, `${field} width`, { min: PAGE_MIN, max: PAGE_MAX }, field),
      height: length(
        `${m[3]}${m[4]!.toLowerCase()}`,
        `${field} height`,
        { min: PAGE_MIN, max: PAGE_MAX },
        field,
      ),
    };
  }
  if (typeof input === 'object' && input !== null) {
    return {
      width: length(input.width, `${field}.width`, { min: PAGE_MIN, max: PAGE_MAX }),
      height: length(input.height, `${field}.height`, { min: PAGE_MIN, max: PAGE_MAX }),
    };
  }
  throw new RenderInputError(`${field} must be a string or an object {width, height}`, field);
}

/** Margins; defaults leave room for a header/footer when one is drawn. */
export function parseMargin(
  input: PdfOptions['margin'],
  { header, footer }: { header: boolean; footer: boolean },
  field = 'options.margin',
): Required<Margin> {
  const defaults: Required<Margin> = {
    top: header ? '20mm' : '10mm',
    right: '10mm',
    bottom: footer ? '20mm' : '10mm',
    left: '10mm',
  };
  if (input === undefined) return defaults;
  const bound = { min: 0, max: 200 * PX_PER_UNIT.mm! };
  if (typeof input === 'string') {
    const all = length(input, field, bound);
    return { top: all, right: all, bottom: all, left: all };
  }
  if (typeof input !== 'object' || input === null)
    throw new RenderInputError(
      `${field} must be a length such as "10mm" or an object {top, right, bottom, left}`,
      field,
    );
  const out = { ...defaults };
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    if (input[side] !== undefined) out[side] = length(input[side], `${field}.${side}`, bound);
  }
  return out;
}

/**
 * Header/footer templates are rendered by Chromium in a separate document with no network; measured on Chromium 147:
 * an external stylesheet there (`<link rel=stylesheet>`, `@import`, `@font-face` with a URL) makes printing crash
 * the browser (single-process) or fail. So they may not contain those; inline `<style>` and `style=""` are fine, and
 * a `<style>` may not hide an at-rule behind a CSS escape (`@\69mport`).
 */
export function checkHeaderFooterTemplate(html: string, field: string): void {
  if (html.length > MAX_TEMPLATE_CHARS)
    throw new RenderInputError(`${field} is longer than ${MAX_TEMPLATE_CHARS} characters`, field);
  const fix = 'use the bundled fonts by name (Noto Sans, Noto Serif, Noto Sans Mono) and inline styles';
  if (/<link/i.test(html))
    throw new RenderInputError(`${field} cannot contain <link> elements: ${fix}`, field);
  if (/@import|@font-face/i.test(html))
    throw new RenderInputError(`${field} cannot contain @import or @font-face: ${fix}`, field);
  if (/<style/i.test(html) && html.includes('\\'))
    throw new RenderInputError(
      `${field} cannot contain backslashes (CSS escapes) when it has a <style> element`,
      field,
    );
}

/**
 * Chromium draws header/footer templates at a ~1 pt default font size, flush with the paper edge. The caller's markup
 * goes inside a box with readable defaults (9 pt Noto Sans, aligned with the page's side margins) that its own
 * styles override.
 */
export function wrapHeaderFooter(html: string, margin: Required<Margin>): string {
  const style = [
    'box-sizing: border-box',
    'width: 100%',
    `padding: 0 ${margin.right} 0 ${margin.left}`,
    'font-family: "Noto Sans", sans-serif',
    'font-size: 9pt',
    'color: #333',
  ].join('; ');
  return `<div style='${style}'>${html}</div>`;
}

/** Everything puppeteer's page.pdf needs, except the timeout. */
export function toPuppeteerPdfOptions(opts: PdfOptions): PDFOptions {
  const header = opts.headerHtml !== undefined && opts.headerHtml !== '';
  const footer = opts.footerHtml !== undefined && opts.footerHtml !== '';
  if (header) checkHeaderFooterTemplate(opts.headerHtml!, 'options.header_html');
  if (footer) checkHeaderFooterTemplate(opts.footerHtml!, 'options.footer_html');
  const size = parsePageSize(opts.pageSize);
  const margin = parseMargin(opts.margin, { header, footer });
  return {
    ...size,
    // Without an explicit size the document's own `@page { size }` wins (templates can declare theirs).
    preferCSSPageSize: opts.pageSize === undefined,
    landscape: opts.landscape === true,
    margin,
    printBackground: opts.printBackground !== false,
    displayHeaderFooter: header || footer,
    // An empty template, not Chromium's default (date, title, URL), on the side the caller left out.
    headerTemplate: header ? wrapHeaderFooter(opts.headerHtml!, margin) : '<span></span>',
    footerTemplate: footer ? wrapHeaderFooter(opts.footerHtml!, margin) : '<span></span>',
  };
}

export interface PngViewport {
  width: number;
  height: number;
  deviceScaleFactor: number;
  fullPage: boolean;
  transparent: boolean;
}

function intIn(value: unknown, field: string, min: number, max: number, dflt: number): number {
  if (value === undefined) return dflt;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new RenderInputError(`${field} must be an integer from ${min} to ${max}`, field);
  return value;
}

export function parsePngOptions(opts: PngOptions): PngViewport {
  const dsf = opts.deviceScaleFactor ?? 1;
  if (typeof dsf !== 'number' || !(dsf >= 1 && dsf <= 3))
    throw new RenderInputError(
      'options.device_scale_factor must be a number from 1 to 3',
      'options.device_scale_factor',
    );
  return {
    width: intIn(opts.width, 'options.width', 100, 4000, 1024),
    height: intIn(opts.height, 'options.height', 100, MAX_PNG_HEIGHT, 768),
    deviceScaleFactor: dsf,
    fullPage: opts.fullPage !== false,
    transparent: opts.transparent === true,
  };
}
