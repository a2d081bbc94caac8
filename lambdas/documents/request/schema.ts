// POST /v1/render's request schema and its limits: what the route spec (handlers/render.route.ts) documents for
// GET /api and what request/validate.ts parses with, before the checks a schema cannot say (request/checks.ts).
// The request layer owns it, below the handler: the route spec and the handler import it, never the reverse.
//
// Request (contract): template (slug; optional when custom_html is present, and ignored then), format (one of
// ten), data (object), custom_html (caller's Jinja2 HTML), options {page_size, margin, landscape, header_html,
// footer_html} plus our csv_bom. Validation problems are pydantic-style items with loc ["body", ...].
import { z } from 'zod';
import { FORMATS } from '../core/formats';
import { PAGE_FORMATS, type PageFormat } from '../render/page-options';
import { marcaSchema } from '../../../templates/kit/marca';

/** Named page sizes: the renderer's (lambdas/documents/render/page-options.ts), accepted case-insensitively. */
export const PAGE_SIZES = PAGE_FORMATS;

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
   * a notes block and a footer legend (templates/kit/marca.ts). Nothing SAT requires is removed. Without it, a
   * key's factura prints its account's stored brand (PUT /v1/brand); `{}` prints none.
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

export type RenderOptions = z.output<typeof renderOptionsSchema>;
