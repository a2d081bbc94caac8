// What GET /api says about each route of the documents manifest (keyed by route id), plus the webhooks work's
// routes (./webhooks-doc.ts). A test fails when a manifest route has no entry, so the description cannot fall behind.
import { z } from 'zod';
import { CheckoutQuery, PortalResponse, SuccessQuery } from '../../shared/billing/requests';
import { META_ROUTE_DOCS, type ParamDoc, type ResponseDoc, type RouteDoc } from '../../shared/http/openapi';
import { CONTENT_TYPES, FORMATS } from '../core/formats';
import { PAGE_SIZES, renderOptionsSchema, renderRequestSchema } from '../use-cases/render-request';
import {
  Binary,
  CheckoutResponse,
  ErrorDetail,
  LapsedKey,
  PayStatusResponse,
  PricingResponse,
  RotateResponse,
  StatsResponse,
  SuccessResponse,
  TemplatesResponse,
  ValidationError,
  WebhookAck,
} from './schemas';
import { RENDER_ASYNC_RESPONSE_DOCS, WEBHOOK_ROUTE_DOCS } from './webhooks-doc';

const RATE_HEADERS = {
  'RateLimit-Limit': "Documents allowed this month on the caller's plan",
  'RateLimit-Remaining': 'Documents left this month',
  'RateLimit-Reset': 'Seconds until 00:00 UTC on the 1st of next month',
  'RateLimit-Policy': 'The window, e.g. `50;w=2592000` (w is a nominal month)',
};

const o = renderOptionsSchema.shape;
const length = 'a length: a number of millimetres (0–500) or a string such as "12mm", "1cm", "0.5in", "20px"';

/** POST /v1/render's own request schema, with descriptions for the reader (validation is unchanged). */
const RenderOptionsDoc = renderOptionsSchema
  .extend({
    page_size: o.page_size.meta({
      description: `PDF page: ${PAGE_SIZES.join(', ')} (case-insensitive), or {"width", "height"} with each ${length}. Default: the template's (A4 or Letter; custom HTML A4)`,
    }),
    margin: o.margin.meta({
      description: `PDF margins: one ${length} for all sides, or {"top", "right", "bottom", "left"}. Default: the template's (14 mm; certificado 10 mm; custom HTML 12 mm), 20 mm top/bottom where a header/footer is drawn`,
    }),
    landscape: o.landscape.meta({
      description: 'PDF: swap width and height. Default false (certificado: true)',
    }),
    header_html: o.header_html.meta({
      description:
        'PDF: drawn in the top margin of every page; Jinja2 with the same data; page numbers with <span class="pageNumber"></span> and <span class="totalPages"></span>',
    }),
    footer_html: o.footer_html.meta({ description: 'PDF: like header_html, in the bottom margin' }),
    csv_bom: o.csv_bom.meta({
      description: 'csv: start with a UTF-8 byte order mark (for Excel). Default false',
    }),
    async: o.async.meta({ description: 'Scale plan: render in the background; see "Webhooks (Scale)"' }),
    expires_in: o.expires_in.meta({
      description:
        'With async only (otherwise 400 unsupported_option at body.options.expires_in): seconds the job and its document are kept, 60–86400 (default 86400, a day). After that GET /v1/jobs/{id} answers 410 and the document is deleted; download links never outlive it',
    }),
    require_xml: o.require_xml.meta({
      description:
        'factura: the zip must carry the CFDI 4.0 XML (only schema-valid XML is written); data lacking a field CFDI requires is a 400 with one item per field. Default false: the zip leaves the XML out and LEEME.txt names the fields',
    }),
    pdfa: o.pdfa.meta({
      description:
        'format pdf only (other formats: 400 at body.options.pdfa): a PDF/A-3b (XMP pdfaid 3/B, sRGB output intent, fonts embedded) carrying what it was printed from as an associated file (AFRelationship Source): the CFDI XML byte for byte as factura.xml for cfdi_xml, otherwise data.json (the validated data). Default true with cfdi_xml, false otherwise; the PDF inside a zip is never PDF/A',
    }),
    password: o.password.meta({
      description:
        'format pdf only: the PDF opens only with this password (AES-256, ISO 32000-2 /V 5 /R 6), 1–127 bytes as UTF-8. Not with options.pdfa true (PDF/A forbids encryption: 400 option_conflict); with cfdi_xml the PDF/A default gives way. A free-plan watermark is drawn before encryption. Other formats: 400 at body.options.password',
    }),
    permissions: o.permissions.meta({
      description:
        'format pdf only: {"print", "copy", "modify", "annotate"} booleans, each true when left out; false is enforced by readers that honour PDF permissions (Acrobat, pdf.js, qpdf). copy false still lets screen readers extract text. Alone (no password) the PDF opens freely with these restrictions; the owner password that would lift them is random and not kept. Unknown members: 400',
    }),
  })
  .meta({
    description: 'Value types decided by this API (the contract shows none); unknown members are ignored',
  });

const RenderRequestDoc = renderRequestSchema.extend({
  template: renderRequestSchema.shape.template.meta({
    description:
      'Built-in template slug (GET /templates). Required unless custom_html is present, which overrides it',
  }),
  format: renderRequestSchema.shape.format.meta({
    description: `One of ${FORMATS.join(', ')}; must be one the template renders to`,
  }),
  data: renderRequestSchema.shape.data.meta({
    description:
      "The template's data (JSON Schema in GET /templates → fields); custom_html: its variables. Required unless cfdi_xml is sent",
  }),
  cfdi_xml: renderRequestSchema.shape.cfdi_xml.meta({
    description:
      'Instead of data: a CFDI 4.0 XML (stamped or not) as text, ≤ 1,500,000 characters — template factura for types I, E, T and P (Pagos 2.0: each payment and the documents it pays, with saldos and taxes, and the Pagos totals); template nomina for tipo N with Complemento de Nómina 1.2 (its lines, totals re-checked, receptor’s labour data, the timbre; the PDF/A carries it as nomina.xml). Printed with its own figures, TimbreFiscalDigital (cadena original per SAT’s XSLT) and SAT verification QR; SAT’s arithmetic is re-checked and a mismatch is a red band on the PDF and the X-CFDI-Avisos response header, never corrected. Refused (400 at body.cfdi_xml): not well-formed, any DOCTYPE/entity, a root other than {http://www.sat.gob.mx/cfd/4}Comprobante (CFDI 3.3 named), missing required attributes, tipo P without its Pagos 2.0 complement (cfdi_missing), a tipo N sent to factura or another type sent to nomina (cfdi_unsupported, naming the right template), nómina data the template’s checks refuse (cfdi_invalid: CURP, RFC, catalogues). The zip carries the XML byte for byte as factura.xml',
  }),
  custom_html: renderRequestSchema.shape.custom_html.meta({
    description: 'Your Jinja2 HTML (Pro, Scale, Lifetime), rendered in an isolated sandbox; every format',
  }),
  options: RenderOptionsDoc.optional(),
  documents: renderRequestSchema.shape.documents.meta({
    description:
      'Merge several documents into one PDF, in order (1–20 parts): each part is {"template", "data"} or {"template": "factura", "cfdi_xml"} or {"custom_html", "data"} (paid plans), validated like a single request (problems at body.documents[i]…). Instead of the top-level template/data/cfdi_xml/custom_html; format must be pdf. options apply to every part (page, margins, header/footer) and to the merged file (pdfa: each part’s source attached as 01-factura.xml, 02-data.json…; password; permissions); one bookmark per part; warnings of a cfdi_xml part come in X-CFDI-Avisos prefixed "documento i:". Counts one document per part, all or nothing (429 when the month has fewer left). Answered as documentos.pdf',
  }),
  metadata: renderRequestSchema.shape.metadata.meta({
    description:
      'Your own JSON object (order ids, references), at most 50 keys and 4096 bytes as JSON (otherwise 400 metadata_too_large at body.metadata). Not rendered; an async job (options.async) shows it as sent in GET /v1/jobs/{id} and in its webhook events (data.job.metadata)',
  }),
});

const invalid400: ResponseDoc = {
  description: 'Invalid request: every problem at once, `{"detail": [{loc, msg, type, ctx?}]}`',
  schema: ValidationError,
};

const common = {
  400: invalid400,
  401: {
    description: 'Malformed, unknown or revoked API key (WWW-Authenticate: Bearer)',
    schema: ErrorDetail,
  },
  402: { description: 'The key’s Pro or Scale subscription lapsed (canceled, unpaid…)', schema: LapsedKey },
  503: { description: 'A backing service is unavailable; retry (Retry-After)', schema: ErrorDetail },
} satisfies Record<number, ResponseDoc>;

const slug: ParamDoc = {
  name: 'slug',
  in: 'path',
  required: true,
  description: 'Template slug: factura, ventas, balance, certificado, cotizacion or nomina',
};

const queryParams = (schema: z.ZodObject, notes: Record<string, string>): ParamDoc[] =>
  Object.keys(schema.shape).map((name) => ({
    name,
    in: 'query',
    required: !schema.shape[name]!.safeParse(undefined).success,
    description: notes[name] ?? name,
  }));

export const DOCUMENTS_ROUTE_DOCS: Record<string, RouteDoc> = {
  Render: {
    summary: 'Render a document',
    tags: ['documents'],
    bearer: 'optional',
    description:
      'JSON data + a built-in template, or your own Jinja2 HTML (custom_html, paid plans), becomes a document in ' +
      'one of ten formats. The answer is the file itself with its Content-Type and ' +
      '`Content-Disposition: attachment; filename="<slug>.<ext>"` (`documento.<ext>` for custom HTML). Documents ' +
      'over 4 MiB are answered with 303 to a download link valid one hour. Free-plan PDFs carry a subtle watermark.',
    body: { schema: RenderRequestDoc, contentTypes: ['application/json'] },
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
  Templates: {
    summary: 'List the built-in templates',
    tags: ['templates'],
    description:
      'Every built-in template with its purpose, formats, page defaults, the JSON Schema of its data (`fields`), ' +
      'sample data and links; the partials custom HTML may include; the formats custom HTML renders to. Cached 1 h.',
    responses: { 200: { description: 'Templates', schema: TemplatesResponse } },
  },
  TemplateSample: {
    summary: "A template's sample PDF",
    tags: ['templates'],
    description:
      'The template rendered from its sample data, without watermark (`inline; filename="<slug>-ejemplo.pdf"`). ' +
      'Not counted against any plan. Cached 1 day.',
    params: [slug],
    responses: {
      200: { description: 'PDF', schema: Binary, contentType: 'application/pdf' },
      404: { description: 'Unknown template', schema: ErrorDetail },
    },
  },
  TemplateSource: {
    summary: "A template's Jinja2 source",
    tags: ['templates'],
    description:
      'The HTML/Jinja2 source of a built-in template, as text/plain: copy and adapt it as custom_html (it may ' +
      'include the partials base.html, estilos.html and macros.html).',
    params: [slug],
    responses: {
      200: { description: 'Jinja2 source', schema: z.string(), contentType: 'text/plain; charset=utf-8' },
      404: { description: 'Unknown template', schema: ErrorDetail },
    },
  },
  Pricing: {
    summary: 'Plans and prices',
    tags: ['billing'],
    description:
      'The four plans with price (USD), monthly allowance, scope (per IP or per account), features and the path ' +
      'that buys each paid plan (`checkout`). Cached 1 h.',
    responses: { 200: { description: 'Plans', schema: PricingResponse } },
  },
  DocumentStats: {
    summary: 'Public statistics',
    tags: ['meta'],
    description: 'Counters, not scans: documents delivered, by format. Cached 60 s.',
    responses: { 200: { description: 'Statistics', schema: StatsResponse } },
  },
  SitePage: {
    summary: 'Playground (Spanish): try the templates in the browser',
    tags: ['meta'],
    description:
      'The HTML page for people (es-MX): pick a template, edit its sample data (checked as you type against the ' +
      "template's JSON Schema from GET /templates), pick a format and render through POST /v1/render (PDF and PNG " +
      'previewed, everything downloadable); a custom_html tab for paid keys. Strict Content-Security-Policy (own ' +
      'scripts and styles only, `frame-src blob:` for the PDF preview), HSTS, no framing; weak ETag (304 on ' +
      'If-None-Match); brotli/gzip per Accept-Encoding.',
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
  SiteFile: {
    summary: 'A file of the playground (script, style sheet)',
    tags: ['meta'],
    description: 'The files the page loads, by name; unknown names → 404 `{"detail": ...}`.',
    responses: {
      200: { description: 'The file' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
      404: { description: 'No such file', schema: ErrorDetail },
    },
  },
  PayCheckout: {
    summary: 'Buy a plan (Stripe Checkout)',
    tags: ['billing'],
    description:
      '`plan` is `pro` ($9/month) or `scale` ($29/month), both subscriptions, or `lifetime` ($49 once); anything ' +
      'else is a 400. Browsers get a 302 to Stripe; clients sending `Accept: application/json` get 200 with the ' +
      'URL. After paying, Stripe sends the buyer to GET /pay/success, which shows the API key once.',
    params: [
      { name: 'plan', in: 'path', required: true, description: 'pro, scale or lifetime' },
      ...queryParams(CheckoutQuery, {
        email: 'Prefilled e-mail on the Stripe page (≤ 200)',
        ref: 'Attribution reference kept on the purchase (≤ 120)',
      }),
    ],
    responses: {
      200: { description: 'Checkout URL (JSON clients)', schema: CheckoutResponse },
      302: { description: 'Redirect to Stripe Checkout', headers: { Location: 'Checkout page' } },
      400: invalid400,
      503: common[503],
    },
  },
  PaySuccess: {
    summary: 'Pick up the API key after paying',
    tags: ['billing'],
    description:
      'The first call (within 24 h) returns the plaintext `api_key` once; later calls return the plan with ' +
      '`api_key: null` and how to get a new key (POST /pay/keys/rotate with the key, or support).',
    params: queryParams(SuccessQuery, { session_id: 'cs_… from the Checkout redirect' }),
    responses: {
      200: { description: 'Plan, status and (once) the key', schema: SuccessResponse },
      400: invalid400,
      404: { description: 'Unknown session, or not a purchase of this API', schema: ErrorDetail },
      409: { description: 'Checkout not completed, or payment still pending', schema: ErrorDetail },
      503: common[503],
    },
  },
  PayStatus: {
    summary: 'Plan, status and this month’s usage',
    tags: ['billing'],
    bearer: 'optional',
    description:
      "With a Bearer key: the key's plan, billing status, paid access, account and this month's usage of the " +
      "plan's allowance (a lapsed key is answered too). Without: this IP's free-tier usage. Both list the plans.",
    responses: { 200: { description: 'Status', schema: PayStatusResponse }, 401: common[401] },
  },
  PayPortal: {
    summary: 'Stripe customer portal',
    tags: ['billing'],
    bearer: 'required',
    description:
      "Cancel, change the card, see invoices. Requires the account's API key and its e-mail; without a key every " +
      'e-mail gets the same 401, so the endpoint never reveals who is a customer.',
    params: [{ name: 'email', in: 'query', required: true, description: "The account's e-mail" }],
    responses: {
      200: { description: 'Portal session URL', schema: PortalResponse },
      400: invalid400,
      401: common[401],
      403: { description: "The e-mail is not the key's account's", schema: ErrorDetail },
      409: {
        description: 'The key has no billing account (issued by an administrator)',
        schema: ErrorDetail,
      },
      503: common[503],
    },
  },
  PayWebhook: {
    summary: 'Stripe webhook (for Stripe only)',
    tags: ['billing'],
    description:
      "Verifies `Stripe-Signature` on the raw body with this API's own endpoint secret. A completed checkout " +
      'creates the account and one key; subscription updates are copied onto its keys (deleted → 402). ' +
      'Idempotent per event id; older events never overwrite newer state; events of other products are ignored.',
    responses: {
      200: { description: 'Acknowledged (also replays and ignored events)', schema: WebhookAck },
      400: { description: 'Missing or bad signature', schema: ErrorDetail },
      409: {
        description: 'Another delivery of the event is in progress; Stripe retries',
        schema: ErrorDetail,
      },
      503: common[503],
    },
  },
  PayKeysRotate: {
    summary: 'Replace an API key',
    tags: ['billing'],
    bearer: 'required',
    description:
      'Issues a new key for the same account and plan and revokes the one sent (it gets 401 from then on); the ' +
      'new key is shown once.',
    responses: {
      200: { description: 'The new key', schema: RotateResponse },
      401: common[401],
      409: { description: 'Not a purchased key, or already rotated', schema: ErrorDetail },
    },
  },
  ...META_ROUTE_DOCS,
  ...WEBHOOK_ROUTE_DOCS,
};
