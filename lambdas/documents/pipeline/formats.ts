// The format stage of POST /v1/render: the document model (./view.ts) rendered to the requested format by its
// renderer (formats/ for html, json, md, txt, docx, csv, xlsx, zip; Chromium through RenderDeps for pdf and png), a
// PDF then post-processed (render/post-process.ts). A zip bundles the template's formats, its attachments (factura:
// the CFDI XML), data.json and a LEEME.txt naming each file.
import { CONTENT_TYPES, type Format } from '../core/formats';
import { renderCsv } from '../formats/csv';
import { renderDocx } from '../formats/docx';
import { renderHtml } from '../formats/html';
import { dataJson, renderJson } from '../formats/json';
import { renderMd } from '../formats/md';
import { renderTxt } from '../formats/txt';
import type { DocumentModel, RenderedFile } from '../formats/types';
import { renderXlsx } from '../formats/xlsx';
import { buildZip, type ZipEntry } from '../formats/zip';
import type { PdfOptions } from '../render/page-options';
import type { PdfAAttachment, PdfAOptions } from '../render/pdfa';
import { postProcess, WATERMARK_TEXT } from '../render/post-process';
import type { RenderDeps } from '../ports';
import { protectionOf, wantsPdfA, type SingleRenderRequest } from '../request/valid-request';

export interface RenderContext {
  /** Free plan: the renderer stamps WATERMARK_TEXT on every PDF page (also the PDF inside a zip). */
  watermark?: boolean;
  /** Where this document sits in the request, for error locations: ['body'], or ['body', 'documents', i] in a merge. */
  at?: (string | number)[];
  /**
   * Stops the render (WorkStopped) when aborted, before the next document of a merge or the next format: the
   * caller was already answered (the route's deadline), so the rest would be work for nobody.
   */
  signal?: AbortSignal;
}

function readme(model: DocumentModel, entries: ZipEntry[], request: SingleRenderRequest): string {
  const notes =
    request.kind === 'template' && !request.xml
      ? (request.template.readmeNotes?.(request.data as never) ?? [])
      : [];
  const what: Record<string, string> = {
    pdf: 'el documento listo para imprimir (PDF)',
    html: 'el documento como página web, con los estilos incorporados (HTML)',
    xlsx: 'la tabla para Excel o LibreOffice, con formatos y totales (XLSX)',
    csv: 'la tabla como texto separado por comas, UTF-8 (CSV, RFC 4180)',
    docx: 'el documento editable para Word (DOCX)',
    md: 'el texto en Markdown (MD)',
    txt: 'el texto plano (TXT)',
    png: 'una imagen del documento (PNG)',
    json: 'los datos del documento (JSON)',
  };
  const lines = entries.map((e) => {
    const ext = e.name.slice(e.name.lastIndexOf('.') + 1);
    return `  ${e.name.padEnd(22)} ${e.name === 'data.json' ? 'los datos con los que se generó, validados (JSON)' : (e.description ?? what[ext] ?? '')}`;
  });
  const origin =
    request.kind === 'template'
      ? `la plantilla «${request.template.meta.slug}»`
      : 'una plantilla propia (custom_html)';
  return [
    model.title,
    '',
    `Generado a partir de ${origin}. Contenido de este archivo:`,
    '',
    ...lines,
    '  LEEME.txt              este archivo',
    '',
    ...(notes.length ? [...notes, ''] : []),
  ].join('\r\n');
}

/** The formats bundled in a zip: the template's own (zip aside); a custom template's html and pdf. */
export function zipFormats(request: SingleRenderRequest): Format[] {
  const own = request.kind === 'template' ? request.template.meta.formats : (['html', 'pdf'] as const);
  return own.filter((f) => f !== 'zip' && f !== 'json');
}

export async function renderFormat(
  format: Format,
  model: DocumentModel,
  request: SingleRenderRequest,
  deps: RenderDeps,
  ctx: RenderContext,
  page: () => Promise<PdfOptions>,
): Promise<RenderedFile> {
  switch (format) {
    case 'pdf': {
      const pdfa = wantsPdfA(request);
      // The renderer draws the watermark in the page (its font embedded by Chromium: PDF/A holds).
      const options = { ...(await page()), ...(ctx.watermark ? { watermark: WATERMARK_TEXT } : {}) };
      const pdf = await postProcess(await deps.renderPdf(model.html, options), {
        ...(pdfa ? { pdfa: pdfAOptions(model, request) } : {}),
        // Validation allows a protection only for format pdf: the PDF inside a zip is never protected.
        ...(request.format === 'pdf' ? { protection: protectionOf(request.options) } : {}),
      });
      return { bytes: pdf, contentType: CONTENT_TYPES.pdf, extension: 'pdf' };
    }
    case 'png':
      // A screenshot of the page as a browser shows it (the renderer's default viewport, full height).
      return {
        bytes: await deps.renderPng(model.html, {}),
        contentType: CONTENT_TYPES.png,
        extension: 'png',
      };
    case 'html':
      return renderHtml(model);
    case 'json':
      return renderJson(model);
    case 'md':
      return renderMd(model);
    case 'txt':
      return renderTxt(model);
    case 'docx':
      return renderDocx(model);
    case 'csv':
      return renderCsv(model, { csvBom: request.options.csv_bom });
    case 'xlsx':
      return renderXlsx(model);
    case 'zip': {
      const entries: ZipEntry[] = [];
      for (const f of zipFormats(request)) {
        const file = await renderFormat(f, model, request, deps, ctx, page);
        entries.push({ name: `${model.baseName}.${file.extension}`, bytes: file.bytes });
      }
      // Files the template builds from the same data (factura: the CFDI 4.0 XML).
      if (request.kind === 'template')
        entries.push(
          ...(request.xml?.attachments ?? request.template.attachments?.(request.data as never) ?? []),
        );
      entries.push({ name: 'data.json', bytes: dataJson(model.data) });
      const all = [...entries];
      entries.push({ name: 'LEEME.txt', bytes: Buffer.from(readme(model, all, request), 'utf8') });
      return buildZip(entries);
    }
  }
}

/** The PDF/A's associated file: the XML it was printed from, or the validated data (data.json). */
export function pdfASource(request: SingleRenderRequest, data: unknown): PdfAAttachment {
  const xml = request.kind === 'template' ? request.xml?.embedded : undefined;
  return xml
    ? { ...xml, relationship: 'Source', description: 'CFDI del que se imprimió este PDF' }
    : {
        name: 'data.json',
        bytes: dataJson(data),
        mimeType: 'application/json',
        relationship: 'Source',
        description: 'Datos con los que se generó este PDF',
      };
}

function pdfAOptions(model: DocumentModel, request: SingleRenderRequest): PdfAOptions {
  return { title: model.title, attachments: [pdfASource(request, model.data)] };
}
