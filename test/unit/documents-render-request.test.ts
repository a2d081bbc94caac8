// POST /v1/render's request validation (every problem at once, 400 items) and the renderDocument orchestrator with
// fake Chromium functions: which HTML and page options reach Chromium, the watermark, filenames, content types and
// the exact content of zips.
import { RenderTimeoutError } from '../../lambdas/documents/render/errors';
import { Unavailable, WorkStopped } from '../../lambdas/shared/errors';
import { documentsManifest } from '../../lambdas/documents/routes';
import { errorResponse } from '../../lambdas/shared/http/api-handler';
import { findTemplate } from '../../lambdas/documents/domain/template-registry';
import JSZip from 'jszip';
import { DocumentRequestError, TemplateError } from '../../lambdas/documents/errors';
import {
  parseRenderRequest,
  renderDocument,
  validateRenderRequest,
} from '../../lambdas/documents/use-cases/render-request';
import { pdfOptions } from '../../lambdas/documents/pipeline/view';
import { WATERMARK_TEXT } from '../../lambdas/documents/render/post-process';
import {
  toPuppeteerPdfOptions,
  type PdfOptions,
  type PngOptions,
} from '../../lambdas/documents/render/page-options';
import { TEMPLATES } from '../../lambdas/documents/domain/template-registry';
import { rejectsAsHttp } from '../helpers/as-http';

const factura = TEMPLATES.find((t) => t.meta.slug === 'factura')!;
const ventas = TEMPLATES.find((t) => t.meta.slug === 'ventas')!;

function fakeChromium() {
  const calls: { kind: 'pdf' | 'png'; html: string; options: PdfOptions & PngOptions }[] = [];
  return {
    calls,
    renderPdf: async (html: string, options: PdfOptions) => {
      calls.push({ kind: 'pdf', html, options });
      return Buffer.from('%PDF-1.7 fake');
    },
    renderPng: async (html: string, options: PngOptions) => {
      calls.push({ kind: 'png', html, options });
      return Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    },
  };
}

function problems(body: unknown) {
  const r = validateRenderRequest(body);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

describe('validateRenderRequest', () => {
  it('lists every missing field at once', () => {
    expect(problems({})).toEqual([
      { loc: ['body', 'format'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'data'], msg: 'Field required', type: 'missing' },
      {
        loc: ['body', 'template'],
        msg: expect.stringContaining(
          'Field required: give a template (factura, ventas, balance, certificado, cotizacion or nomina) or your own custom_html',
        ),
        type: 'missing',
      },
    ]);
  });

  it('refuses a body that is not an object', () => {
    expect(problems([1, 2])[0]).toMatchObject({ loc: ['body'], type: 'model_attributes_type' });
    expect(problems(null)[0]).toMatchObject({ loc: ['body'] });
  });

  it('names the known slugs for an unknown template', () => {
    expect(problems({ template: 'recibo', format: 'pdf', data: {} })).toEqual([
      {
        loc: ['body', 'template'],
        msg: "Unknown template 'recibo': use one of factura, ventas, balance, certificado, cotizacion or nomina, or send custom_html",
        type: 'unknown_template',
        ctx: { allowed: ['factura', 'ventas', 'balance', 'certificado', 'cotizacion', 'nomina'] },
      },
    ]);
  });

  it("names the template's formats for one it does not render to", () => {
    expect(problems({ template: 'nomina', format: 'xlsx', data: TEMPLATES[5]!.sample })).toEqual([
      {
        loc: ['body', 'format'],
        msg: "Template 'nomina' renders to pdf or zip; 'xlsx' is not one of them",
        type: 'unsupported_format',
        ctx: { allowed: ['pdf', 'zip'] },
      },
    ]);
  });

  it('refuses a format outside the ten, naming them', () => {
    expect(problems({ template: 'factura', format: 'odt', data: factura.sample })[0]).toMatchObject({
      loc: ['body', 'format'],
      type: 'literal_error',
      msg: expect.stringContaining(
        "'pdf', 'xlsx', 'csv', 'html', 'json', 'md', 'txt', 'png', 'docx' or 'zip'",
      ),
    });
  });

  it('gives per-field messages for data failing the template schema, all at once', () => {
    const p = problems({
      template: 'factura',
      format: 'pdf',
      data: {
        empresa: '',
        items: [
          { concepto: 'x', cantidad: 0, precio: 'diez' },
          { concepto: 'y', cantidad: 1 },
        ],
        moneda: 'PESOS',
        fecha: '2024-02-30',
        rfc_emisor: 'NO-ES-RFC',
      },
    });
    const byLoc = Object.fromEntries(p.map((x) => [x.loc.join('.'), x.type]));
    expect(byLoc).toEqual({
      'body.data.empresa': 'string_too_short',
      'body.data.cliente': 'missing',
      'body.data.items.0.cantidad': 'greater_than',
      'body.data.items.0.precio': 'float_type',
      'body.data.items.1.precio': 'missing',
      'body.data.moneda': 'catalog_key',
      'body.data.fecha': 'date_format',
      'body.data.rfc_emisor': 'rfc_format',
    });
    expect(p.find((x) => x.loc.join('.') === 'body.data.moneda')!.msg).toMatch(/ISO 4217/);
    expect(p.find((x) => x.loc.join('.') === 'body.data.items.0.cantidad')!.msg).toBe(
      'Input should be greater than 0',
    );
  });

  it('reports template, format and data problems together', () => {
    const p = problems({ template: 'ventas', format: 'docx', data: { title: 'x', rows: [] } });
    expect(p.map((x) => x.loc.join('.'))).toEqual(['body.format', 'body.data.rows']);
    expect(p[1]).toMatchObject({ msg: 'List should have at least 1 item', type: 'too_short' });
  });

  it('accepts custom_html without template, and lets it override template', () => {
    const a = validateRenderRequest({ format: 'md', data: {}, custom_html: '<h1>{{ t }}</h1>' });
    expect(a.ok && a.request.kind).toBe('custom');
    const b = validateRenderRequest({
      template: 'no-existe',
      format: 'xlsx',
      data: { a: 1 },
      custom_html: '<p>x</p>',
    });
    expect(b.ok && b.request.kind).toBe('custom');
  });

  it('validates options and normalises page options', () => {
    expect(
      problems({
        template: 'factura',
        format: 'pdf',
        data: factura.sample,
        options: { page_size: 'B9', margin: '1 furlong', landscape: 'yes' },
      }).map((x) => x.loc.join('.')),
    ).toEqual(
      expect.arrayContaining(['body.options.page_size', 'body.options.margin', 'body.options.landscape']),
    );
    const r = parseRenderRequest({
      template: 'factura',
      format: 'pdf',
      data: factura.sample,
      options: { page_size: 'letter', margin: { top: 20, left: '1in' }, landscape: true },
    });
    expect(pdfOptions(r.options, factura.meta.page)).toEqual({
      pageSize: 'Letter',
      landscape: true,
      margin: { top: '20mm', right: '14mm', bottom: '14mm', left: '1in' },
    });
    const custom = parseRenderRequest({
      format: 'pdf',
      data: {},
      custom_html: 'x',
      options: { page_size: { width: '100mm', height: 150 }, footer_html: 'p' },
    });
    expect(pdfOptions(custom.options, { size: 'A4', landscape: false, margin: '12mm' })).toEqual({
      pageSize: { width: '100mm', height: '150mm' },
      landscape: false,
      margin: { top: '12mm', right: '12mm', bottom: '20mm', left: '12mm' },
    });
  });

  it('parseRenderRequest throws a 400 with the list', () => {
    expect(() => parseRenderRequest({ template: 'x' })).toThrow(DocumentRequestError);
    try {
      parseRenderRequest({ template: 'x' });
    } catch (err) {
      expect(errorResponse(err, 'r', documentsManifest.invalidRequestStatus).statusCode).toBe(400);
      expect((err as DocumentRequestError).items.length).toBe(3);
    }
  });

  it('is not polluted by __proto__ in the body or data', () => {
    const body = JSON.parse(
      '{"__proto__": {"polluted": 1}, "format": "json", "custom_html": "x", "data": {"__proto__": {"polluted": 2}}}',
    );
    validateRenderRequest(body);
    validateRenderRequest({
      template: 'factura',
      format: 'pdf',
      data: JSON.parse('{"__proto__": {"polluted": 3}}'),
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('renderDocument', () => {
  it('a merged part whose template fails is reported at body.documents[i], not at body.custom_html', async () => {
    const req = parseRenderRequest({
      format: 'pdf',
      documents: [
        { custom_html: '<p>{{ n }}</p>', data: { n: 1 } },
        { custom_html: '<p>{{ n | no_such_filter }}</p>', data: { n: 2 } },
      ],
    });
    const err = await renderDocument(req, fakeChromium()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TemplateError);
    expect((err as TemplateError).problems.map((p) => p.loc)).toEqual([
      ['body', 'documents', 1, 'custom_html'],
    ]);
  });

  it('sends the rendered template to Chromium with page options, watermarking free PDFs', async () => {
    const chromium = fakeChromium();
    const req = parseRenderRequest({ template: 'factura', format: 'pdf', data: factura.sample });
    const free = await renderDocument(req, chromium, { watermark: true });
    expect(free).toMatchObject({ contentType: 'application/pdf', filename: 'factura.pdf' });
    expect(free.bytes.toString()).toBe('%PDF-1.7 fake');
    expect(chromium.calls[0]!.html).toContain('Servicios Digitales del Bajío');
    expect(chromium.calls[0]!.options).toEqual({
      watermark: WATERMARK_TEXT,
      pageSize: 'Letter',
      landscape: false,
      margin: { top: '14mm', right: '14mm', bottom: '14mm', left: '14mm' },
    });
    await renderDocument(req, chromium, { watermark: false });
    expect(chromium.calls[1]!.options.watermark).toBeUndefined();
  });

  it('renders header and footer templates in the sandbox with the data', async () => {
    const chromium = fakeChromium();
    const req = parseRenderRequest({
      template: 'factura',
      format: 'pdf',
      data: factura.sample,
      options: {
        header_html: '<div>{{ empresa }} · {{ calc.total|currency }}</div>',
        footer_html: '<div>Página <span class="pageNumber"></span> de <span class="totalPages"></span></div>',
      },
    });
    await renderDocument(req, chromium);
    expect(chromium.calls[0]!.options.headerHtml).toBe(
      '<div>Servicios Digitales del Bajío, S.A. de C.V. · $30,284.18</div>',
    );
    expect(chromium.calls[0]!.options.footerHtml).toContain('<span class="pageNumber"></span>');
  });

  it.each(['factura', 'ventas', 'balance', 'cotizacion', 'nomina'])(
    "%s: a caller's footer_html replaces the template's own page footer (they would overlap)",
    async (slug) => {
      const sample = findTemplate(slug)!.sample;
      const own = fakeChromium();
      await renderDocument(parseRenderRequest({ template: slug, format: 'pdf', data: sample }), own);
      expect(own.calls[0]!.html).toMatch(/@bottom-right\s*\{[^}]*counter\(pages\)/);
      const theirs = fakeChromium();
      await renderDocument(
        parseRenderRequest({
          template: slug,
          format: 'pdf',
          data: sample,
          options: { footer_html: '<div><span class="pageNumber"></span></div>' },
        }),
        theirs,
      );
      expect(theirs.calls[0]!.html).not.toContain('@bottom-right');
      expect(theirs.calls[0]!.html).not.toContain('@bottom-left');
      expect(theirs.calls[0]!.options.footerHtml).toContain('pageNumber');
    },
  );

  it('a render timeout is 503 (retry) for a built-in template, 400 naming it for caller HTML', async () => {
    const stuck = {
      renderPdf: async () => {
        throw new RenderTimeoutError(15_000);
      },
      renderPng: async () => {
        throw new RenderTimeoutError(15_000);
      },
    };
    await expect(
      rejectsAsHttp(
        renderDocument(
          parseRenderRequest({ template: 'factura', format: 'pdf', data: factura.sample }),
          stuck,
        ),
      ),
    ).resolves.toMatchObject({ statusCode: 503, headers: { 'retry-after': '2' } });
    await expect(
      rejectsAsHttp(
        renderDocument(parseRenderRequest({ custom_html: '<p>x</p>', format: 'pdf', data: {} }), stuck),
      ),
    ).resolves.toMatchObject({ statusCode: 400, detail: expect.stringContaining('Make it lighter') });
    // A caller's header/footer HTML may be what is heavy: not blamed on the browser either.
    await expect(
      rejectsAsHttp(
        renderDocument(
          parseRenderRequest({
            template: 'factura',
            format: 'pdf',
            data: factura.sample,
            options: { header_html: '<div>x</div>' },
          }),
          stuck,
        ),
      ),
    ).resolves.toMatchObject({ statusCode: 400 });
  });

  it('a merge cut at its deadline stops where it is, also when the part in flight fails after the cut', async () => {
    const cut = new AbortController();
    let calls = 0;
    const failing = {
      renderPdf: async (html: string, options: PdfOptions) => {
        calls++;
        if (calls === 2) {
          cut.abort(); // the deadline answers while part 2 renders, and part 2 then fails (Chromium's time limit)
          throw new RenderTimeoutError(15_000);
        }
        return fakeChromium().renderPdf(html, options);
      },
      renderPng: async () => Buffer.alloc(0),
    };
    const merge = () =>
      parseRenderRequest({
        format: 'pdf',
        documents: Array.from({ length: 4 }, () => ({ template: 'factura', data: factura.sample })),
      });
    const stopped = await renderDocument(merge(), failing, { signal: cut.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(stopped).toBeInstanceOf(WorkStopped);
    expect(stopped).toMatchObject({ done: 1, total: 4, unit: 'documents' });
    expect((stopped as Error).cause).toBeInstanceOf(Unavailable); // the part's time limit, as a single render says it
    expect(calls).toBe(2); // nothing rendered after the cut
    // Not cut: the part's fault is the merge's fault (503, retry), as for a single document.
    calls = 0;
    await expect(
      rejectsAsHttp(renderDocument(merge(), failing, { signal: new AbortController().signal })),
    ).resolves.toMatchObject({ statusCode: 503 });
  });

  it('turns a broken header template into a 400 pointing at it', async () => {
    const req = parseRenderRequest({
      format: 'pdf',
      data: {},
      custom_html: 'x',
      options: { header_html: '{% if %}' },
    });
    await expect(rejectsAsHttp(renderDocument(req, fakeChromium()), 400)).resolves.toMatchObject({
      statusCode: 400,
      problems: [
        expect.objectContaining({ loc: ['body', 'options', 'header_html'], type: 'template_syntax_error' }),
      ],
    });
  });

  it('renders custom_html (sandboxed) to png and json', async () => {
    const chromium = fakeChromium();
    const req = parseRenderRequest({ format: 'png', data: { n: '<b>' }, custom_html: '<p>{{ n }}</p>' });
    const png = await renderDocument(req, chromium);
    expect(png).toMatchObject({ contentType: 'image/png', filename: 'documento.png' });
    expect(chromium.calls[0]!.html).toContain('<p>&lt;b&gt;</p>');
    expect(chromium.calls[0]!.html).toMatch(/^<!DOCTYPE html>/);
    const json = await renderDocument(
      parseRenderRequest({ format: 'json', data: { a: [1, 'ñ'] }, custom_html: 'x' }),
      chromium,
    );
    expect(json.contentType).toBe('application/json; charset=utf-8');
    expect(json.bytes.toString('utf8')).toBe('{\n  "a": [\n    1,\n    "ñ"\n  ]\n}\n');
  });

  it('raises TemplateError (400) for a custom template that fails', async () => {
    const req = parseRenderRequest({ format: 'html', data: {}, custom_html: '{{ x(' });
    await expect(renderDocument(req, fakeChromium())).rejects.toBeInstanceOf(TemplateError);
  });

  it('builds the documented factura zip: pdf, html, the CFDI xml, data.json, LEEME.txt', async () => {
    const chromium = fakeChromium();
    const req = parseRenderRequest({ template: 'factura', format: 'zip', data: factura.sample });
    const zip = await renderDocument(req, chromium, { watermark: true });
    expect(zip).toMatchObject({ contentType: 'application/zip', filename: 'factura.zip' });
    const z = await JSZip.loadAsync(zip.bytes);
    expect(Object.keys(z.files)).toEqual([
      'factura.pdf',
      'factura.html',
      'factura.xml',
      'data.json',
      'LEEME.txt',
    ]);
    expect(await z.file('factura.pdf')!.async('string')).toBe('%PDF-1.7 fake');
    expect(chromium.calls.filter((c) => c.kind === 'pdf')[0]!.options.watermark).toBe(WATERMARK_TEXT);
    expect(await z.file('factura.html')!.async('string')).toContain('$30,284.18');
    expect(JSON.parse(await z.file('data.json')!.async('string'))).toEqual(
      factura.schema.parse(factura.sample),
    );
    const leeme = await z.file('LEEME.txt')!.async('string');
    expect(leeme).toContain('factura.pdf');
    expect(leeme).toContain('plantilla «factura»');
  });

  it('builds the ventas zip from its formats: pdf, xlsx, csv', async () => {
    const zip = await renderDocument(
      parseRenderRequest({ template: 'ventas', format: 'zip', data: ventas.sample }),
      fakeChromium(),
    );
    const z = await JSZip.loadAsync(zip.bytes);
    expect(Object.keys(z.files)).toEqual([
      'ventas.pdf',
      'ventas.xlsx',
      'ventas.csv',
      'data.json',
      'LEEME.txt',
    ]);
  });

  it('builds a custom zip: html, pdf, data.json, LEEME.txt', async () => {
    const zip = await renderDocument(
      parseRenderRequest({ format: 'zip', data: { a: 1 }, custom_html: '<p>{{ a }}</p>' }),
      fakeChromium(),
    );
    const z = await JSZip.loadAsync(zip.bytes);
    expect(Object.keys(z.files)).toEqual(['documento.html', 'documento.pdf', 'data.json', 'LEEME.txt']);
  });

  it('lets a Chromium failure propagate (a 500, not a 400)', async () => {
    const req = parseRenderRequest({ template: 'factura', format: 'pdf', data: factura.sample });
    const broken = {
      renderPdf: async () => {
        throw new Error('browser crashed');
      },
      renderPng: async () => Buffer.alloc(0),
    };
    await expect(renderDocument(req, broken)).rejects.toThrow('browser crashed');
  });
});

describe('fit with the Chromium renderer', () => {
  it("produces page options the renderer's own validation accepts, for every template", () => {
    for (const t of TEMPLATES) {
      const r = parseRenderRequest({
        template: t.meta.slug,
        format: 'pdf',
        data: t.sample,
        options: { footer_html: '<div>Página <span class="pageNumber"></span></div>' },
      });
      const options = pdfOptions(r.options, t.meta.page);
      expect(() => toPuppeteerPdfOptions({ ...options, footerHtml: '<div></div>' })).not.toThrow();
    }
    const custom = parseRenderRequest({
      format: 'pdf',
      data: {},
      custom_html: 'x',
      options: { page_size: 'tabloid', margin: 0, landscape: true },
    });
    expect(
      toPuppeteerPdfOptions(pdfOptions(custom.options, { size: 'A4', landscape: false, margin: '12mm' })),
    ).toMatchObject({
      format: 'Tabloid',
      landscape: true,
    });
  });
});
