// POST /v1/render: the request schema, its validation (every problem at once, 400) and the orchestrator that turns
// a valid request into a file. Chromium (pdf, png) is injected, so this module and its tests run without a browser.
//
//   const check = validateRenderRequest(body);            // { ok: true, request } | { ok: false, problems }
//   if (!check.ok) throw new DocumentRequestError(check.problems);      // or parseRenderRequest(body)
//   const { bytes, contentType, filename } = await renderDocument(check.request, { renderPdf, renderPng });
//
// Request (contract): template (slug; optional when custom_html is present, and ignored then), format (one of
// ten), data (object), custom_html (caller's Jinja2 HTML), options {page_size, margin, landscape, header_html,
// footer_html} plus our csv_bom. Validation problems are pydantic-style items with loc ["body", ...].
import { z } from 'zod';
import { InvalidInput, Unavailable } from '../../shared/errors';
import { validate } from '../../shared/validation';
import { renderCsv } from '../formats/csv';
import { renderDocx } from '../formats/docx';
import { renderHtml } from '../formats/html';
import { dataJson, renderJson } from '../formats/json';
import { renderMd } from '../formats/md';
import { renderTxt } from '../formats/txt';
import type { DocumentModel, RenderedFile } from '../formats/types';
import { PAGE_FORMATS, type PageFormat, type PdfOptions } from '../render/page-options';
import { RenderTimeoutError } from '../render/errors';
import { mergePdfs, type MergePart } from '../render/merge';
import { toPdfA3, type PdfAAttachment, type PdfAOptions } from '../render/pdfa';
import { protectPdf, type PdfProtection } from '../render/protect';
import { stampWatermark } from '../render/watermark';
import { renderXlsx } from '../formats/xlsx';
import { buildZip, type ZipEntry } from '../formats/zip';
import { ensureDocument, htmlTitle } from '../templating/html';
import { sharedSandbox } from '../templating/sandbox';
import { renderTrusted } from '../templating/trusted';
import { DocumentRequestError, type DocumentProblem } from '../errors';
import type { RenderDeps, RenderedDocument } from '../ports';
import { CONTENT_TYPES, FORMATS, type Format } from '../core/formats';
import {
  builtInPartials,
  CUSTOM_FORMATS,
  findTemplate,
  loadSource,
  TEMPLATE_SLUGS,
} from '../domain/template-registry';
import { CfdiXmlError } from '../../../templates/kit/cfdi/leer';
import { marcaSchema, vistaMarca } from '../../../templates/kit/marca';
import type { BuiltInTemplate, XmlDocument } from '../../../templates/kit/template-types';

// ---- request schema --------------------------------------------------------------------------------------

/** Named page sizes: the renderer's (lambdas/documents/render/page-options.ts), accepted case-insensitively. */
export const PAGE_SIZES = PAGE_FORMATS;
export type PageSizeName = PageFormat;

const LENGTH_RE = /^\d{1,4}(\.\d{1,3})?(mm|cm|in|px)$/;
/** A CSS length ("12mm", "0.5in", "1cm", "20px") or a number of millimetres. */
const length = z.union([
  z.number().min(0).max(500),
  z.string().trim().regex(LENGTH_RE, { message: "Use a length such as '12mm', '1cm', '0.5in' or '20px'" }),
]);

const pageSize = z.union([
  z
    .string()
    .trim()
    .transform((s) => PAGE_SIZES.find((p) => p.toLowerCase() === s.toLowerCase()) ?? s)
    .pipe(z.enum(PAGE_SIZES as unknown as [PageFormat, ...PageFormat[]])),
  z.object({ width: length, height: length }),
]);

const margin = z.union([
  length,
  z.object({
    top: length.optional(),
    right: length.optional(),
    bottom: length.optional(),
    left: length.optional(),
  }),
]);

export const renderOptionsSchema = z.object({
  page_size: pageSize.optional(),
  margin: margin.optional(),
  landscape: z.boolean().optional(),
  header_html: z.string().max(20_000).optional(),
  footer_html: z.string().max(20_000).optional(),
  /** csv only: start the file with a UTF-8 byte order mark (Excel). */
  csv_bom: z.boolean().optional(),
  /** Scale plan: render in the background → 202 with a job (GET /v1/jobs/{id}) and a signed webhook when done. */
  async: z.boolean().optional(),
  /**
   * With async: seconds the job's result is kept (60..86400, default a day); after that GET /v1/jobs/{id} is 410
   * and the file is deleted (use-cases/jobs.ts).
   */
  expires_in: z.int().min(60).max(86_400).optional(),
  /**
   * factura: the zip must carry the CFDI 4.0 XML. Without it a zip whose data lacks what CFDI requires carries no
   * XML (LEEME.txt lists the fields); with it that request is a 400 naming each missing field.
   */
  require_xml: z.boolean().optional(),
  /**
   * format pdf: a PDF/A-3b carrying what it was made from as its associated file (the CFDI XML of a cfdi_xml
   * request, otherwise data.json). Default: true for cfdi_xml, false otherwise.
   */
  pdfa: z.boolean().optional(),
  /**
   * factura: the business's brand — logo (data URI of a PNG or SVG, ≤ 200 KB, the SVG sanitised), primary colour,
   * a notes block and a footer legend (templates/kit/marca.ts). Nothing SAT requires is removed.
   */
  marca: marcaSchema.optional(),
  /** format pdf: the password that opens the PDF (AES-256), 1–127 bytes as UTF-8. */
  password: z.string().min(1).optional(),
  /** format pdf: what a reader may do with it (each defaults to true); alone, the PDF opens without a password. */
  permissions: z
    .strictObject({
      print: z.boolean().optional(),
      copy: z.boolean().optional(),
      modify: z.boolean().optional(),
      annotate: z.boolean().optional(),
    })
    .optional(),
});

/** options.password's limit: the AES-256 security handler reads at most 127 bytes of UTF-8. */
export const PASSWORD_MAX_BYTES = 127;

/** metadata's limits: a small JSON object of the caller's own (ids, references), echoed on async jobs and events. */
export const METADATA_MAX_BYTES = 4096;
export const METADATA_MAX_KEYS = 50;

/** At most this many parts per merge (documents): about 20 Chromium renders fit the route's 29 s comfortably. */
export const MERGE_MAX_DOCUMENTS = 20;

/** cfdi_xml's length limit (characters): a CFDI with a few thousand conceptos; the route's body limit is 2 MiB. */
export const CFDI_XML_MAX_CHARS = 1_500_000;

export const renderRequestSchema = z.object({
  template: z.string().max(100).optional(),
  // string first, so a missing format reads "Field required" rather than "Input should be 'pdf', ...".
  format: z.string().pipe(z.enum(FORMATS)),
  data: z.record(z.string(), z.unknown()).optional(),
  /**
   * factura: a CFDI 4.0 XML (stamped or not) to print instead of `data`. Its own figures are printed; SAT's
   * arithmetic is re-checked and discrepancies reported (PDF band, X-CFDI-Avisos header), never corrected.
   */
  cfdi_xml: z.string().min(1).max(CFDI_XML_MAX_CHARS).optional(),
  custom_html: z.string().min(1).max(200_000).optional(),
  options: renderOptionsSchema.optional(),
  /**
   * The caller's own JSON object (order ids, references), at most METADATA_MAX_KEYS keys and METADATA_MAX_BYTES
   * bytes as JSON: not rendered; echoed back on async jobs (GET /v1/jobs/{id}) and their webhook events.
   */
  metadata: z.record(z.string().min(1).max(100), z.unknown()).optional(),
  /**
   * Several documents merged into one PDF, in order: each {template, data | cfdi_xml} or {custom_html, data}.
   * Instead of the single document's template/data/cfdi_xml/custom_html; format pdf; options apply to every part
   * (page, header, footer) and to the merged file (pdfa, password, permissions). Counts one document per part.
   */
  documents: z.array(z.record(z.string(), z.unknown())).min(1).max(MERGE_MAX_DOCUMENTS).optional(),
});

/** What a part of a merge may carry; everything else belongs to the request. */
const PART_KEYS = ['template', 'data', 'cfdi_xml', 'custom_html'] as const;

export type RenderRequestBody = z.input<typeof renderRequestSchema>;
export type RenderOptions = z.output<typeof renderOptionsSchema>;

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

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * zod issues → pydantic-style items (the shared mapper), with pydantic's wording where the shared mapper has none
 * yet: exclusive bounds ("greater than 0") and list lengths ("at least 1 item").
 */
function problemsOf(schema: z.ZodType, input: unknown, prefix: (string | number)[]): DocumentProblem[] {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return [];
  let items: DocumentProblem[] = [];
  try {
    validate(schema, input, prefix);
  } catch (err) {
    if (!(err instanceof InvalidInput)) throw err;
    items = err.items;
  }
  return items.map((item, i) => {
    const issue = result.error.issues[i];
    if (!issue || (issue.code !== 'too_small' && issue.code !== 'too_big')) return item;
    const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
    if (issue.origin === 'array') {
      return issue.code === 'too_small'
        ? { ...item, msg: `List should have at least ${plural(bound, 'item')}`, type: 'too_short' }
        : { ...item, msg: `List should have at most ${plural(bound, 'item')}`, type: 'too_long' };
    }
    if (issue.origin === 'number' && !issue.inclusive) {
      return issue.code === 'too_small'
        ? { ...item, msg: `Input should be greater than ${bound}`, type: 'greater_than' }
        : { ...item, msg: `Input should be less than ${bound}`, type: 'less_than' };
    }
    return item;
  });
}

function listText(values: readonly string[]): string {
  return values.length <= 1
    ? values.join('')
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/**
 * Checks a POST /v1/render body and returns every problem at once: body shape and types, unknown template
 * (naming the known slugs), a format the template does not render to (naming its formats), and data that fails
 * the template's schema (per field, loc ["body", "data", ...]).
 */
export function validateRenderRequest(body: unknown): ValidationResult {
  const problems = problemsOf(renderRequestSchema, body, ['body']);
  const raw = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  if (raw.documents !== undefined) return validateMerge(raw, problems);
  const custom = typeof raw.custom_html === 'string' && raw.custom_html.length > 0;
  const format =
    typeof raw.format === 'string' && (FORMATS as readonly string[]).includes(raw.format)
      ? raw.format
      : undefined;
  const dataIsObject = raw.data !== null && typeof raw.data === 'object' && !Array.isArray(raw.data);
  let template: BuiltInTemplate | undefined;
  let data: unknown = raw.data;
  const xmlInput = typeof raw.cfdi_xml === 'string' && raw.cfdi_xml.length > 0;
  let xml: XmlDocument | undefined;
  if (raw.data === undefined && !xmlInput)
    problems.push({ loc: ['body', 'data'], msg: 'Field required', type: 'missing' });
  if (custom && xmlInput)
    problems.push({
      loc: ['body', 'cfdi_xml'],
      msg: 'cfdi_xml is read by the factura template, not by custom_html',
      type: 'unsupported_input',
    });

  if (!custom) {
    if (raw.template === undefined || raw.template === null) {
      problems.push({
        loc: ['body', 'template'],
        msg: `Field required: give a template (${listText(TEMPLATE_SLUGS)}) or your own custom_html`,
        type: 'missing',
      });
    } else if (typeof raw.template === 'string') {
      template = findTemplate(raw.template);
      if (!template) {
        problems.push({
          loc: ['body', 'template'],
          msg: `Unknown template '${raw.template}': use one of ${listText(TEMPLATE_SLUGS)}, or send custom_html`,
          type: 'unknown_template',
          ctx: { allowed: TEMPLATE_SLUGS },
        });
      }
    }
    if (template && format && !template.meta.formats.includes(format as Format)) {
      problems.push({
        loc: ['body', 'format'],
        msg: `Template '${template.meta.slug}' renders to ${listText(template.meta.formats)}; '${format}' is not one of them`,
        type: 'unsupported_format',
        ctx: { allowed: template.meta.formats },
      });
    }
    if (template && xmlInput) {
      if (!template.fromXml)
        problems.push({
          loc: ['body', 'cfdi_xml'],
          msg: `Template '${template.meta.slug}' does not read XML: send data, or use the factura or nomina template`,
          type: 'unsupported_input',
        });
      else if (raw.data !== undefined)
        problems.push({
          loc: ['body', 'data'],
          msg: 'Send either data or cfdi_xml, not both',
          type: 'data_and_xml',
        });
      else if (problems.length === 0) {
        try {
          xml = template.fromXml(raw.cfdi_xml as string);
        } catch (err) {
          if (!(err instanceof CfdiXmlError)) throw err;
          problems.push(
            ...err.problems.map((p) => ({ loc: ['body', 'cfdi_xml'], msg: p.msg, type: p.type })),
          );
        }
      }
    } else if (template && dataIsObject) {
      const parsed = template.schema.safeParse(raw.data);
      if (parsed.success) data = parsed.data;
      else problems.push(...problemsOf(template.schema, raw.data, ['body', 'data']));
    }
  }

  if (problems.length === 0 && template && !xmlInput)
    problems.push(...requiredXmlProblems(template, data, raw.options));
  if (
    (raw.options as { marca?: unknown } | undefined)?.marca !== undefined &&
    !(template && MARCA_TEMPLATES.has(template.meta.slug))
  )
    problems.push({
      loc: ['body', 'options', 'marca'],
      msg: `options.marca is printed by the factura template, not by ${template ? `'${template.meta.slug}'` : 'custom_html'}`,
      type: 'unsupported_option',
    });
  if ((raw.options as { pdfa?: unknown } | undefined)?.pdfa === true && format && format !== 'pdf')
    problems.push({
      loc: ['body', 'options', 'pdfa'],
      msg: `PDF/A is a PDF: send format 'pdf' with options.pdfa, or drop options.pdfa for '${format}'`,
      type: 'unsupported_option',
    });
  problems.push(...protectionProblems(raw.options, format));
  problems.push(...expiryProblems(raw.options));
  problems.push(...metadataProblems(raw.metadata));
  if (problems.length > 0) return { ok: false, problems };
  const options = renderOptionsSchema.parse(raw.options ?? {});
  const metadata = raw.metadata as Record<string, unknown> | undefined;
  const request: ValidRenderRequest = template
    ? {
        kind: 'template',
        template,
        format: format as Format,
        data: xml ? xml.data : (data as Record<string, unknown>),
        options,
        ...(xml ? { xml } : {}),
        ...(metadata ? { metadata } : {}),
      }
    : {
        kind: 'custom',
        source: raw.custom_html as string,
        format: format as Format,
        data: raw.data as Record<string, unknown>,
        options,
        ...(metadata ? { metadata } : {}),
      };
  return { ok: true, request };
}

/**
 * A merge (`documents`): the request-level checks (format pdf, options, metadata, no single-document members), then
 * each part as a single pdf request, its problems at ["body", "documents", i, ...].
 */
function validateMerge(raw: Record<string, unknown>, problems: DocumentProblem[]): ValidationResult {
  const format = raw.format;
  if (typeof format === 'string' && format !== 'pdf' && (FORMATS as readonly string[]).includes(format))
    problems.push({
      loc: ['body', 'format'],
      msg: `documents are merged into one PDF: send format 'pdf' (a merge of '${format}' files is not offered)`,
      type: 'unsupported_format',
      ctx: { allowed: ['pdf'] },
    });
  for (const k of PART_KEYS)
    if (raw[k] !== undefined)
      problems.push({
        loc: ['body', k],
        msg: `With documents, each part carries its own ${k}: move it into documents[i], or drop documents to render one document`,
        type: 'documents_conflict',
      });
  problems.push(...protectionProblems(raw.options, 'pdf'));
  problems.push(...expiryProblems(raw.options));
  if (typeof raw.options === 'object' && raw.options !== null) {
    const o = raw.options as Record<string, unknown>;
    if (o.require_xml !== undefined)
      problems.push({
        loc: ['body', 'options', 'require_xml'],
        msg: 'require_xml is about a zip with the CFDI XML; a merge is one PDF: drop options.require_xml',
        type: 'unsupported_option',
      });
  }
  problems.push(...metadataProblems(raw.metadata));
  const items = Array.isArray(raw.documents) ? raw.documents : [];
  const options = renderOptionsSchema.safeParse(raw.options ?? {});
  // What each part is rendered with: the page options; the file-level ones apply to the merged PDF.
  const partOptions = options.success
    ? (({ pdfa: _a, password: _p, permissions: _m, async: _s, require_xml: _r, csv_bom: _c, ...page }) =>
        page)(options.data)
    : {};
  const parts: SingleRenderRequest[] = [];
  items.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return; // the schema said so
    const at = (loc: (string | number)[]) => ['body', 'documents', i, ...loc.slice(1)];
    for (const k of Object.keys(item))
      if (!(PART_KEYS as readonly string[]).includes(k))
        problems.push({
          loc: ['body', 'documents', i, k],
          msg:
            k === 'format' || k === 'options' || k === 'metadata'
              ? `${k} belongs to the request (it applies to the whole merge), not to a part: move it out of documents[${i}]`
              : `Unknown member of a part: a part has ${listText(PART_KEYS)}`,
          type: 'extra_forbidden',
        });
    const part = item as Record<string, unknown>;
    // The brand (options.marca) goes to the parts that print it; the others render without it.
    const { marca, ...unbranded } = partOptions as typeof partOptions & { marca?: unknown };
    const branded = typeof part.template === 'string' && MARCA_TEMPLATES.has(part.template);
    const check = validateRenderRequest({
      ...Object.fromEntries(PART_KEYS.filter((k) => part[k] !== undefined).map((k) => [k, part[k]])),
      format: 'pdf',
      options: { ...(branded && marca !== undefined ? { ...unbranded, marca } : unbranded), pdfa: false },
    });
    if (!check.ok) problems.push(...check.problems.map((p) => ({ ...p, loc: at(p.loc) })));
    else parts.push(check.request as SingleRenderRequest);
  });
  if (problems.length > 0) return { ok: false, problems };
  const metadata = raw.metadata as Record<string, unknown> | undefined;
  return {
    ok: true,
    request: {
      kind: 'merge',
      format: 'pdf',
      parts,
      options: options.success ? options.data : {},
      ...(metadata ? { metadata } : {}),
    },
  };
}

/**
 * options.password / options.permissions: only for format pdf, a password of at most 127 UTF-8 bytes, and never with
 * options.pdfa true (PDF/A forbids encryption; the cfdi_xml default of PDF/A gives way to an explicit protection).
 */
function protectionProblems(options: unknown, format: string | undefined): DocumentProblem[] {
  if (options === null || typeof options !== 'object') return [];
  const o = options as { password?: unknown; permissions?: unknown; pdfa?: unknown };
  const asked = (['password', 'permissions'] as const).filter((k) => o[k] !== undefined);
  if (asked.length === 0) return [];
  const out: DocumentProblem[] = [];
  if (typeof o.password === 'string' && Buffer.byteLength(o.password, 'utf8') > PASSWORD_MAX_BYTES)
    out.push({
      loc: ['body', 'options', 'password'],
      msg: `The password is ${Buffer.byteLength(o.password, 'utf8')} bytes as UTF-8; PDF readers use at most ${PASSWORD_MAX_BYTES}: choose a shorter one`,
      type: 'string_too_long',
      ctx: { max_bytes: PASSWORD_MAX_BYTES },
    });
  if (format && format !== 'pdf')
    for (const k of asked)
      out.push({
        loc: ['body', 'options', k],
        msg: `options.${k} protects a PDF: send format 'pdf', or drop options.${k} for '${format}'`,
        type: 'unsupported_option',
      });
  if (o.pdfa === true)
    out.push({
      loc: ['body', 'options', 'pdfa'],
      msg: `PDF/A forbids encryption, so a PDF/A cannot carry options.${asked.join(' or options.')}: drop options.pdfa (or send false) to protect the PDF, or drop the protection to get a PDF/A`,
      type: 'option_conflict',
      ctx: { conflicts_with: asked.map((k) => `options.${k}`) },
    });
  return out;
}

/** options.expires_in is about an async job's stored result: without options.async there is none to keep. */
function expiryProblems(options: unknown): DocumentProblem[] {
  if (options === null || typeof options !== 'object') return [];
  const o = options as { expires_in?: unknown; async?: unknown };
  if (o.expires_in === undefined || o.async === true) return [];
  return [
    {
      loc: ['body', 'options', 'expires_in'],
      msg: 'options.expires_in is how long the result of an async render is kept: send options.async true with it, or drop it (a synchronous render answers the document itself)',
      type: 'unsupported_option',
    },
  ];
}

/** The protection asked for (options.password, options.permissions), if any. */
export function protectionOf(options: RenderOptions): PdfProtection | undefined {
  if (options.password === undefined && options.permissions === undefined) return undefined;
  return {
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(options.permissions ? { permissions: options.permissions } : {}),
  };
}

/** metadata beyond its limits (its type is the schema's): the size as JSON and the number of keys. */
function metadataProblems(metadata: unknown): DocumentProblem[] {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return [];
  const keys = Object.keys(metadata).length;
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  const out: DocumentProblem[] = [];
  if (keys > METADATA_MAX_KEYS)
    out.push({
      loc: ['body', 'metadata'],
      msg: `metadata has ${keys} keys; at most ${METADATA_MAX_KEYS}: keep ids and references, store the rest on your side`,
      type: 'metadata_too_large',
      ctx: { max_keys: METADATA_MAX_KEYS },
    });
  if (bytes > METADATA_MAX_BYTES)
    out.push({
      loc: ['body', 'metadata'],
      msg: `metadata is ${bytes} bytes as JSON; at most ${METADATA_MAX_BYTES}: keep ids and references, store the rest on your side`,
      type: 'metadata_too_large',
      ctx: { max_bytes: METADATA_MAX_BYTES },
    });
  return out;
}

/** Templates that print options.marca. */
const MARCA_TEMPLATES = new Set(['factura']);

/** options.require_xml: the fields the template's XML still needs, or the option refused where it has no XML. */
function requiredXmlProblems(template: BuiltInTemplate, data: unknown, options: unknown): DocumentProblem[] {
  const required = (options as { require_xml?: unknown } | undefined)?.require_xml === true;
  if (!required) return [];
  if (!template.requiredAttachmentProblems)
    return [
      {
        loc: ['body', 'options', 'require_xml'],
        msg: `Template '${template.meta.slug}' has no XML to require`,
        type: 'unsupported_option',
      },
    ];
  return template.requiredAttachmentProblems(data as never).map((p) => ({
    loc: ['body', 'data', p.field],
    msg: p.msg,
    type: 'missing',
  }));
}

/** validateRenderRequest that throws the 400 (DocumentRequestError) instead of returning the problems. */
export function parseRenderRequest(body: unknown): ValidRenderRequest {
  const r = validateRenderRequest(body);
  if (!r.ok) throw new DocumentRequestError(r.problems);
  return r.request;
}

// ---- rendering -------------------------------------------------------------------------------------------

/** The renderer port and the document it yields live in ../ports.ts; re-exported for existing callers. */
export type { RenderDeps, RenderedDocument };

export interface RenderContext {
  /** Free plan: the renderer stamps WATERMARK_TEXT on every PDF page (also the PDF inside a zip). */
  watermark?: boolean;
  /** Where this document sits in the request, for error locations: ['body'], or ['body', 'documents', i] in a merge. */
  at?: (string | number)[];
}

/** The free plan's watermark on PDFs (contract: "a subtle watermark"). */
export const WATERMARK_TEXT = 'Generado con el plan gratuito';

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
  defaults: { size: PageSizeName; landscape: boolean; margin: string },
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

async function buildModel(
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

async function renderFormat(
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
      // PDF/A wants every font embedded: its watermark is stamped here with an embedded font, not by the renderer.
      const options = { ...(await page()), ...(ctx.watermark && !pdfa ? { watermark: WATERMARK_TEXT } : {}) };
      let pdf = await deps.renderPdf(model.html, options);
      if (pdfa && ctx.watermark) pdf = await stampWatermark(pdf, WATERMARK_TEXT, { embeddedFont: true });
      if (pdfa) pdf = await toPdfA3(pdf, pdfAOptions(model, request));
      // Last, over the finished file (watermark included); validation allows it only for format pdf.
      const protection = request.format === 'pdf' ? protectionOf(request.options) : undefined;
      if (protection) pdf = await protectPdf(pdf, protection);
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
  const model = await buildModel(request, deps, ctx.at);
  const defaults = request.kind === 'template' ? request.template.meta.page : CUSTOM_PAGE;
  let pagePromise: Promise<PdfOptions> | undefined;
  const page = () => (pagePromise ??= headerFooter(request, deps, pdfOptions(request.options, defaults)));
  let file;
  try {
    file = await renderFormat(request.format, model, request, deps, ctx, page);
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
    const doc = await renderDocument(part, deps, { at: ['body', 'documents', i] });
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
  let pdf: Buffer = await mergePdfs(parts, title);
  if (ctx.watermark) pdf = await stampWatermark(pdf, WATERMARK_TEXT, { embeddedFont: pdfa });
  if (pdfa) pdf = await toPdfA3(pdf, { title, attachments });
  const protection = protectionOf(request.options);
  if (protection) pdf = await protectPdf(pdf, protection);
  return {
    bytes: pdf,
    contentType: CONTENT_TYPES.pdf,
    filename: 'documentos.pdf',
    ...(warnings.length ? { warnings } : {}),
    ...(unknown.length ? { unknownComplements: unknown } : {}),
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

/** The PDF/A's associated file: the XML it was printed from, or the validated data (data.json). */
function pdfASource(request: SingleRenderRequest, data: unknown): PdfAAttachment {
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

function callerHtmlIn(request: SingleRenderRequest): boolean {
  return !!(request.options.header_html || request.options.footer_html);
}

/** Re-exported for handlers: the formats each kind of request may use. */
export { CUSTOM_FORMATS };
