// POST /v1/render's use case: a valid request (request/validate.ts; its schema in handlers/render.route.ts) rendered
// to its file through the pipeline, in one direction: view (pipeline/view.ts) → format renderer (pipeline/formats.ts:
// formats/, Chromium) → post-processing (render/post-process.ts) → the document, delivered by the handler
// (handlers/render.ts: inline or 303) or the render worker (use-cases/jobs-render.ts). Chromium is injected
// (RenderDeps, ../ports.ts), so this module and its tests run without a browser.
//
//   const request = parseRenderRequest(body);             // DocumentRequestError (400) naming every problem
//   const { bytes, contentType, filename } = await renderDocument(request, { renderPdf, renderPng });
import { Unavailable, WorkStopped } from '../../shared/errors';
import { CONTENT_TYPES } from '../core/formats';
import { pdfASource, renderFormat, type RenderContext } from '../pipeline/formats';
import { buildModel, pageOf } from '../pipeline/view';
import type { RenderDeps, RenderedDocument } from '../ports';
import { RenderTimeoutError } from '../render/errors';
import { mergePdfs, type MergePart } from '../render/merge';
import type { PdfAAttachment } from '../render/pdfa';
import { postProcess } from '../render/post-process';
import { callerHtmlIn, protectionOf, wantsPdfA, type ValidRenderRequest } from '../request/valid-request';

// What callers of this module use with renderDocument (the render worker, template samples, batch renders).
export { parseRenderRequest, validateRenderRequest } from '../request/validate';
export type { ValidRenderRequest } from '../request/valid-request';
export type { RenderDeps, RenderedDocument, RenderContext };

/**
 * Renders a validated request to its file. Caller templates (custom_html, header_html, footer_html) run in the
 * sandbox; their faults throw TemplateError (400). Chromium faults and bugs propagate (500 with a request id).
 */
export async function renderDocument(
  request: ValidRenderRequest,
  deps: RenderDeps,
  ctx: RenderContext = {},
): Promise<RenderedDocument> {
  if (request.kind === 'merge') return renderMerge(request, deps, ctx);
  if (ctx.signal?.aborted) throw new WorkStopped(0, 1, 'documents');
  const model = await buildModel(request, deps, ctx.at);
  let file;
  try {
    file = await renderFormat(request.format, model, request, deps, ctx, pageOf(request, deps));
  } catch (err) {
    // A built-in template (without caller HTML in header/footer) renders in well under a second even at its size
    // limits: a timeout there is a stuck browser, not the caller's document. The renderer has already restarted the
    // browser; say so and ask for a retry instead of blaming the request with a 400.
    if (err instanceof RenderTimeoutError && request.kind === 'template' && !callerHtmlIn(request))
      throw new Unavailable(
        'The renderer stopped responding and was restarted. Please retry this request.',
        2,
      );
    throw err;
  }
  const warnings = request.kind === 'template' ? request.xml?.warnings : undefined;
  const unknown = request.kind === 'template' ? request.xml?.unknownComplements : undefined;
  return {
    bytes: file.bytes,
    contentType: file.contentType,
    filename: `${model.baseName}.${file.extension}`,
    ...(warnings?.length ? { warnings } : {}),
    ...(unknown?.length ? { unknownComplements: unknown } : {}),
  };
}

/**
 * A merge: each part rendered as its own PDF (sequentially: one browser), merged in order with a bookmark per part,
 * then what applies to the whole file: the free plan's watermark (once, in an embedded font for PDF/A), PDF/A-3b
 * with every part's source as an associated file, and the protection last. Warnings name their part.
 */
async function renderMerge(
  request: Extract<ValidRenderRequest, { kind: 'merge' }>,
  deps: RenderDeps,
  ctx: RenderContext,
): Promise<RenderedDocument> {
  const parts: MergePart[] = [];
  const warnings: string[] = [];
  const unknown: string[] = [];
  const attachments: PdfAAttachment[] = [];
  const pdfa = wantsPdfA(request);
  for (const [i, part] of request.parts.entries()) {
    if (ctx.signal?.aborted) throw new WorkStopped(i, request.parts.length, 'documents');
    let doc;
    try {
      doc = await renderDocument(part, deps, { at: ['body', 'documents', i] });
    } catch (err) {
      // The part failed after the cut (on a loaded machine, e.g. Chromium's time limit): the merge stopped at this
      // part all the same, and says how far it got; the part's fault is its cause.
      if (ctx.signal?.aborted) throw new WorkStopped(i, request.parts.length, 'documents', err);
      throw err;
    }
    const title =
      part.kind === 'template' ? (part.xml?.title ?? part.template.title(part.data as never)) : 'Documento';
    parts.push({ bytes: doc.bytes, title });
    warnings.push(...(doc.warnings ?? []).map((w) => `documento ${i + 1}: ${w}`));
    unknown.push(...(doc.unknownComplements ?? []).map((w) => `documento ${i + 1}: ${w}`));
    if (pdfa) {
      const source = pdfASource(part, part.data);
      attachments.push({ ...source, name: `${String(i + 1).padStart(2, '0')}-${source.name}` });
    }
  }
  const title = `${parts.length} documentos: ${parts.map((p) => p.title).join(', ')}`.slice(0, 200);
  const pdf = await postProcess(await mergePdfs(parts, title), {
    watermark: !!ctx.watermark,
    ...(pdfa ? { pdfa: { title, attachments } } : {}),
    protection: protectionOf(request.options),
  });
  return {
    bytes: pdf,
    contentType: CONTENT_TYPES.pdf,
    filename: 'documentos.pdf',
    ...(warnings.length ? { warnings } : {}),
    ...(unknown.length ? { unknownComplements: unknown } : {}),
  };
}
