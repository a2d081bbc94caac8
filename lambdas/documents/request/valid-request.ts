// A valid POST /v1/render request, as request/validate.ts returns it and the render pipeline (pipeline/, the use case
// use-cases/render-request.ts) consumes it: one built-in template, the caller's custom_html, or a merge of several.
import type { Format } from '../core/formats';
import type { DocumentProblem } from '../errors';
import type { RenderOptions } from './schema';
import type { PdfProtection } from '../render/protect';
import type { BuiltInTemplate, XmlDocument } from '../../../templates/kit/template-types';

export type { RenderOptions };

export type ValidRenderRequest =
  | {
      kind: 'template';
      template: BuiltInTemplate;
      format: Format;
      /** The data after the template's schema (defaults applied, unknown members dropped). */
      data: Record<string, unknown>;
      options: RenderOptions;
      /** The document read from the caller's XML (cfdi_xml), when that is what was sent instead of data. */
      xml?: XmlDocument;
      metadata?: Record<string, unknown>;
    }
  | {
      kind: 'custom';
      source: string;
      format: Format;
      data: Record<string, unknown>;
      options: RenderOptions;
      metadata?: Record<string, unknown>;
    }
  | {
      kind: 'merge';
      format: 'pdf';
      /** Each part as a single-document pdf request (options: the request's page options, no pdfa/protection). */
      parts: SingleRenderRequest[];
      options: RenderOptions;
      metadata?: Record<string, unknown>;
    };

/** One document (not a merge). */
export type SingleRenderRequest = Exclude<ValidRenderRequest, { kind: 'merge' }>;

/** How many documents a request counts for (quota): one, or one per part of a merge. */
export function documentUnits(request: ValidRenderRequest): number {
  return request.kind === 'merge' ? request.parts.length : 1;
}

/** Does the request render the caller's own HTML (custom_html, paid plans) anywhere? */
export function usesCustomHtml(request: ValidRenderRequest): boolean {
  return request.kind === 'merge'
    ? request.parts.some((p) => p.kind === 'custom')
    : request.kind === 'custom';
}

export type ValidationResult =
  { ok: true; request: ValidRenderRequest } | { ok: false; problems: DocumentProblem[] };

/** The protection asked for (options.password, options.permissions), if any. */
export function protectionOf(options: RenderOptions): PdfProtection | undefined {
  if (options.password === undefined && options.permissions === undefined) return undefined;
  return {
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(options.permissions ? { permissions: options.permissions } : {}),
  };
}

/** options.pdfa, by default true for a document printed from its CFDI XML (format pdf only, not in a zip). */
export function wantsPdfA(request: ValidRenderRequest): boolean {
  if (request.format !== 'pdf') return false;
  if (request.kind === 'merge') return request.options.pdfa ?? false;
  // An explicit password or permissions wins over the cfdi_xml default (PDF/A forbids encryption).
  return (
    request.options.pdfa ?? (request.kind === 'template' && !!request.xml && !protectionOf(request.options))
  );
}

/** Does the caller's HTML (header_html, footer_html) render around this document? */
export function callerHtmlIn(request: SingleRenderRequest): boolean {
  return !!(request.options.header_html || request.options.footer_html);
}
