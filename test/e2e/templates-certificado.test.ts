// certificado through real Chromium (direct renderer, no HTTP): exactly one landscape page in A4 and in Letter,
// also with the longest texts the schema allows; pdftotext finds every word; the fonts are the bundled Noto
// families; and the verification QR, rasterised by pdftoppm, decodes (jsQR) to the URL given.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { certificado } from '../../templates/certificado/meta';
import { pdftotext } from '../helpers/pdftotext';
import { flat, pdfInfo as info, templateRenderer } from '../helpers/template-render';

jest.setTimeout(120_000);

const tpl = templateRenderer('certificado');
const pdf = (data: unknown, options?: Record<string, unknown>, format = 'pdf') =>
  tpl.renderFile(data, format, options);
/** The QR in the bottom-left quarter of page 1, where the certificate draws it. */
const decodeQr = (file: string) => tpl.qrInPdf(file, { region: { x: 0, y: 0.5, w: 0.35, h: 0.5 } }) ?? null;

const SIZES = [
  ['A4', { width: 841.9, height: 595.3 }],
  ['Letter', { width: 792, height: 612 }],
] as const;

describe.each(SIZES)('%s landscape', (size, dims) => {
  test('the sample is one landscape page with every text and the bundled serif', async () => {
    const file = await pdf(certificado.sample, { page_size: size });
    const i = info(file);
    expect(i.pages).toBe(1);
    expect(Math.abs(i.width - dims.width)).toBeLessThan(1.5); // landscape: wider than tall
    expect(Math.abs(i.height - dims.height)).toBeLessThan(1.5);
    const t = flat(pdftotext(file));
    // Letter-spaced headings may come out split into letters: compare them without spaces.
    expect(t.replace(/ /g, '')).toContain('INSTITUTOTECNOLÓGICODEESTUDIOSAVANZADOSCERTIFICADO');
    for (const s of [
      'María Fernanda Ríos Ibáñez',
      'Diplomado en Análisis de Datos con Python',
      'con una duración de 120 horas',
      'Monterrey, N. L., a 28 de junio de 2024',
      'Dra. Elena Castañeda Ruiz',
      'Directora académica',
      'Ing. Jorge Luis Peña',
      'DAP-2024-0457',
    ])
      expect([s, t.includes(s)]).toEqual([s, true]);
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toMatch(/NotoSerif-Italic/);
    expect(fonts).toMatch(/NotoSans-Bold/);
    expect(fonts).not.toMatch(/\bno\s+no\b/); // every font embedded (emb column)
  });

  test('the QR decodes to the verification URL', async () => {
    const file = await pdf(certificado.sample, { page_size: size });
    expect(decodeQr(file)).toBe('https://certificados.example.mx/v/DAP-2024-0457');
  });

  test('the longest texts allowed and three signers still fit one page, every word printed', async () => {
    const words = (k: number, w: string) => Array.from({ length: k }, (_, i) => `${w}${i}`).join(' ');
    const nombre = words(20, 'Nombreñ').slice(0, 200);
    const curso = words(30, 'Cursoá').slice(0, 300);
    const descripcion = words(60, 'textoé').slice(0, 600);
    const data = {
      nombre,
      curso,
      descripcion,
      fecha: '2026-11-21',
      emisor: words(20, 'Emisor').slice(0, 200),
      horas: 9999,
      lugar: 'San Pedro Garza García, Nuevo León, México',
      folio: 'F'.repeat(60),
      url_verificacion: `https://verifica.example.mx/${'x'.repeat(200)}`,
      firmantes: [1, 2, 3].map((i) => ({
        nombre: `Firmante ${i} ${'Ñ'.repeat(30)}`,
        cargo: 'Cargo '.repeat(15).trim(),
      })),
    };
    const file = await pdf(data, { page_size: size });
    expect(info(file).pages).toBe(1);
    const t = flat(pdftotext(file)).replace(/ /g, '');
    for (const s of [nombre, curso, descripcion, '21denoviembrede2026', 'Firmante3', '9,999horas'])
      expect([s.slice(0, 30), t.includes(s.replace(/ /g, ''))]).toEqual([s.slice(0, 30), true]);
    expect(decodeQr(file)).toBe(data.url_verificacion);
  });
});

test('without URL there is no QR; a title and colour of the caller print', async () => {
  const file = await pdf({
    nombre: 'Pedro Núñez',
    curso: 'Primeros auxilios',
    fecha: '2026-01-05',
    emisor: 'Cruz Azul',
    titulo: 'Constancia',
    color: '#7a1f3d',
  });
  expect(info(file).pages).toBe(1);
  expect(decodeQr(file)).toBeNull();
  const t = flat(pdftotext(file));
  expect(t.replace(/ /g, '')).toContain('CONSTANCIA'); // letter-spaced: pdftotext may split the letters
  expect(t).toContain('5 de enero de 2026');
});

test('html: a self-contained page with the QR as inline SVG', async () => {
  const file = await pdf(certificado.sample, undefined, 'html');
  const h = readFileSync(file, 'utf8');
  expect(h).toContain('<svg class="qr"');
  expect(h).not.toMatch(/<script|<link|src="http/i);
  expect(h).toContain('María Fernanda Ríos Ibáñez');
  // Styles are inlined for mail clients; the page-filling position is print-only, so it must not be inlined.
  expect(h).toMatch(/<div class="cert" style="[^"]*background/);
  expect(h).not.toMatch(/<div class="cert" style="[^"]*position: fixed/);
  expect(h).toMatch(/@media print \{\s*\.cert \{ position: fixed; inset: 0; \}/);
});
