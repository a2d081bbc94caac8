// The business's brand on a printed CFDI (options.marca) through real Chromium, checked with independent tools: the
// representación impresa stays SAT-complete (pdftotext: UUID, RFCs, total, the TFD cadena that xsltproc makes with
// SAT's XSLT; jsQR: the verification URL), the PNG logo is in the PDF (pdfimages), the colour is on the page
// (pdftoppm pixels), the notes and the footer legend print. And long sello / cadena / certificate / complement strings
// never leave the page (pdftotext -bbox: every word inside the page's width).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { cadenaTfdXslt } from '../helpers/sat-xml';
import { flat, pdfInfo, templateRenderer } from '../helpers/template-render';
import { pdftotext } from '../helpers/pdftotext';

jest.setTimeout(180_000);

const FIXTURES = join(__dirname, '..', 'fixtures', 'cfdi');
const tpl = templateRenderer('factura');
const GREEN = [0x0b, 0x6e, 0x4f] as const;

function pngLogo(w: number, h: number): string {
  const png = new PNG({ width: w, height: h });
  for (let i = 0; i < w * h; i++) png.data.set([...GREEN, 255], i * 4);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}
const attr = (xml: string, el: string, name: string) =>
  new RegExp(`<(?:\\w+:)?${el}\\b[^>]*?\\s${name}="([^"]*)"`).exec(xml)![1]!;
const compact = (s: string) => s.replace(/\s+/g, '');

it('a branded CFDI (PNG logo, colour, notes, legend) keeps everything SAT requires', async () => {
  const xml = readFileSync(join(FIXTURES, 'complementos', 'carta-porte-31-ingreso.xml'), 'utf8');
  const marca = {
    logo: pngLogo(200, 60),
    color: '#0b6e4f',
    notas: 'Gracias por su preferencia: pagos a la CLABE 012180001234567891.',
    leyenda_pie: 'Fletes Kemper · www.kemper.example',
  };
  const { file, warnings } = await tpl.renderBody({ cfdi_xml: xml, options: { marca } });
  expect(warnings).toBeUndefined();
  const text = flat(pdftotext(file));
  expect(text).toContain(attr(xml, 'TimbreFiscalDigital', 'UUID'));
  expect(text).toContain('EKU9003173C9');
  expect(text).toContain('URE180429TM6');
  expect(text).toContain('44,660.00');
  expect(compact(text)).toContain(compact(cadenaTfdXslt(/<tfd:TimbreFiscalDigital[^>]*\/>/.exec(xml)![0])));
  expect(text).toContain(marca.notas);
  expect(text).toContain(marca.leyenda_pie); // every page's footer
  expect(text.split(marca.leyenda_pie).length - 1).toBe(pdfInfo(file).pages);

  const url = tpl.qrInPdf(file, { page: pdfInfo(file).pages, region: { x: 0, y: 0, w: 0.4, h: 1 } });
  expect(url).toMatch(/^https:\/\/verificacfdi\.facturaelectronica\.sat\.gob\.mx\/default\.aspx\?id=/);

  // The logo is the one raster image of the PDF (the QR is vector), at its size.
  const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter(Boolean);
  expect(images).toHaveLength(1);
  expect(images[0]!.trim().split(/\s+/).slice(3, 5)).toEqual(['200', '60']);

  // The colour: the table header band is drawn in it.
  const base = join(tpl.dir, 'marca-page1');
  execFileSync('pdftoppm', ['-png', '-r', '40', '-singlefile', '-f', '1', '-l', '1', file, base]);
  const page = PNG.sync.read(readFileSync(`${base}.png`));
  let green = 0;
  for (let i = 0; i < page.data.length; i += 4)
    if (GREEN.every((c, k) => Math.abs(page.data[i + k]! - c) <= 6)) green++;
  expect(green).toBeGreaterThan(2000);
});

it('without a brand no logo image is drawn', async () => {
  const xml = readFileSync(join(FIXTURES, 'complementos', 'ine.xml'), 'utf8');
  const { file } = await tpl.renderBody({ cfdi_xml: xml });
  const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter(Boolean);
  expect(images).toHaveLength(0);
});

it('long sello, cadena, certificate and complement strings never leave the page (pdftotext -bbox)', async () => {
  const long = (n: number, seed: string) => Buffer.alloc(n, seed).toString('base64').slice(0, n);
  const xml = readFileSync(join(FIXTURES, 'complementos', 'desconocido.xml'), 'utf8')
    .replace(/ Sello="[^"]*"/, ` Sello="${long(1400, 'a')}"`)
    .replace(/ SelloCFD="[^"]*"/, ` SelloCFD="${long(1400, 'b')}"`)
    .replace(/ SelloSAT="[^"]*"/, ` SelloSAT="${long(1400, 'c')}"`)
    .replace(/ Certificado="[^"]*"/, ` Certificado="${long(3000, 'd')}"`)
    .replace('Proyecto="Puente Norte"', `Proyecto="${'PuenteNorte'.repeat(40)}"`)
    .replace('Descripcion="Servicio con complemento propio"', `Descripcion="${'Servicio'.repeat(60)}"`);
  const { file } = await tpl.renderBody({ cfdi_xml: xml });
  const bbox = join(tpl.dir, 'bbox.html');
  execFileSync('pdftotext', ['-bbox', file, bbox]);
  const html = readFileSync(bbox, 'utf8');
  const width = Number(/<page width="([\d.]+)"/.exec(html)![1]);
  const words = [...html.matchAll(/<word xMin="([\d.-]+)" yMin="[\d.-]+" xMax="([\d.-]+)"/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
  expect(words.length).toBeGreaterThan(100);
  const outside = words.filter(([x0, x1]) => x0! < 0 || x1! > width - 20);
  expect(outside).toEqual([]);
  // And all of the sello is there.
  expect(compact(pdftotext(file))).toContain(long(1400, 'b'));
});
