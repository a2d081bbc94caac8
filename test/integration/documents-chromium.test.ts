// The Chromium renderer's output, checked with independent tools (Debian poppler-utils and qpdf: CI installs
// `apt-get install -y qpdf poppler-utils`): a valid PDF with the Spanish text intact in the bundled fonts, page
// sizes/orientation/margins as asked, header/footer page numbers, the free-tier watermark, and PNGs decoded by pngjs
// (size and pixels, with negative controls).
// Real Chromium (@sparticuz/chromium), no network: documents only use data: URLs.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Renderer } from '../../lambdas/documents/render/chromium';
import { RenderInputError } from '../../lambdas/documents/render/errors';
import { stampWatermark } from '../../lambdas/documents/render/watermark';
import { toHttpError } from '../../lambdas/shared/http/errors';
import { pdftotext, requirePdftotext } from '../helpers/pdftotext';
import { rejectsAsHttp } from '../helpers/as-http';
import { blankPng, corruptPng, pngProblems, type Rgb } from '../helpers/png';

jest.setTimeout(60_000);

const SPANISH = 'ñ á é í ó ú ü ¿ ¡ € Ñ Á É Í Ó Ú Ü';

const INVOICE = `<!doctype html>
<html lang="es"><head><title>Factura A-1043</title><style>
  body { font-family: 'Noto Sans', sans-serif; font-size: 11pt; color: #222; }
  h1 { font-family: 'Noto Serif', serif; }
  table { width: 100%; border-collapse: collapse; }
  th { background: #1f4e79; color: white; text-align: left; }
  td, th { padding: 4px 6px; border-bottom: 1px solid #ccc; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; }
  .folio { font-family: monospace; font-size: 8pt; }
</style></head><body>
  <h1>Factura A-1043</h1>
  <p>Emisor: Panadería Núñez, S.A. de C.V. — Cliente: José Ángel Muñoz</p>
  <table><thead><tr><th>Concepto</th><th>Cantidad</th><th>Precio</th></tr></thead><tbody>
    <tr><td>Pingüino de peluche</td><td class="n">2</td><td class="n">€ 12,50</td></tr>
    <tr><td>¿Café? ¡Sí! Año 2024</td><td class="n">1</td><td class="n">€ 3,20</td></tr>
  </tbody></table>
  <p>Caracteres: ${SPANISH}</p>
  <p class="folio">Folio fiscal 6F1C2B3A-0D4E-4F5A-8B9C-0123456789AB</p>
</body></html>`;

let renderer: Renderer;
let dir: string;

beforeAll(() => {
  requirePdftotext();
  if (spawnSync('qpdf', ['--version']).status !== 0)
    throw new Error(
      'qpdf is not installed: run `apt-get install -y qpdf poppler-utils` (CI does this in .ci/run)',
    );
  renderer = new Renderer();
  dir = mkdtempSync(join(tmpdir(), 'documents-chromium-'));
});

afterAll(async () => {
  await renderer?.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function save(bytes: Buffer, ext = 'pdf'): string {
  const file = join(dir, `out-${++n}.${ext}`);
  writeFileSync(file, bytes);
  return file;
}

function qpdfCheck(file: string): void {
  const r = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
  expect(r.stdout).toContain('No syntax or stream encoding errors found');
  expect(r.status).toBe(0);
}

function pdfinfo(file: string): { pages: number; width: number; height: number } {
  const out = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(out)!;
  return { pages: Number(/Pages:\s+(\d+)/.exec(out)![1]), width: Number(size[1]), height: Number(size[2]) };
}

function fonts(file: string): string[] {
  return execFileSync('pdffonts', [file], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((l) => l.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''));
}

/** Left edge (pt) of the first word on page 1, from pdftotext's bounding boxes. */
function firstWordX(file: string): { x: number; y: number } {
  const html = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' });
  const m = /<word xMin="([\d.]+)" yMin="([\d.]+)"/.exec(html)!;
  return { x: Number(m[1]), y: Number(m[2]) };
}

const squash = (s: string) => s.replace(/\s+/g, '');
const MM = 72 / 25.4;

describe('PDF', () => {
  it('renders a one-page invoice that qpdf accepts, with every Spanish glyph in the bundled fonts', async () => {
    const pdf = await renderer.renderPdf(INVOICE);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const file = save(pdf);
    qpdfCheck(file);
    expect(pdfinfo(file).pages).toBe(1);
    const text = pdftotext(file);
    expect(text).toContain(`Caracteres: ${SPANISH}`);
    expect(text).toContain('Panadería Núñez');
    expect(text).toContain('¿Café? ¡Sí! Año 2024');
    expect(text).toContain('Pingüino de peluche');
    expect(text).toContain('€ 12,50');
    // Only the bundled families, embedded: no system font leaks in, locally or in the image.
    const used = fonts(file);
    expect(used).toEqual(
      expect.arrayContaining(['NotoSans-Regular', 'NotoSerif-Bold', 'NotoSansMono-Regular']),
    );
    expect(used.every((f) => f.startsWith('Noto'))).toBe(true);
  });

  it('maps generic and common font names to the bundled fonts', async () => {
    const html = `<p style="font-family: Arial">Arial ñ</p><p style="font-family: 'Times New Roman'">Times ñ</p>
      <p style="font-family: 'Courier New'">Courier ñ</p><p>Default ñ</p>`;
    const used = fonts(save(await renderer.renderPdf(html)));
    expect(new Set(used)).toEqual(new Set(['NotoSans-Regular', 'NotoSerif-Regular', 'NotoSansMono-Regular']));
  });

  it.each([
    ['A4', {}, 595.92, 841.92],
    ['A4 (default)', undefined, 595.92, 841.92],
    ['Letter', {}, 612, 792],
    ['legal', {}, 612, 1008],
    ['A3', {}, 841.92, 1190.88],
    ['A5', {}, 419.76, 595.92],
    ['Tabloid', {}, 792, 1224],
    ['Letter', { landscape: true }, 792, 612],
    ['100mm x 150mm', {}, 100 * MM, 150 * MM],
    ['100mm x 150mm', { landscape: true }, 150 * MM, 100 * MM],
    [{ width: '4in', height: '6in' }, {}, 288, 432],
  ])('page size %j %j', async (pageSize, extra, width, height) => {
    const opts = pageSize === 'A4 (default)' ? {} : { pageSize, ...extra };
    const info = pdfinfo(save(await renderer.renderPdf('<p>Tamaño</p>', opts)));
    expect(info.width).toBeCloseTo(width, -0.5); // within ~1.5 pt (Chromium rounds to whole CSS pixels)
    expect(info.height).toBeCloseTo(height, -0.5);
  });

  it('a CSS @page size is used when no page size is given, and the option wins when it is', async () => {
    const html = '<style>@page { size: 100mm 100mm }</style><p>Hola</p>';
    const own = pdfinfo(save(await renderer.renderPdf(html)));
    expect(own.width).toBeCloseTo(100 * MM, -0.5);
    const forced = pdfinfo(save(await renderer.renderPdf(html, { pageSize: 'Letter' })));
    expect([forced.width, forced.height]).toEqual([612, 792]);
  });

  it('margins move the content', async () => {
    const body = '<body style="margin:0"><p style="margin:0">Margen</p></body>';
    const narrow = firstWordX(save(await renderer.renderPdf(body, { margin: '5mm' })));
    const wide = firstWordX(save(await renderer.renderPdf(body, { margin: { left: '40mm', top: '60mm' } })));
    expect(narrow.x).toBeCloseTo(5 * MM, -0.5);
    expect(wide.x).toBeCloseTo(40 * MM, -0.5);
    expect(wide.y).toBeGreaterThan(60 * MM - 2);
    expect(wide.y).toBeLessThan(60 * MM + 12);
  });

  it('draws header and footer templates with page numbers on a three-page document', async () => {
    const pages = [1, 2, 3].map((i) => `<section style="break-after: page">Sección ${i}</section>`).join('');
    const file = save(
      await renderer.renderPdf(`<!doctype html><title>Informe</title>${pages}`, {
        headerHtml:
          '<div style="font-size:9px; width:100%; text-align:center">Informe anual — año 2024</div>',
        footerHtml:
          '<div style="font-size:9px; width:100%; text-align:right; padding-right:10mm">' +
          'Página <span class="pageNumber"></span> de <span class="totalPages"></span></div>',
      }),
    );
    qpdfCheck(file);
    expect(pdfinfo(file).pages).toBe(3);
    for (const p of [1, 2, 3]) {
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-f', `${p}`, '-l', `${p}`, file, '-'], {
        encoding: 'utf8',
      });
      expect(text).toContain(`Sección ${p}`);
      expect(text).toContain(`Página ${p} de 3`);
      expect(text).toContain('Informe anual — año 2024');
    }
    expect(fonts(file).every((f) => f.startsWith('Noto'))).toBe(true); // header/footer use the bundled fonts too
  });

  it('an unstyled header is readable (9 pt) and starts at the left margin, not at the paper edge', async () => {
    const file = save(
      await renderer.renderPdf('<p>Cuerpo</p>', { headerHtml: 'Encabezado', margin: '25mm' }),
    );
    const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
    const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">Encabezado</.exec(html)!;
    expect(Number(m[1])).toBeCloseTo(25 * MM, -0.5);
    expect(Number(m[3]) - Number(m[2])).toBeGreaterThan(9); // line box of 9 pt text (Chromium's own default: ~1 pt)
    expect(Number(m[3]) - Number(m[2])).toBeLessThan(16);
  });

  it('draws the watermark on every page only when asked; stamped on the finished PDF, whatever the document CSS does', async () => {
    const mark = 'Plan gratuito · documento de muestra';
    // Built-in templates (the only HTML the free plan renders: custom_html is refused there with 403) get it drawn in
    // their page before printing: on every page.
    const ours = '<section style="break-after:page">Uno</section><section>Dos</section>';
    const drawn = save(await renderer.renderPdf(ours, { watermark: mark }));
    expect(pdfinfo(drawn).pages).toBe(2);
    for (const p of [1, 2]) {
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-f', `${p}`, '-l', `${p}`, drawn, '-'], {
        encoding: 'utf8',
      });
      expect(squash(text)).toContain(squash(mark));
    }
    // A document trying to hide anything injected into it (a merge's parts are stamped after merging): the stamp is
    // drawn on the finished PDF, where nothing in the HTML can cover or swallow it.
    const hostile = `<style>* { display: revert !important } body::after { content: "" }</style>
      <div style="position:fixed; inset:0; background:white; z-index:2147483647"></div>
      <section style="break-after:page">Uno</section><section>Dos</section><!--`;
    const free = save(await stampWatermark(await renderer.renderPdf(hostile), mark));
    qpdfCheck(free);
    expect(pdfinfo(free).pages).toBe(2);
    for (const p of [1, 2]) {
      // -raw: content-stream order (the rotated line is otherwise read in geometric order, letters shuffled).
      const text = execFileSync(
        'pdftotext',
        ['-raw', '-enc', 'UTF-8', '-f', `${p}`, '-l', `${p}`, free, '-'],
        {
          encoding: 'utf8',
        },
      );
      expect(squash(text)).toContain(squash(mark));
    }
    const paid = save(await renderer.renderPdf(hostile));
    const paidText = execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', paid, '-'], { encoding: 'utf8' });
    expect(squash(paidText)).toContain('Uno');
    expect(squash(paidText)).not.toContain('Plan');
  });

  it('runs inline scripts only when allowScripts is set (trusted templates)', async () => {
    const html =
      '<p id="t">sin script</p><script>document.getElementById("t").textContent = "con script"</script>';
    expect(pdftotext(save(await renderer.renderPdf(html)))).toContain('sin script');
    expect(pdftotext(save(await renderer.renderPdf(html, { allowScripts: true })))).toContain('con script');
    // ...and the page goes back to JavaScript off for the next caller.
    expect(pdftotext(save(await renderer.renderPdf(html)))).toContain('sin script');
  });

  it("a caller's <meta http-equiv> CSP does not leak into the next render on the same pooled page", async () => {
    const strictest = `<meta http-equiv="Content-Security-Policy" content="style-src 'none'"><p>A</p>`;
    await renderer.renderPdf(strictest);
    const next = pdftotext(
      save(await renderer.renderPdf('<style>p{display:none}</style><p>OCULTO</p><div>visible</div>')),
    );
    expect(next).toContain('visible');
    expect(next).not.toContain('OCULTO');
  });

  it('shows data: images', async () => {
    const png1x1 =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const file = save(await renderer.renderPdf(`<img src="${png1x1}" style="width:50mm;height:50mm">`));
    const rows = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).split('\n').slice(2);
    expect(rows.filter((r) => r.split(/\s+/)[3] === 'image')).toHaveLength(1);
  });

  it('prints the same without the screen layout a PDF skips: two pages, a lazy image; a data: font still loads', async () => {
    // renderPdf lays nothing out for the screen (withoutScreenLayout) except on a page with scripts: the same document
    // rendered both ways must rasterise identically, page by page.
    const png1x1 =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const doc = (word: string) => `<style>.alto { height: 250mm; }</style>
      <h1>Factura A-1043</h1><div class="alto">${SPANISH}</div>
      <img loading="lazy" src="${png1x1}" style="width:40mm;height:40mm"><p>${word}</p>`;
    const pages = (pdf: Buffer) => {
      const prefix = join(dir, `raster-${++n}`);
      execFileSync('pdftoppm', ['-r', '40', '-png', save(pdf), prefix]);
      return [1, 2].map((p) => readFileSync(`${prefix}-${p}.png`));
    };
    const printed = await renderer.renderPdf(doc('Fin del documento'));
    expect(pdfinfo(save(printed)).pages).toBe(2);
    const withScreen = pages(await renderer.renderPdf(doc('Fin del documento'), { allowScripts: true }));
    expect(pages(printed)).toEqual(withScreen);
    // Negative control: one word less on page 2 is a different raster.
    expect(pages(await renderer.renderPdf(doc('Fin')))[1]).not.toEqual(withScreen[1]);
    // A font of the document's own loads only once a layout uses it: such a document keeps its screen layout, so
    // it prints in that font, not in the fallback (which it did without that exception: Noto Serif Bold).
    const font = readFileSync(join(__dirname, '../../lambdas/documents/fonts/NotoSerif-BoldItalic.ttf'));
    const propia = `<style>@font-face { font-family: Propia; src: url(data:font/ttf;base64,${font.toString('base64')}); }
      h1 { font-family: Propia; }</style><h1>Título en fuente propia ${++n}</h1>`;
    expect(fonts(save(await renderer.renderPdf(propia)))).toContain('NotoSerif-BoldItalic');
  });

  it.each([
    [{ pageSize: 'B7' }, 'options.page_size'],
    [{ pageSize: '10 x 20' }, 'options.page_size'],
    [{ pageSize: '1mm x 1mm' }, 'options.page_size width'],
    [{ margin: '10' }, 'options.margin'],
    [{ margin: { top: '-1mm' } }, 'options.margin.top'],
    [
      { headerHtml: '<link rel="stylesheet" href="x.css"><span class="pageNumber"></span>' },
      'options.header_html',
    ],
    [{ footerHtml: '<style>@import url(x.css)</style>' }, 'options.footer_html'],
    [{ footerHtml: '<style>@\\69mport url(x.css)</style>' }, 'options.footer_html'],
  ])('refuses bad options with a 400 that names the field: %j', async (opts, field) => {
    const err = await renderer.renderPdf('<p>x</p>', opts as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderInputError);
    expect(toHttpError(err)?.statusCode).toBe(400);
    expect((err as RenderInputError).field).toBe(field.split(' ')[0]);
    expect((err as RenderInputError).detail).toContain(field);
  });
});

describe('PNG (decoded by pngjs: size and pixels)', () => {
  const BLUE: Rgb = [0x1f, 0x4e, 0x79];
  const WHITE: Rgb = [255, 255, 255];
  // A blue band over white: the band's colour at its centre, white below it, and text ink inside it.
  const html =
    '<body style="margin:0; background:#fff"><div style="height:1000px; background:#1f4e79; color:white; ' +
    'font-size:60px">Año ñ</div><div style="height:500px"></div>';

  it('captures the whole page at the asked width and scale', async () => {
    const whole = {
      width: 800,
      height: 1500,
      colours: [
        [400, 500, BLUE],
        [400, 1200, WHITE],
      ] as [number, number, Rgb][],
    };
    const at1x = await renderer.renderPng(html, { width: 800 });
    expect(pngProblems(at1x, { ...whole, minInk: 0.2 })).toEqual([]);
    const at2x = await renderer.renderPng(html, { width: 400, deviceScaleFactor: 2 });
    expect(
      pngProblems(at2x, {
        width: 800,
        height: 3000,
        colours: [
          [400, 1000, BLUE],
          [400, 2400, WHITE],
        ],
      }),
    ).toEqual([]);
    const viewport = await renderer.renderPng(html, { width: 640, height: 480, fullPage: false });
    expect(pngProblems(viewport, { width: 640, height: 480, colours: [[320, 240, BLUE]] })).toEqual([]);

    // Negative controls: the same checker rejects a damaged file, a blank image of the right size and a wrong size.
    expect(pngProblems(corruptPng(at1x), whole)).toEqual([expect.stringMatching(/^not a decodable PNG/)]);
    expect(pngProblems(blankPng(800, 1500), { ...whole, minInk: 0.2 })).toEqual([
      'pixel (400, 500) is rgb(255, 255, 255), expected rgb(31, 78, 121)',
      expect.stringMatching(/^only 0\.000% of the pixels differ/),
    ]);
    expect(pngProblems(viewport, whole)[0]).toBe('size 640x480, expected 800x1500');
  });

  it('cuts a very tall page at 16,384 CSS pixels', async () => {
    const png = await renderer.renderPng(
      '<body style="margin:0"><div style="height:40000px; background:#1f4e79">alto</div>',
      { width: 200 },
    );
    expect(pngProblems(png, { width: 200, height: 16_384, colours: [[100, 16_383, BLUE]] })).toEqual([]);
  });

  it('refuses a bad viewport with a 400', async () => {
    await expect(rejectsAsHttp(renderer.renderPng('<p>x</p>', { width: 10 }))).resolves.toMatchObject({
      statusCode: 400,
      field: 'options.width',
    });
  });
});
