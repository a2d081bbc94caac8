// The documents API's GET /api: valid OpenAPI 3.1 (independent validator), every manifest route described, the
// documented bodies are what the handlers answer, and the overview states the decisions the contract leaves open —
// with its plan and zip tables equal to what the service does.
import { unzipSync } from 'fflate';
import { documentsApiDocument, makeHandler as apiDocs } from '../../lambdas/documents/handlers/api';
import { makeHandler as pricing } from '../../lambdas/documents/handlers/pricing';
import { makeHandler as stats } from '../../lambdas/documents/handlers/document-stats';
import { makeHandler as templates } from '../../lambdas/documents/handlers/templates';
import { zipEntries } from '../../lambdas/documents/api/overview';
import { PricingResponse, StatsResponse, TemplatesResponse } from '../../lambdas/documents/api/schemas';
import { PLANS } from '../../lambdas/documents/core/plans';
import { parseRenderRequest, renderDocument } from '../../lambdas/documents/use-cases/render-request';
import { TEMPLATE_SLUGS, findTemplate } from '../../lambdas/documents/domain/template-registry';
import { documentsManifest } from '../../lambdas/documents/routes';
import type { GrowthStore } from '../../lambdas/shared/growth/ports';
import { apiEvent, callHandler } from '../helpers/api-event';
import { validateOpenApi } from '../helpers/openapi';

jest.setTimeout(60_000);

type Op = {
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
};
type Schema = {
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  enum?: unknown[];
  type?: string;
  description?: string;
};

let doc: { info: { description: string }; paths: Record<string, Record<string, Op>> };
beforeAll(async () => {
  doc = (await documentsApiDocument()) as typeof doc;
});

const event = (path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  apiEvent('GET', path, { query, headers });
const call = (h: Parameters<typeof callHandler>[0], e = event('/x')) => callHandler(h, e);

test('the document validates with @seriousme/openapi-schema-validator (OpenAPI 3.1)', () => {
  expect(validateOpenApi(doc)).toEqual({ valid: true });
});

test('every documents manifest route is described, with its method', () => {
  const routes = documentsManifest.routes.filter((r) => r.path !== '$default');
  expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(['Render', 'PayCheckout', 'ApiDocs']));
  for (const route of routes) expect(doc.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
});

test('POST /v1/render: the request schema is the handler’s, with the value types of options written down', () => {
  const op = doc.paths['/v1/render']!.post!;
  const schema = op.requestBody!.content['application/json']!.schema;
  // data is required unless cfdi_xml (factura from a CFDI XML) is sent: the handler checks that pair itself.
  expect(schema.required).toEqual(['format']);
  expect(schema.properties!.data!.description).toMatch(/Required unless cfdi_xml is sent/);
  expect(schema.properties!.cfdi_xml!.description).toMatch(/CFDI 4\.0 XML/);
  expect(schema.properties!.format!.description).toMatch(
    /pdf, xlsx, csv, html, json, md, txt, png, docx, zip/,
  );
  const options = schema.properties!.options!;
  const opts = (options.properties ?? options.anyOf?.find((s) => s.properties)?.properties)!;
  expect(Object.keys(opts)).toEqual(
    expect.arrayContaining(['page_size', 'margin', 'landscape', 'header_html', 'footer_html']),
  );
  expect(opts.landscape!.type).toBe('boolean');
  // Names are case-insensitive (so a string, with the names in the description) or {width, height}.
  expect(opts.page_size!.description).toMatch(/A4, Letter, Legal/);
  expect(opts.page_size!.anyOf!.map((s) => s.type)).toEqual(['string', 'object']);
  expect(opts.margin!.description).toMatch(/millimetres/);
  expect(opts.pdfa!.type).toBe('boolean');
  expect(opts.pdfa!.description).toMatch(/PDF\/A-3b.*Default true with cfdi_xml/);
  expect(Object.keys(op.responses)).toEqual(
    expect.arrayContaining(['200', '303', '400', '401', '402', '403', '429', '500']),
  );
  expect(Object.keys(op.responses['200']!.content!)).toEqual(
    expect.arrayContaining(['application/pdf', 'application/zip', 'image/png']),
  );
  expect(op.responses['303']!.headers).toHaveProperty('Location');
  expect(op.responses['429']!.headers).toHaveProperty('Retry-After');
  expect(op.responses['429']!.headers).toHaveProperty('RateLimit-Reset');
});

test('the documented GET bodies are what the handlers answer', async () => {
  const pricingRes = await call(pricing());
  expect(pricingRes.statusCode).toBe(200);
  const priced = PricingResponse.parse(JSON.parse(pricingRes.body));
  // Each paid plan says where it is bought; free is not sold.
  expect(priced.plans.map((p) => [p.id, p.checkout])).toEqual([
    ['free', null],
    ['pro', '/pay/checkout/pro'],
    ['scale', '/pay/checkout/scale'],
    ['lifetime', '/pay/checkout/lifetime'],
  ]);

  const growth = {
    getMany: async () => new Map([['docs#stats', { documents: 3, format_pdf: 2, format_csv: 1 }]]),
  } as unknown as GrowthStore;
  const statsRes = await call(stats({ growth }));
  const counted = StatsResponse.parse(JSON.parse(statsRes.body));
  expect(counted.documents_rendered).toBe(3);
  expect(counted.by_format.pdf).toBe(2);

  const listing = TemplatesResponse.parse(JSON.parse((await call(templates())).body));
  expect(listing.templates.map((t) => t.slug)).toEqual(TEMPLATE_SLUGS);
});

test('the overview’s plan table is the enforced plans; the zip table is what a zip really holds', async () => {
  const md = doc.info.description;
  for (const p of PLANS)
    expect(md).toMatch(
      new RegExp(`\\| ${p.name} \\|[^\\n]*\\| ${p.documents_per_month.toLocaleString('en-US')} \\|`),
    );
  // Render each template's zip (Chromium stubbed: the PDF/PNG bytes do not matter here) and compare its entries.
  const stub = {
    renderPdf: async () => Buffer.from('%PDF-1.7 stub'),
    renderPng: async () => Buffer.from('png stub'),
  };
  for (const slug of TEMPLATE_SLUGS) {
    const t = findTemplate(slug)!;
    if (!t.meta.formats.includes('zip')) continue;
    const request = parseRenderRequest({ template: slug, format: 'zip', data: t.sample });
    const zip = await renderDocument(request, stub);
    const names = Object.keys(unzipSync(new Uint8Array(zip.bytes)));
    expect(zipEntries(slug)).toEqual(names);
    expect(md).toContain(`| ${slug} | ${names.map((n) => `\`${n}\``).join(', ')} |`);
  }
  const custom = parseRenderRequest({ custom_html: '<p>{{ x }}</p>', format: 'zip', data: { x: 1 } });
  const names = Object.keys(unzipSync(new Uint8Array((await renderDocument(custom, stub)).bytes)));
  expect(md).toContain(`| custom_html | ${names.map((n) => `\`${n}\``).join(', ')} |`);
});

test('the reference page (Swagger UI) reads the JSON, whose description states the decisions the contract leaves open', async () => {
  const res = await call(apiDocs(), event('/api', {}, { accept: 'text/html' }));
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  expect(res.headers['content-security-policy']).toContain("script-src 'self';");
  const html = res.body;
  expect(html).toContain('data-spec="/api?format=json"');
  expect(html).toContain('<script src="/api/assets/swagger-ui-bundle.js"></script>');
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
  const md = doc.info.description;
  for (const decision of [
    '00:00 UTC on the 1st', // monthly reset moment
    'RateLimit-Remaining',
    '{"detail": [{"loc"', // the 400 body shape
    'WWW-Authenticate: Bearer', // invalid key → 401
    '**402**', // lapsed key
    '303 See Other', // large documents
    '`LEEME.txt`', // zip contents
    'Versioning',
    '/pay/checkout/{plan}',
  ])
    expect(md).toContain(decision);
  // The signature-verification sample is a fenced code block, verbatim (Swagger UI renders it as code).
  const code = /```js\n([\s\S]*?)```/.exec(md)?.[1] ?? '';
  expect(code).toContain("const { createHmac, timingSafeEqual } = require('node:crypto');");
  expect(code).toMatch(/\n {2}const expected = createHmac\('sha256', secret\)/);

  const asJson = await call(apiDocs(), event('/api', { format: 'json' }));
  expect(JSON.parse(asJson.body)).toEqual(doc);
});
