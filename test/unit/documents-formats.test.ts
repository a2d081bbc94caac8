// The non-Chromium formats, read back with independent tools: xlsx with exceljs and as raw OOXML (JSZip), docx as
// OOXML, CSV with papaparse, zip listings with JSZip; md/txt/html by content. The html renderer must not fetch
// anything a caller's HTML links to (checked with a sentinel server on loopback).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import Papa from 'papaparse';
import { DocumentRequestError } from '../../lambdas/documents/domain/errors';
import { parseRenderRequest, renderDocument } from '../../lambdas/documents/domain/render-request';
import { TEMPLATES } from '../../lambdas/documents/domain/template-registry';

const chromium = {
  renderPdf: async () => Buffer.from('%PDF-1.7 fake'),
  renderPng: async () => Buffer.from([0x89, 0x50, 0x4e, 0x47]),
};
const ventas = TEMPLATES.find((t) => t.meta.slug === 'ventas')!;
const balance = TEMPLATES.find((t) => t.meta.slug === 'balance')!;

const render = (body: unknown) => renderDocument(parseRenderRequest(body), chromium);

const CUSTOM = `<!DOCTYPE html><html><head><title>Informe {{ mes }}</title>
<style>h1 { color: #123456; } td.num { text-align: right; }</style></head>
<body>
<h1>Informe de {{ mes }}</h1>
<p>Hola <strong>{{ nombre }}</strong>, aquí está el <em>resumen</em>.</p>
<ul>{% for x in puntos %}<li>{{ x }}</li>{% endfor %}</ul>
<ol><li>Primero</li><li>Segundo</li></ol>
<table><caption>Ventas</caption>
<thead><tr><th>Producto</th><th>Unidades</th><th>Ingresos</th></tr></thead>
<tbody>{% for r in filas %}<tr><td>{{ r.p }}</td><td class="num">{{ r.u }}</td><td class="num">{{ r.i }}</td></tr>{% endfor %}</tbody>
</table>
</body></html>`;
const CUSTOM_DATA = {
  mes: 'marzo',
  nombre: 'Ana & Luis',
  puntos: ['uno', 'dos'],
  filas: [
    { p: 'Café, molido', u: 3, i: '1,234.50' },
    { p: 'Té "verde"', u: 10, i: '99.9' },
  ],
};

describe('xlsx', () => {
  it('ventas: formatted table from the data model, frozen header, autofilter, SUM totals', async () => {
    const out = await render({ template: 'ventas', format: 'xlsx', data: ventas.sample });
    expect(out.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(out.filename).toBe('ventas.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.bytes as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Ventas')!;
    expect(ws.getCell('A1').value).toBe('Reporte de ventas del primer trimestre · Enero – marzo 2024');
    expect(ws.getRow(2).values).toEqual([
      undefined,
      'Producto',
      'Unidades',
      'Ingresos',
      'Participación',
      'Precio promedio',
    ]);
    expect(ws.getCell('A2').font.bold).toBe(true);
    expect(ws.getRow(3).values).toEqual([undefined, 'Café de olla 500 g', 1240, 186000, 0.2542, 150]);
    expect(ws.getCell('C3').numFmt).toBe('"$"#,##0.00;-"$"#,##0.00');
    expect(ws.getCell('B3').numFmt).toBe('#,##0');
    expect(ws.getCell('D3').numFmt).toBe('0.0%');
    expect(ws.getCell('C9').value).toEqual({ formula: 'SUM(C3:C8)', result: 731804.5 });
    expect(ws.getCell('B9').value).toEqual({ formula: 'SUM(B3:B8)', result: 3561 });

    // The raw sheet XML, as Excel reads it.
    const zip = await JSZip.loadAsync(out.bytes);
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    expect(sheet).toMatch(/<pane [^>]*ySplit="2"[^>]*state="frozen"/);
    expect(sheet).toContain('<autoFilter ref="A2:E2"/>');
    expect(sheet).toContain('<f>SUM(C3:C8)</f>');
  });

  it('balance: rubro, cuenta, importe with totals as rows', async () => {
    const out = await render({ template: 'balance', format: 'xlsx', data: balance.sample });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.bytes as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const rows = ws.getSheetValues().filter(Boolean) as unknown[][];
    const totalActivo = rows.find((r) => r[2] === 'TOTAL ACTIVO')!;
    const totalPc = rows.find((r) => r[2] === 'TOTAL PASIVO + CAPITAL')!;
    expect(totalActivo[3]).toBe(2810881.3);
    expect(totalPc[3]).toBe(2810881.3);
  });

  it('custom_html: each <table> becomes a sheet, plain numbers become numbers', async () => {
    const out = await render({ format: 'xlsx', data: CUSTOM_DATA, custom_html: CUSTOM });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.bytes as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Ventas')!;
    expect(ws.getRow(2).values).toEqual([undefined, 'Producto', 'Unidades', 'Ingresos']);
    expect(ws.getRow(3).values).toEqual([undefined, 'Café, molido', 3, 1234.5]);
    expect(ws.getRow(4).values).toEqual([undefined, 'Té "verde"', 10, 99.9]);
  });
});

describe('csv', () => {
  it('ventas: RFC 4180, parsed back with papaparse', async () => {
    const data = {
      title: 'T',
      rows: [
        { product: 'Café, "especial"\nde olla', units: 2, revenue: 0.1 },
        { product: 'Ñandú', units: 1.5, revenue: 0.2 },
      ],
    };
    const out = await render({ template: 'ventas', format: 'csv', data });
    expect(out.contentType).toBe('text/csv; charset=utf-8; header=present');
    const text = out.bytes.toString('utf8');
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(text).toContain('\r\n');
    expect(text).toContain('"Café, ""especial""\nde olla"');
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([
      ['Producto', 'Unidades', 'Ingresos', 'Participación', 'Precio promedio'],
      ['Café, "especial"\nde olla', '2', '0.10', '0.3333', '0.05'],
      ['Ñandú', '1.5', '0.20', '0.6667', '0.13'],
    ]);
  });

  it('adds a UTF-8 BOM when asked', async () => {
    const out = await render({
      template: 'ventas',
      format: 'csv',
      data: ventas.sample,
      options: { csv_bom: true },
    });
    expect([...out.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<string[]>(out.bytes.toString('utf8').slice(1), { skipEmptyLines: true });
    expect(parsed.data).toHaveLength(7);
  });

  it('custom_html: the first table; no table is a 400 that names the fix', async () => {
    const out = await render({ format: 'csv', data: CUSTOM_DATA, custom_html: CUSTOM });
    expect(Papa.parse(out.bytes.toString('utf8'), { skipEmptyLines: true }).data).toEqual([
      ['Producto', 'Unidades', 'Ingresos'],
      ['Café, molido', '3', '1234.5'],
      ['Té "verde"', '10', '99.9'],
    ]);
    await expect(render({ format: 'csv', data: {}, custom_html: '<p>sin tabla</p>' })).rejects.toBeInstanceOf(
      DocumentRequestError,
    );
  });
});

describe('docx', () => {
  it('maps headings, formatting, lists and tables onto Word structures', async () => {
    const out = await render({ format: 'docx', data: CUSTOM_DATA, custom_html: CUSTOM });
    expect(out.filename).toBe('documento.docx');
    const zip = await JSZip.loadAsync(out.bytes);
    expect(Object.keys(zip.files)).toEqual(
      expect.arrayContaining(['word/document.xml', '[Content_Types].xml']),
    );
    const doc = await zip.file('word/document.xml')!.async('string');
    expect(doc).toMatch(/<w:pStyle w:val="Heading1"\/>[\s\S]*?Informe de marzo/);
    expect(doc).toMatch(/<w:b\/>[\s\S]*?Ana &amp; Luis/);
    expect(doc).toMatch(/<w:i\/>[\s\S]*?resumen/);
    expect(doc).toContain('<w:numPr>');
    expect(doc).toContain('<w:tbl>');
    expect(doc).toContain('<w:tblHeader/>');
    expect(doc).toContain('Té &quot;verde&quot;');
    const core = await zip.file('docProps/core.xml')!.async('string');
    expect(core).toContain('<dc:title>Informe marzo</dc:title>');
  });
});

describe('md, txt, html', () => {
  it('md: headings, emphasis, lists and a GFM table', async () => {
    const out = await render({ format: 'md', data: CUSTOM_DATA, custom_html: CUSTOM });
    const md = out.bytes.toString('utf8');
    expect(out.contentType).toBe('text/markdown; charset=utf-8');
    expect(md).toContain('# Informe de marzo');
    expect(md).toContain('Hola **Ana & Luis**, aquí está el _resumen_.');
    expect(md).toMatch(/^-\s+uno$/m);
    expect(md).toMatch(/^1\.\s+Primero$/m);
    expect(md).toMatch(/\| Producto \| Unidades \| Ingresos \|\n\| --- \| --- \| --- \|/);
    expect(md).not.toContain('color: #123456');
  });

  it('txt: readable plain text with the table in columns', async () => {
    const out = await render({ format: 'txt', data: CUSTOM_DATA, custom_html: CUSTOM });
    const txt = out.bytes.toString('utf8');
    expect(txt).toContain('INFORME DE MARZO');
    expect(txt).toContain('Hola Ana & Luis, aquí está el resumen.');
    expect(txt).toMatch(/\* uno/);
    expect(txt).toMatch(/Café, molido\s+3\s+1,234\.50/);
    expect(txt).not.toMatch(/<[a-z]/i);
  });

  it('html: CSS copied onto the elements, <style> kept', async () => {
    const out = await render({ format: 'html', data: CUSTOM_DATA, custom_html: CUSTOM });
    const html = out.bytes.toString('utf8');
    expect(out.contentType).toBe('text/html; charset=utf-8');
    expect(html).toMatch(/<h1 style="color: #123456;">Informe de marzo<\/h1>/);
    expect(html).toMatch(/<td class="num" style="text-align: right;"[^>]*>3<\/td>/);
    expect(html).toContain('<style>');
  });

  describe('fetches nothing the HTML links to', () => {
    let server: Server;
    let hits = 0;
    beforeAll(async () => {
      server = createServer((_req, res) => {
        hits++;
        res.end('h1 { color: red }');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it.each(['html', 'md', 'txt', 'docx', 'xlsx'])('%s', async (format) => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const html = `<html><head><link rel="stylesheet" href="${base}/a.css"><style>@import url("${base}/b.css");
        @font-face { font-family: X; src: url(${base}/f.woff); } body { background: url(${base}/bg.png); }</style></head>
        <body><img src="${base}/i.png"><iframe src="${base}/frame"></iframe><table><tr><th>a</th></tr><tr><td>1</td></tr></table></body></html>`;
      await render({ format, data: {}, custom_html: html });
      await new Promise((r) => setTimeout(r, 50));
      expect(hits).toBe(0);
    });
  });
});
