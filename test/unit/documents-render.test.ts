// The renderer's pure parts: page options (sizes, margins, header/footer rules, PNG viewport), the containment
// building blocks (launch flags, CSP, request decisions), the fontconfig file, and the watermark stamp (pdf-lib
// in-process, checked by re-reading the PDF with pdf-lib). No browser here.
import { PDFDocument } from 'pdf-lib';
import {
  CONTAINMENT_ARGS,
  DOCUMENT_ORIGIN,
  contentSecurityPolicy,
  cspBlockedUrl,
  decideRequest,
  launchArgs,
  withoutScreenLayout,
} from '../../lambdas/documents/render/containment';
import { RenderInputError } from '../../lambdas/documents/render/errors';
import { toHttpError } from '../../lambdas/shared/http/errors';
import { fontconfigXml } from '../../lambdas/documents/render/fonts';
import {
  checkHeaderFooterTemplate,
  lengthToPx,
  parseMargin,
  parsePageSize,
  parsePngOptions,
  toPuppeteerPdfOptions,
} from '../../lambdas/documents/render/page-options';
import { stampWatermark, watermarkOverlay } from '../../lambdas/documents/render/watermark';

function inputError(fn: () => unknown): RenderInputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RenderInputError);
    return err as RenderInputError;
  }
  throw new Error('expected a RenderInputError');
}

describe('page options', () => {
  it.each([
    ['A4', { format: 'A4' }],
    ['letter', { format: 'Letter' }],
    [' LEGAL ', { format: 'Legal' }],
    ['tabloid', { format: 'Tabloid' }],
    ['210mm x 297mm', { width: '210mm', height: '297mm' }],
    ['8.5 x 11in', { width: '8.5in', height: '11in' }],
    ['10cm×15cm', { width: '10cm', height: '15cm' }],
    [
      { width: '4in', height: '6IN' },
      { width: '4in', height: '6in' },
    ],
    [undefined, { format: 'A4' }],
  ])('page size %j', (input, expected) => {
    expect(parsePageSize(input)).toEqual(expected);
  });

  it.each(['B5', '210 x 297', '210mm by 297mm', '-10mm x 20mm', '1mm x 1mm', '9000mm x 10mm'])(
    'refuses page size %j with the field and the accepted forms',
    (input) => {
      const err = inputError(() => parsePageSize(input));
      expect(toHttpError(err)?.statusCode).toBe(400);
      expect(err.field).toBe('options.page_size');
      expect(err.detail).toContain('options.page_size');
    },
  );

  it('lengths', () => {
    expect(lengthToPx('96px')).toBe(96);
    expect(lengthToPx('1in')).toBe(96);
    expect(lengthToPx('25.4mm')).toBeCloseTo(96);
    expect(lengthToPx('2.54cm')).toBeCloseTo(96);
    expect(lengthToPx('0')).toBe(0);
    expect(lengthToPx('12pt')).toBeUndefined();
    expect(lengthToPx('10')).toBeUndefined();
    expect(lengthToPx('calc(1px)')).toBeUndefined();
  });

  it('margins: defaults leave room for header and footer; one length or per side', () => {
    expect(parseMargin(undefined, { header: false, footer: false })).toEqual({
      top: '10mm',
      right: '10mm',
      bottom: '10mm',
      left: '10mm',
    });
    expect(parseMargin(undefined, { header: true, footer: true })).toMatchObject({
      top: '20mm',
      bottom: '20mm',
    });
    expect(parseMargin('0', { header: false, footer: false })).toEqual({
      top: '0',
      right: '0',
      bottom: '0',
      left: '0',
    });
    expect(parseMargin({ left: '1in' }, { header: false, footer: true })).toEqual({
      top: '10mm',
      right: '10mm',
      bottom: '20mm',
      left: '1in',
    });
    expect(inputError(() => parseMargin({ top: '5' }, { header: false, footer: false })).field).toBe(
      'options.margin.top',
    );
    expect(inputError(() => parseMargin('300mm', { header: false, footer: false })).detail).toMatch(
      /between 0mm/,
    );
  });

  it('puppeteer options: header/footer switch on page numbers; the side left out is empty, not Chromium’s default', () => {
    const o = toPuppeteerPdfOptions({ footerHtml: '<span class="pageNumber"></span>', landscape: true });
    expect(o).toMatchObject({
      format: 'A4',
      landscape: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      printBackground: true,
      preferCSSPageSize: true,
    });
    // The caller's markup sits in a box with readable defaults, aligned with the side margins.
    expect(o.footerTemplate).toMatch(/^<div style='[^']*padding: 0 10mm 0 10mm[^']*font-size: 9pt[^']*'>/);
    expect(o.footerTemplate).toContain('<span class="pageNumber"></span></div>');
    expect(toPuppeteerPdfOptions({ pageSize: 'Letter' })).toMatchObject({
      displayHeaderFooter: false,
      preferCSSPageSize: false,
    });
  });

  it.each([
    ['<link rel="stylesheet" href="https://x/y.css">', /<link>/],
    ['<LINK rel=preload>', /<link>/],
    ['<style>@import url(x.css)</style>', /@import/],
    ['<style>@IMPORT "x.css";</style>', /@import/],
    ['<style>@font-face { font-family: X; src: url(x.woff2) }</style>', /@font-face/],
    ['<style>@\\69mport url(x.css)</style>', /backslashes/],
    ['x'.repeat(100_001), /longer than/],
  ])('header/footer template %#: refused', (html, message) => {
    expect(inputError(() => checkHeaderFooterTemplate(html, 'options.header_html')).detail).toMatch(message);
  });

  it('header/footer template: inline styles, <style> without external loads, images and page classes pass', () => {
    expect(() =>
      checkHeaderFooterTemplate(
        '<style>.n { font-weight: bold }</style><div style="font-size:9px; background:#eee">' +
          'Página <span class="pageNumber n"></span> de <span class="totalPages"></span></div>',
        'options.footer_html',
      ),
    ).not.toThrow();
    expect(() => checkHeaderFooterTemplate('<div>C:\\ruta</div>', 'options.footer_html')).not.toThrow();
  });

  it('PNG viewport defaults and bounds', () => {
    expect(parsePngOptions({})).toEqual({
      width: 1024,
      height: 768,
      deviceScaleFactor: 1,
      fullPage: true,
      transparent: false,
    });
    expect(inputError(() => parsePngOptions({ width: 99 })).field).toBe('options.width');
    expect(inputError(() => parsePngOptions({ width: 800.5 })).field).toBe('options.width');
    expect(inputError(() => parsePngOptions({ deviceScaleFactor: 4 })).field).toBe(
      'options.device_scale_factor',
    );
  });
});

describe('containment building blocks', () => {
  const sparticuz = [
    '--single-process',
    '--disable-web-security',
    '--allow-running-insecure-content',
    '--no-sandbox',
    "--headless='shell'",
  ];

  it('drops the two flags that open file:// and mixed content, keeps the rest, adds the network fence', () => {
    const args = launchArgs(sparticuz, { singleProcess: true });
    expect(args).not.toContain('--disable-web-security');
    expect(args).not.toContain('--allow-running-insecure-content');
    expect(args).toEqual(expect.arrayContaining(['--single-process', '--no-sandbox', ...CONTAINMENT_ARGS]));
    expect(args).toContain('--proxy-server=http://127.0.0.1:9');
    expect(args).toContain('--proxy-bypass-list=<-loopback>');
    expect(args).toContain('--host-resolver-rules=MAP * ~NOTFOUND');
    expect(args).toContain('--disable-background-networking');
    expect(launchArgs(sparticuz, { singleProcess: false })).not.toContain('--single-process');
  });

  it('adds the rendering flags (frames only when every compositor stage ran), on both process models', () => {
    for (const singleProcess of [true, false])
      expect(launchArgs(sparticuz, { singleProcess })).toContain('--run-all-compositor-stages-before-draw');
    expect(sparticuz).not.toContain('--run-all-compositor-stages-before-draw'); // negative control: ours, not theirs
  });

  it('a PDF without scripts or fonts of its own is laid out for print only (no screen layout)', () => {
    const off = '<style>@media screen{html{display:none!important}}</style>';
    expect(withoutScreenLayout('<p>Factura</p>', false)).toBe(`<p>Factura</p>${off}`);
    // Negative controls: kept as they are.
    expect(withoutScreenLayout('<p>Factura</p>', true)).toBe('<p>Factura</p>');
    const font = '<style>@FONT-FACE { font-family: P; src: url(data:font/ttf;base64,AA) }</style><p>x</p>';
    expect(withoutScreenLayout(font, false)).toBe(font);
  });

  it('CSP: nothing but data: images, styles and fonts; sandboxed; scripts only when allowed', () => {
    const strict = contentSecurityPolicy({ allowScripts: false });
    expect(strict.split('; ')).toEqual([
      "default-src 'none'",
      'img-src data:',
      "style-src 'unsafe-inline' data:",
      'font-src data:',
      "base-uri 'none'",
      "form-action 'none'",
      'sandbox',
    ]);
    const scripts = contentSecurityPolicy({ allowScripts: true });
    expect(scripts).toContain("script-src 'unsafe-inline'");
    expect(scripts).toContain('sandbox allow-scripts');
    expect(scripts).not.toMatch(/allow-same-origin|unsafe-eval|connect-src/);
  });

  it('request decisions: only the main frame navigation to the current document is served', () => {
    const doc = `${DOCUMENT_ORIGIN}/document/7`;
    const d = (url: string, isNavigation = false, isMainFrame = true, documentUrl: string | null = doc) =>
      decideRequest({ url, isNavigation, isMainFrame, documentUrl: documentUrl ?? undefined });
    expect(d(doc, true)).toBe('serve-document');
    expect(d(doc, true, false)).toBe('abort'); // an iframe pointing at the document URL
    expect(d(doc, false)).toBe('abort'); // a subresource fetch of it
    expect(d(doc, true, true, null)).toBe('abort'); // already served: a reload gets nothing
    expect(d(`${DOCUMENT_ORIGIN}/document/6`, true)).toBe('abort');
    expect(d('data:image/png;base64,AAAA')).toBe('continue');
    expect(d('data:text/html,<p>x</p>', true)).toBe('abort'); // navigating to data: is not a resource
    for (const url of [
      'http://127.0.0.1:8080/x',
      'https://example.com/',
      'file:///etc/passwd',
      'blob:null/1',
      'ws://x/',
    ])
      expect(d(url)).toBe('abort');
  });

  it("cspBlockedUrl reads the URL out of Chromium's CSP refusals (current and older wording), nothing else", () => {
    expect(
      cspBlockedUrl(
        'Loading the image \'http://127.0.0.1:9/img\' violates the following Content Security Policy directive: "img-src data:". The action has been blocked.',
      ),
    ).toBe('http://127.0.0.1:9/img');
    expect(
      cspBlockedUrl(
        "Refused to connect to 'ws://127.0.0.1:9/ws' because it violates the following Content Security Policy directive: \"default-src 'none'\".",
      ),
    ).toBe('ws://127.0.0.1:9/ws');
    expect(cspBlockedUrl('Not allowed to load local resource: file:///etc/passwd')).toBeUndefined();
    expect(cspBlockedUrl("Refused to execute the redirect specified via '<meta>'.")).toBeUndefined();
  });
});

describe('fonts', () => {
  it('fontconfig sees only the bundled folder and maps generic and common names to the bundled families', () => {
    const conf = fontconfigXml('/opt/fonts & more', '/tmp/cache');
    expect(conf).toContain('<dir>/opt/fonts &amp; more</dir>');
    expect(conf).toContain('<cachedir>/tmp/cache</cachedir>');
    expect(conf.match(/<dir>/g)).toHaveLength(1);
    expect(conf).toContain('<family>sans-serif</family><prefer><family>Noto Sans</family>');
    expect(conf).toContain('<family>Times New Roman</family><prefer><family>Noto Serif</family>');
    expect(conf).toContain('<family>monospace</family><prefer><family>Noto Sans Mono</family>');
  });
});

describe('watermark', () => {
  test('in the page: escaped text on a fixed top layer whose every property is !important', () => {
    const html = watermarkOverlay('Plan <b>gratuito</b> & "más"');
    expect(html).toContain('Plan &lt;b&gt;gratuito&lt;/b&gt; &amp; &quot;más&quot;');
    expect(html).not.toContain('<b>');
    const styles = [...html.matchAll(/style="([^"]*)"/g)].map((m) => m[1]!.split(';'));
    expect(styles).toHaveLength(2);
    for (const decl of styles.flat()) expect(decl).toMatch(/ !important$/);
    expect(styles[0]).toEqual(
      expect.arrayContaining(['position:fixed !important', 'z-index:2147483647 !important']),
    );
  });

  it('draws on every page of the PDF, keeps the page count and sizes', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([595.92, 841.92]);
    doc.addPage([792, 612]);
    const original = await doc.save();
    const stamped = await stampWatermark(original, 'Plan gratuito · año 2024 €');
    expect(stamped.length).toBeGreaterThan(original.length);
    const again = await PDFDocument.load(stamped);
    expect(again.getPageCount()).toBe(2);
    expect(again.getPages().map((p) => [p.getWidth(), p.getHeight()])).toEqual([
      [595.92, 841.92],
      [792, 612],
    ]);
    // Each page now has content that uses the embedded Helvetica-Bold.
    for (const page of again.getPages()) expect(page.node.Resources()?.toString()).toContain('Font');
  });

  it('replaces characters the standard font cannot encode instead of failing', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    await expect(stampWatermark(await doc.save(), 'Muestra 🚀 日本')).resolves.toBeInstanceOf(Buffer);
  });
});
