// POST /v1/render: the route's spec and its request schema's documentation, next to the handler (render.ts);
// routes.ts lists it. The schema itself and its limits are the request layer's (request/schema.ts, which the
// handler's parsing uses too); what a schema cannot say (a template's formats and data, cfdi_xml, merges, option
// conflicts) is checked by request/validate.ts, every problem at once (400).
import { z } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import { JOB_REQUESTS_PREFIX, RESULTS_PREFIX } from '../bucket';
import { BRAND_ITEM_PREFIX, JOB_ITEM_PREFIX } from '../adapters/item-prefixes';
import { RATE_HEADERS, common } from '../api/doc-parts';
import { Binary, ErrorDetail } from '../api/schemas';
import { CONTENT_TYPES, FORMATS } from '../core/formats';
import { PAGE_SIZES, renderOptionsSchema, renderRequestSchema } from '../request/schema';
import { RENDER_ASYNC_RESPONSE_DOCS } from '../api/webhooks-doc';

const MiB = 1024 * 1024;

// ---- its documentation (GET /api): a description per field, for the reader (validation unchanged) ---------

/** `schema` with a description on each field `docs` names, for the reader (validation unchanged). */
function described<T extends z.ZodObject>(schema: T, docs: { [K in keyof T['shape']]?: string }) {
  const shape = schema.shape as Record<string, z.ZodType>;
  return schema.extend(
    Object.fromEntries(Object.entries(docs).map(([k, d]) => [k, shape[k]!.meta({ description: d })])),
  );
}

const lengthDoc =
  'a length: a number of millimetres (0–500) or a string such as "12mm", "1cm", "0.5in", "20px"';

const RenderOptionsDoc = described(renderOptionsSchema, {
  page_size: `PDF page: ${PAGE_SIZES.join(', ')} (case-insensitive), or {"width", "height"} with each ${lengthDoc}. Default: the template's (A4 or Letter; custom HTML A4)`,
  margin: `PDF margins: one ${lengthDoc} for all sides, or {"top", "right", "bottom", "left"}. Default: the template's (14 mm; certificado 10 mm; custom HTML 12 mm), 20 mm top/bottom where a header/footer is drawn`,
  landscape: 'PDF: swap width and height. Default false (certificado: true)',
  header_html:
    'PDF: drawn in the top margin of every page; Jinja2 with the same data; page numbers with <span class="pageNumber"></span> and <span class="totalPages"></span>',
  footer_html: 'PDF: like header_html, in the bottom margin',
  csv_bom: 'csv: start with a UTF-8 byte order mark (for Excel). Default false',
  async: 'Scale plan: render in the background; see "Webhooks (Scale)"',
  expires_in:
    'With async only (otherwise 400 unsupported_option at body.options.expires_in): seconds the job and its document are kept, 60–86400 (default 86400, a day). After that GET /v1/jobs/{id} answers 410 and the document is deleted; download links never outlive it',
  require_xml:
    'factura: the zip must carry the CFDI 4.0 XML (only schema-valid XML is written); data lacking a field CFDI requires is a 400 with one item per field. Default false: the zip leaves the XML out and LEEME.txt names the fields',
  pdfa: 'format pdf only (other formats: 400 at body.options.pdfa): a PDF/A-3b (XMP pdfaid 3/B, sRGB output intent, fonts embedded) carrying what it was printed from as an associated file (AFRelationship Source): the CFDI XML byte for byte as factura.xml for cfdi_xml, otherwise data.json (the validated data). Default true with cfdi_xml, false otherwise; the PDF inside a zip is never PDF/A',
  password:
    'format pdf only: the PDF opens only with this password (AES-256, ISO 32000-2 /V 5 /R 6), 1–127 bytes as UTF-8. Not with options.pdfa true (PDF/A forbids encryption: 400 option_conflict); with cfdi_xml the PDF/A default gives way. A free-plan watermark is drawn before encryption. Other formats: 400 at body.options.password',
  marca:
    'factura only (other templates: 400 unsupported_option): the business\'s brand, {"logo", "color", "notas", "leyenda_pie"} (see PUT /v1/brand for each). Left out, a request with an API key prints its account\'s stored brand (PUT /v1/brand); given, it replaces that brand whole for this document, and {} prints none',
  permissions:
    'format pdf only: {"print", "copy", "modify", "annotate"} booleans, each true when left out; false is enforced by readers that honour PDF permissions (Acrobat, pdf.js, qpdf). copy false still lets screen readers extract text. Alone (no password) the PDF opens freely with these restrictions; the owner password that would lift them is random and not kept. Unknown members: 400',
}).meta({
  description: 'Value types decided by this API (the contract shows none); unknown members are ignored',
});

export const RenderRequestDoc = described(renderRequestSchema, {
  template:
    'Built-in template slug (GET /templates). Required unless custom_html is present, which overrides it',
  format: `One of ${FORMATS.join(', ')}; must be one the template renders to`,
  data: "The template's data (JSON Schema in GET /templates → fields); custom_html: its variables. Required unless cfdi_xml is sent",
  cfdi_xml:
    'Instead of data: a CFDI 4.0 XML (stamped or not) as text, ≤ 1,500,000 characters — template factura for types I, E, T and P (Pagos 2.0: each payment and the documents it pays, with saldos and taxes, and the Pagos totals) and for a CFDI de Retenciones e información de pagos 2.0 (a constancia de retenciones); every complement printed (Carta Porte, Comercio Exterior, Impuestos locales in the totals, INE, Donatarias, Leyendas fiscales…; concept-level ACuentaTerceros, pedimentos, cuenta predial, partes), an unknown one as a generic section named by the X-CFDI-Complementos-No-Reconocidos header; template nomina for tipo N with Complemento de Nómina 1.2 (its lines, totals re-checked, receptor’s labour data, the timbre; the PDF/A carries it as nomina.xml). Printed with its own figures, TimbreFiscalDigital (cadena original per SAT’s XSLT) and SAT verification QR; SAT’s arithmetic is re-checked and a mismatch is a red band on the PDF and the X-CFDI-Avisos response header, never corrected. Refused (400 at body.cfdi_xml): not well-formed, any DOCTYPE/entity, a root other than {http://www.sat.gob.mx/cfd/4}Comprobante (CFDI 3.3 named), missing required attributes, tipo P without its Pagos 2.0 complement (cfdi_missing), a tipo N sent to factura or another type sent to nomina (cfdi_unsupported, naming the right template), nómina data the template’s checks refuse (cfdi_invalid: CURP, RFC, catalogues). The zip carries the XML byte for byte as factura.xml',
  custom_html: 'Your Jinja2 HTML (Pro, Scale, Lifetime), rendered in an isolated sandbox; every format',
  documents:
    'Merge several documents into one PDF, in order (1–20 parts): each part is {"template", "data"} or {"template": "factura", "cfdi_xml"} or {"custom_html", "data"} (paid plans), validated like a single request (problems at body.documents[i]…). Instead of the top-level template/data/cfdi_xml/custom_html; format must be pdf. options apply to every part (page, margins, header/footer) and to the merged file (pdfa: each part’s source attached as 01-factura.xml, 02-data.json…; password; permissions); one bookmark per part; warnings of a cfdi_xml part come in X-CFDI-Avisos prefixed "documento i:". Counts one document per part, all or nothing (429 when the month has fewer left). Answered as documentos.pdf',
  metadata:
    'Your own JSON object (order ids, references), at most 50 keys and 4096 bytes as JSON (otherwise 400 metadata_too_large at body.metadata). Not rendered; an async job (options.async) shows it as sent in GET /v1/jobs/{id} and in its webhook events (data.job.metadata)',
}).extend({ options: RenderOptionsDoc.optional() });

// ---- the route -------------------------------------------------------------------------------------------

export const renderRoute = {
  id: 'Render',
  method: 'POST',
  path: '/v1/render',
  handler: 'lambdas/documents/handlers/render.ts',
  // Chromium: container image with the browser and fonts; memory buys CPU for layout.
  packaging: 'image',
  memoryMb: 2048,
  timeoutS: 29,
  maxBodyBytes: 2 * MiB,
  // accounts: job items (options.async creates one) and the account's brand (read for a factura without
  // options.marca); render: queues async jobs.
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: {
    tables: { quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'rw' },
    itemPrefixes: { accounts: [JOB_ITEM_PREFIX, BRAND_ITEM_PREFIX] },
    // results/: documents too large to answer inline; jobs/: an async job's request
    bucket: 'rw',
    bucketPrefixes: [RESULTS_PREFIX.prefix, JOB_REQUESTS_PREFIX.prefix],
    sendTo: ['render'],
  },
  docs: {
    summary: 'Render a document',
    tags: ['documents'],
    bearer: 'optional',
    description:
      'JSON data + a built-in template, or your own Jinja2 HTML (custom_html, paid plans), becomes a document in ' +
      'one of ten formats. The answer is the file itself with its Content-Type and ' +
      '`Content-Disposition: attachment; filename="<slug>.<ext>"` (`documento.<ext>` for custom HTML). Documents ' +
      'over 4 MiB are answered with 303 to a download link valid one hour. Free-plan PDFs carry a subtle watermark.',
    body: {
      schema: RenderRequestDoc,
      contentTypes: ['application/json'],
      // A built-in template with its own sample data: renders as it is.
      example: async () => ({
        template: 'certificado',
        format: 'pdf',
        data: (await import('../../../templates/certificado/sample.json')).default,
      }),
    },
    responses: {
      200: {
        description: 'The document',
        schema: Binary,
        contentTypes: [...new Set(Object.values(CONTENT_TYPES))],
        headers: { 'Content-Disposition': 'attachment; filename="<slug>.<ext>"', ...RATE_HEADERS },
      },
      303: {
        description:
          'The document is larger than 4 MiB (a Lambda response carries at most 6 MB): follow Location (GET, no ' +
          'Authorization needed) within an hour. It counts like a 200.',
        headers: { Location: 'Presigned download URL, valid 3600 s', ...RATE_HEADERS },
      },
      ...common,
      403: {
        description: 'custom_html without a paid key (Pro, Scale or Lifetime)',
        schema: ErrorDetail,
      },
      429: {
        description: 'Monthly allowance used up; it comes back at 00:00 UTC on the 1st',
        schema: ErrorDetail,
        headers: { 'Retry-After': 'Seconds until 00:00 UTC on the 1st', ...RATE_HEADERS },
      },
      500: {
        description: 'A rendering fault on our side (not counted), with `request_id`',
        schema: ErrorDetail,
      },
      // options.async (Scale): 202 with a job, and the 403 that also covers it.
      ...RENDER_ASYNC_RESPONSE_DOCS,
    },
  },
} satisfies RouteSpec;
