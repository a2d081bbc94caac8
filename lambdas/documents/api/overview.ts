// The prose part of the documents API's GET /api: every decision the contract leaves "not shown", written down.
// The plan and zip tables are generated from the code that enforces them (plans, template registry), so they cannot
// disagree with the service. Markdown subset rendered by lambdas/shared/http/openapi.ts: paragraphs, `code`,
// **bold**, tables, one-line bullets, `## ` headings (each its own paragraph).
import { TEMPLATE_SLUGS, findTemplate } from '../domain/template-registry';
import { pricedPlans } from '../core/pricing';
import { WEBHOOKS_OVERVIEW } from './webhooks-doc';
import type { ServiceApiInfo } from '../../shared/http/api-docs';

const n = (x: number) => x.toLocaleString('en-US');

function plansTable(): string {
  const price = (p: { price_usd: number; billing: string }) =>
    p.billing === 'free'
      ? '$0, no key'
      : p.billing === 'monthly'
        ? `$${p.price_usd} per month`
        : `$${p.price_usd} once`;
  const rows = pricedPlans().map(
    (p) =>
      `| ${p.name} | ${price(p)} | ${n(p.documents_per_month)} | ${p.scope === 'ip' ? 'client IP' : 'API key'} | ${p.features.join('; ')} | ${p.checkout ? `\`GET ${p.checkout}\`` : '—'} |`,
  );
  return [
    '| Plan | Price | Documents per month | Counted per | Features | Buy |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The zip's entries per template, as POST /v1/render builds them (pipeline/formats.ts `zipFormats` + attachments). */
export function zipEntries(slug: string): string[] {
  const t = findTemplate(slug)!;
  const own = t.meta.formats.filter((f) => f !== 'zip' && f !== 'json').map((f) => `${slug}.${f}`);
  const extra = t.attachments ? t.attachments(t.schema.parse(t.sample) as never).map((a) => a.name) : [];
  return [...own, ...extra, 'data.json', 'LEEME.txt'];
}

/** "factura Letter, 14mm; …" from the templates' own page defaults. */
function pageDefaults(): string {
  return TEMPLATE_SLUGS.map((slug) => {
    const { size, landscape, margin } = findTemplate(slug)!.meta.page;
    return `${slug} ${size}${landscape ? ' landscape' : ''}, margin ${margin}`;
  }).join('; ');
}

function zipTable(): string {
  const rows = TEMPLATE_SLUGS.map(
    (slug) =>
      `| ${slug} | ${zipEntries(slug)
        .map((e) => `\`${e}\``)
        .join(', ')} |`,
  );
  return [
    '| Template | Entries, in order |',
    '| --- | --- |',
    ...rows,
    '| custom_html | `documento.html`, `documento.pdf`, `data.json`, `LEEME.txt` |',
  ].join('\n');
}

export function documentsOverview(): string {
  return `
JSON data plus a built-in template (Mexican invoice CFDI 4.0, sales report, balance sheet, certificate, quote, payroll
receipt) or your own Jinja2 HTML becomes a document in one of ten formats: pdf, xlsx, csv, html, json, md, txt, png,
docx, zip. This page states what the contract leaves open; the endpoints follow.

## Plans and monthly allowances

${plansTable()}

**Monthly reset.** Allowances are calendar months in **UTC**: the count starts again at **00:00 UTC on the 1st** of each month (not 30 days after the first render, not per time zone). Counting is exact under concurrency: with 50 left, 100 simultaneous requests get exactly 50 documents.

Every counted render answers with \`RateLimit-Limit\` (the plan's monthly allowance), \`RateLimit-Remaining\`, \`RateLimit-Reset\` (seconds until 00:00 UTC on the 1st) and \`RateLimit-Policy\` (e.g. \`50;w=2592000\`, w a nominal month). Over the allowance the answer is **429** with \`Retry-After\` (the same seconds) and \`{"detail": "..."}\`. GET /pay/status shows the month's usage without spending any.

What counts: each document delivered (200, or 303 for a large one). What does not: invalid requests (400), 401/402/403, renders that fail on our side (500) and sample PDFs. A zip is one document. The free tier is counted per client IP (the connection's address as API Gateway sees it; \`X-Forwarded-For\` is not trusted); paid allowances per account (all keys of an account share one counter, so rotating a key does not reset the month). Free-plan PDFs (also the PDF inside a zip) carry a subtle diagonal "Generado con el plan gratuito"; paid plans have none.

## Authentication and invalid keys

- No \`Authorization\` header: the free tier, limited per IP; built-in templates only.
- \`Authorization: Bearer <API key>\` of an active plan: that plan's allowance, no watermark, custom_html.
- A malformed header, an unknown key or a revoked key (e.g. replaced by POST /pay/keys/rotate): **401** with \`WWW-Authenticate: Bearer\` and \`{"detail": "..."}\`. Never silently served as free tier.
- A key whose Pro or Scale subscription lapsed (canceled, unpaid, incomplete, paused): **402** \`{"detail": "...", "plan": "scale", "status": "canceled"}\`; the detail points to POST /pay/portal (card, invoices) and GET /pay/checkout/{plan}. While Stripe retries a failed card (\`past_due\`) the key keeps working. Lifetime never lapses.
- \`custom_html\` without a paid key: **403**.

Keys are obtained by buying a plan: GET /pay/checkout/{plan} → Stripe → GET /pay/success shows the key once.

## Errors

Invalid requests are **400** with every problem at once, in one shape: \`{"detail": [{"loc": ["body", "data", "items", 0, "precio"], "msg": "Input should be greater than 0", "type": "greater_than"}]}\`. \`loc\` says where (body member path, or \`query\`/\`path\` parameter), \`type\` is stable for programs, \`msg\` is for people; some items add \`ctx\` (\`allowed\` values for \`unknown_template\` and \`unsupported_format\`; \`line\` and \`column\` for errors in your template).

- 400 covers: missing or mistyped fields, malformed JSON (\`json_invalid\`), JSON nested more than 64 levels deep (\`json_too_deep\`, at the path of the first value too deep; the Narration API answers it 422, its contract's status for every invalid body), an unknown template, a format the template does not render to, data that fails the template's schema (per field), errors in custom_html/header_html/footer_html (\`template_syntax_error\`, \`template_render_error\`, \`template_include_refused\`, \`template_timeout\` after 500 ms, \`template_memory_limit\` at 64 MB, \`template_output_too_large\`), custom HTML that does not finish rendering in 15 s (a built-in template that does is our fault: **503**, retry), and bad parameters of the /pay routes.
- Bodies over the endpoint's limit (2 MiB for \`POST /v1/render\`) are refused before parsing, also **400** in the same list shape (\`type: body_too_large\`).
- Every other error is \`{"detail": "<message>"}\`: 401, 402 (with \`plan\`, \`status\`), 403, 404, 405 (with \`Allow\`), 409, 429, 503 (a backing service is down, or the request hit its time limit: retry after \`Retry-After\`; a request answered 503 is never counted).
- **500** only for a real rendering fault on our side, with \`request_id\` in the body; it is not counted. Every answer carries \`X-Request-Id\`. CORS: any origin may call the API.
- **In Spanish**: with \`Accept-Language: es\` (es-MX, es-ES…; q-values honoured) every \`detail\` message and item \`msg\` is Spanish; English stays the default, and status, keys, \`loc\` and \`type\` never change. A \`{"detail": "<message>"}\` answer also carries \`X-Error-Code\` (e.g. \`monthly_limit\`, \`custom_html_paid\`), stable across languages and rewordings. Messages of your own template's engine (nunjucks syntax errors) stay as the engine wrote them.

## CFDI XML as input (factura)

Instead of \`data\`, send \`"cfdi_xml": "<cfdi:Comprobante …>"\` with \`"template": "factura"\`: a CFDI 4.0 (types I, E, T and P), usually the stamped XML your PAC returned, or a **CFDI de Retenciones e información de pagos 2.0** (root \`retencionpago/2\` Retenciones: printed as a *constancia de retenciones* with its clave, periodo, totals, each retained tax, its complements and SAT's Retenciones verification QR). **Every complement is printed**: Carta Porte 3.1/3.0/2.0 (ubicaciones, mercancías, autotransporte, figuras), Comercio Exterior 2.0/1.1 (Incoterm, each fracción arancelaria, TotalUSD), Impuestos locales 1.0 (each local tax in the totals and counted in Total's check), INE, Donatarias, Leyendas fiscales, Servicios parciales de construcción, Vehículo usado, Divisas, Turista pasajero extranjero and the rest, from their own elements and as written; at concept level ACuentaTerceros, InformacionAduanera (pedimento), CuentaPredial, Parte, IEDU and Venta de vehículos. A complement the service does not know is never dropped: it is printed as a generic section of its attributes and elements under a notice, and the \`X-CFDI-Complementos-No-Reconocidos\` header names it (\`local (namespace)\`). Validation follows SAT's XSD facets, nothing stricter (e.g. an NSS of 1 to 15 digits, a CURP by its pattern). The PDF prints the XML's own figures, its CFDI relacionados and its TimbreFiscalDigital (UUID, fecha de timbrado, RFC del PAC, sellos, certificado del SAT, the cadena original built as SAT's cadenaoriginal_TFD_1_1.xslt defines it) with the verification QR (SAT's URL with id, re, rr, tt and fe = last 8 characters of the sello). The totals are re-checked against the conceptos with SAT's rounding rules; a mismatch is printed as a red band and returned in the \`X-CFDI-Avisos\` header, never corrected. The XML is parsed without any DTD processing: a DOCTYPE or entity, XML that is not well-formed, a root outside the namespace \`http://www.sat.gob.mx/cfd/4\` (CFDI 3.3 is named as such) and missing required attributes are a 400 at \`body.cfdi_xml\`; A **recibo de pago** (tipo P) prints its Complemento Pagos 2.0: each payment (date, form, currency and exchange rate, amount, operation number), each document it pays (UUID, serie-folio, parcialidad, saldo anterior, pagado, saldo insoluto, its taxes) and the Pagos totals; saldo insoluto = saldo anterior − pagado and MontoTotalPagos = Σ Monto × TipoCambioP are re-checked like the rest (band + \`X-CFDI-Avisos\`); a tipo P without the complement is a 400 \`cfdi_missing\`. A **CFDI de nómina** (tipo N with Complemento de Nómina 1.2) goes with \`"template": "nomina"\`: the receipt prints its percepciones (gravado/exento), deducciones, otros pagos and the receptor's labour data (CURP, NSS, contract, régimen, periodicidad, SDI, account), its net pay as the XML's Total, and the same timbre block and QR; its totals (TotalPercepciones, TotalGravado/Exento, TotalDeducciones, TotalImpuestosRetenidos, TotalOtrosPagos, SubTotal, Descuento, Total) are re-checked against its lines, a mismatch is the red band and \`X-CFDI-Avisos\`; the PDF/A carries it as \`nomina.xml\`. Sent to the other template, either kind is a 400 \`cfdi_unsupported\` naming the right one. A zip carries the XML byte for byte as \`factura.xml\`; a PDF is a PDF/A-3b with the XML embedded (\`options.pdfa\`, default true here).

## Several documents in one PDF (documents)

Send \`"documents": [{"template": "factura", "cfdi_xml": "…"}, {"template": "ventas", "data": {…}}, …]\` with \`"format": "pdf"\` instead of \`template\`/\`data\`/\`cfdi_xml\`/\`custom_html\` (sending both is a 400 \`documents_conflict\`): 1 to 20 parts, each validated like a single request (its problems at \`body.documents[i]…\`, all at once; \`format\`, \`options\` or \`metadata\` inside a part is a 400 — they belong to the request). The answer is one PDF, \`documentos.pdf\`, with every page of every part in order and one bookmark per part. \`options\` apply to every part (page size, margins, header/footer) and to the merged file: \`pdfa\` (default false here; each part's source attached as \`01-factura.xml\`, \`02-data.json\`…), \`password\`, \`permissions\`. The free plan's watermark is on every page. A merge **counts one document per part**, all or nothing: with fewer left this month than parts, the answer is 429 and nothing is counted. \`X-CFDI-Avisos\` lists each cfdi_xml part's warnings prefixed \`documento i:\`. The whole body stays within the 2 MiB limit; a result over 4 MiB is a 303 like any large document.

## Options: value types

| Member | Type | Values |
| --- | --- | --- |
| \`page_size\` | string or object | \`A4\`, \`Letter\`, \`Legal\`, \`A3\`, \`A5\`, \`Tabloid\` (case-insensitive), or \`{"width": L, "height": L}\` |
| \`margin\` | L or object | one length for all sides, or \`{"top", "right", "bottom", "left"}\` (each optional L) |
| \`landscape\` | boolean | swaps width and height |
| \`header_html\`, \`footer_html\` | string, ≤ 20,000 characters | Jinja2 with the same data; \`<span class="pageNumber"></span>\` and \`<span class="totalPages"></span>\` |
| \`csv_bom\` | boolean | csv only: start with a UTF-8 BOM (Excel) |
| \`require_xml\` | boolean | factura: the zip must carry the CFDI 4.0 XML; data lacking a field cfdv40.xsd requires is a 400 naming each field (without it, the zip leaves the XML out and LEEME.txt lists the fields) |
| \`pdfa\` | boolean | format pdf only (otherwise a 400 at \`body.options.pdfa\`): a PDF/A-3b — XMP declaring PDF/A-3B, sRGB output intent, embedded fonts — carrying what it was printed from as an associated file (AFRelationship Source): the CFDI XML byte for byte as \`factura.xml\` for \`cfdi_xml\`, otherwise \`data.json\`. Default **true with \`cfdi_xml\`**, false otherwise; the PDF in a zip is a plain PDF |
| \`password\` | string, 1–127 bytes as UTF-8 | format pdf only: the PDF is encrypted (AES-256, /V 5 /R 6) and opens only with this password. PDF/A forbids encryption: with \`pdfa: true\` it is a 400 \`option_conflict\` at \`body.options.pdfa\`; with \`cfdi_xml\` the PDF/A default gives way (a protected plain PDF, the XML not embedded). A free-plan watermark is drawn first, so it is inside the encrypted file |
| \`permissions\` | object | format pdf only: \`{"print", "copy", "modify", "annotate"}\` booleans, each true when left out. Enforced by readers that honour PDF permissions (Acrobat, pdf.js, qpdf); \`copy: false\` keeps extraction for accessibility. Without \`password\` the PDF opens freely with the restrictions; the owner password that lifts them is random and never kept |

A length L is a number of millimetres (0–500) or a string \`12mm\`, \`1cm\`, \`0.5in\`, \`20px\`. Page options apply to PDFs (also the PDF in a zip); other formats ignore them. Without them the template's page applies (${pageDefaults()}; custom HTML: its CSS \`@page\` size, else A4, margin 12 mm), a margin widened to 20 mm at the top/bottom where a header/footer is drawn. Unknown members of \`options\` are ignored.

## Responses

- POST /v1/render: the file itself with its \`Content-Type\` and \`Content-Disposition: attachment; filename="<slug>.<ext>"\` (\`documento.<ext>\` for custom_html).
- **Large documents**: over 4 MiB the answer is **303 See Other** with \`Location\`, a download link valid for one hour (GET without Authorization) and the RateLimit headers; the document counts like a 200. A Lambda response cannot carry more (6 MB, base64-encoded).
- GET /templates: \`{"templates": [{slug, title, purpose, formats, page, fields, sample, source_url, sample_pdf_url}], "partials": [...], "custom_html_formats": [...]}\`; \`fields\` is the JSON Schema of \`data\`.
- GET /templates/{slug}/sample.pdf: \`application/pdf\`, without watermark, not counted. GET /templates/{slug}/source: the Jinja2 source as \`text/plain\`. Unknown slug: 404.
- GET /pricing: \`{"currency": "USD", "quota_reset": "...", "plans": [{id, name, price_usd, billing, documents_per_month, scope, features, checkout}]}\`.
- GET /stats: \`{"documents_rendered": N, "by_format": {"pdf": N, ...}, "templates": 6, "formats": 10}\` (counters).
- Schemas of every body are in the endpoint list below and in the OpenAPI document (\`?format=json\`).

## Zip contents (exact)

${zipTable()}

Each file of the template's formats (the zip aside) in the template's order, then files the template builds from the same data, \`data.json\` (the validated data, 2-space JSON) and \`LEEME.txt\` (Spanish: what each file is). Custom HTML bundles its HTML and its PDF. PDFs and XLSX are stored, text is deflated.

## Billing: the /pay routes

Same routes as the narration API, with this API's plans and prices; Stripe hosts every payment page. GET /pay/checkout/{plan} (\`pro\`, \`scale\` or \`lifetime\`; 302 to Stripe, or JSON with \`Accept: application/json\`) → after paying, Stripe sends the buyer to GET /pay/success?session_id=…, which shows the API key **once** (within 24 hours). GET /pay/status: plan, status and this month's usage (with or without a key). POST /pay/portal?email=… with the key: Stripe's portal (cancel, card, invoices). POST /pay/keys/rotate with the key: a new key, the old one stops working. POST /pay/webhook is for Stripe only. Pro and Scale renew monthly until canceled; when the subscription ends (Stripe's portal cancels at the end of the paid period) the key gets 402. To switch between Pro and Scale use the portal (your keys follow the new plan at once); a second checkout for a subscription while one is active answers **409** pointing there. Keys of this API work on this API only.

## Versioning

The contract is version 1.0.0. Only POST /v1/render carries a version prefix; the other paths never will. Within v1 changes are additive only: new optional request members, new response members, new templates, formats and error \`type\` values. Clients must ignore members they do not know. A breaking change would be served as /v2/render next to /v1/render, which keeps working for at least 12 months after /v2 is announced; deprecation is announced here and with \`Deprecation\` and \`Sunset\` headers on /v1 answers. Built-in templates keep their required \`data\` members within v1 (new members are optional).
${WEBHOOKS_OVERVIEW ? `\n${WEBHOOKS_OVERVIEW.trim()}\n` : ''}`;
}

/** GET /api (handlers/api.ts): the overview above, and the page's words. */
export const DOCUMENTS_API: ServiceApiInfo = {
  nombre: 'Documentos',
  intro:
    'Convierte datos JSON o un CFDI 4.0 en XML, con una plantilla (factura, nómina, cotización…) o tu propio HTML, en PDF, PNG, Excel y otros formatos.',
  overview: documentsOverview,
};
