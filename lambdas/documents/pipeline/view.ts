// The view stage of POST /v1/render: a valid request becomes the document model every format renderer reads (the
// template's view rendered to HTML: built-in templates in the trusted realm, callers' HTML in the sandbox) and the
// PDF page options (the request's over the template's, with the caller's header and footer rendered).
import type { PageFormat, PdfOptions } from '../render/page-options';
import type { DocumentModel } from '../formats/types';
import type { RenderDeps } from '../ports';
import { builtInPartials, loadSource } from '../domain/template-registry';
import { ensureDocument, htmlTitle } from '../templating/html';
import { sharedSandbox } from '../templating/sandbox';
import { renderTrusted } from '../templating/trusted';
import type { RenderOptions, SingleRenderRequest } from '../request/valid-request';
import { vistaMarca } from '../../../templates/kit/marca';

function cssLength(v: number | string | undefined, fallback: string): string {
  if (v === undefined) return fallback;
  return typeof v === 'number' ? `${v}mm` : v;
}

/**
 * PDF page options for the renderer: the request's, over the template's defaults. Without an explicit margin, the
 * template's margin applies, widened to 20 mm at the top/bottom where a header/footer is drawn.
 */
export function pdfOptions(
  options: RenderOptions,
  defaults: { size: PageFormat; landscape: boolean; margin: string },
): PdfOptions {
  const header = !!options.header_html;
  const footer = !!options.footer_html;
  const base = {
    top: header ? '20mm' : defaults.margin,
    right: defaults.margin,
    bottom: footer ? '20mm' : defaults.margin,
    left: defaults.margin,
  };
  const m = options.margin;
  const margin =
    m === undefined
      ? base
      : typeof m === 'number' || typeof m === 'string'
        ? { top: cssLength(m, ''), right: cssLength(m, ''), bottom: cssLength(m, ''), left: cssLength(m, '') }
        : {
            top: cssLength(m.top, base.top),
            right: cssLength(m.right, base.right),
            bottom: cssLength(m.bottom, base.bottom),
            left: cssLength(m.left, base.left),
          };
  const size = options.page_size ?? defaults.size;
  return {
    pageSize:
      typeof size === 'string'
        ? size
        : { width: cssLength(size.width, '210mm'), height: cssLength(size.height, '297mm') },
    landscape: options.landscape ?? defaults.landscape,
    margin,
  };
}

const CUSTOM_PAGE = { size: 'A4' as const, landscape: false, margin: '12mm' };

/** The PDF page options of a request, rendered once when a format first needs them (a zip asks for them once). */
export function pageOf(request: SingleRenderRequest, deps: RenderDeps): () => Promise<PdfOptions> {
  const defaults = request.kind === 'template' ? request.template.meta.page : CUSTOM_PAGE;
  let page: Promise<PdfOptions> | undefined;
  return () => (page ??= headerFooter(request, deps, pdfOptions(request.options, defaults)));
}

export async function buildModel(
  request: SingleRenderRequest,
  deps: RenderDeps,
  at: (string | number)[] = ['body'],
): Promise<DocumentModel> {
  const sandbox = deps.sandbox ?? sharedSandbox();
  const partials = builtInPartials();
  if (request.kind === 'template') {
    const t = request.template;
    const data = request.data as never;
    // A caller's footer_html replaces the template's own page footer (both would print in the bottom margin).
    const marca = vistaMarca(request.options.marca);
    const view = {
      ...(request.xml?.view ?? t.view(data)),
      _pie_propio: !!request.options.footer_html,
      // The brand (factura): its colour is the house accent (templates/_partials/estilos.html.j2).
      _marca: marca,
      ...(marca?.color ? { color_acento: marca.color } : {}),
    };
    const { source, hash } = loadSource(t.meta.slug);
    const title = request.xml?.title ?? t.title(data);
    const html =
      deps.builtInEngine === 'sandbox'
        ? await sandbox.render(source, view, {
            partials,
            name: t.meta.slug,
            loc: at.length > 1 ? [...at, 'template'] : ['template'],
          })
        : renderTrusted(source, view, partials, `${t.meta.slug}@${hash}`);
    return {
      title,
      baseName: t.meta.slug,
      html: ensureDocument(html, title),
      data: request.data,
      sheets: t.sheets?.(data),
    };
  }
  const html = await sandbox.render(request.source, request.data, { partials, loc: [...at, 'custom_html'] });
  const title = htmlTitle(html) ?? 'Documento';
  return { title, baseName: 'documento', html: ensureDocument(html, title), data: request.data };
}

async function headerFooter(
  request: SingleRenderRequest,
  deps: RenderDeps,
  page: PdfOptions,
): Promise<PdfOptions> {
  const sandbox = deps.sandbox ?? sharedSandbox();
  const data =
    request.kind === 'template'
      ? (request.xml?.view ?? request.template.view(request.data as never))
      : request.data;
  const out = { ...page };
  // Caller-supplied: they render in the sandbox like custom_html (with the same data).
  if (request.options.header_html)
    out.headerHtml = await sandbox.render(request.options.header_html, data, {
      loc: ['body', 'options', 'header_html'],
      partials: builtInPartials(),
    });
  if (request.options.footer_html)
    out.footerHtml = await sandbox.render(request.options.footer_html, data, {
      loc: ['body', 'options', 'footer_html'],
      partials: builtInPartials(),
    });
  return out;
}
