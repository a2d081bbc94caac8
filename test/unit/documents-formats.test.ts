// The non-Chromium formats, read back with independent tools: xlsx with exceljs and as raw OOXML (JSZip), docx as
// OOXML, CSV with papaparse, zip listings with JSZip; md/txt/html by content. The html renderer must not fetch
// anything a caller's HTML links to (checked with a sentinel server on loopback).
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import Papa from 'papaparse';
import { DocumentRequestError } from '../../lambdas/documents/errors';
import { parseRenderRequest, renderDocument } from '../../lambdas/documents/use-cases/render-request';
import { TEMPLATES } from '../../lambdas/documents/domain/template-registry';

const chromium = {
  renderPdf: async () => Buffer.from('%PDF-1.7 fake'),
  renderPng: async () => Buffer.from([0x89, 0x50, 0x4e, 0x47]),
};
const ventas = TEMPLATES.find((t) => t.meta.slug === 'ventas')!;
const balance = TEMPLATES.find((t) => t.meta.slug === 'balance')!;

const render = (body: unknown) => renderDocument(parseRenderRequest(body), chromium);

/** Python reads a JSON list of XML texts from stdin and parses each with expat (raises on malformed XML). */
const PY_WELLFORMED =
  'import sys, json, xml.dom.minidom\nfor t in json.load(sys.stdin): xml.dom.minidom.parseString(t.encode("utf-8"))';

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
  it('ventas: ranked table with formulas, frozen header, autofilter, totals, a native bar chart', async () => {
    const out = await render({ template: 'ventas', format: 'xlsx', data: ventas.sample });
    expect(out.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(out.filename).toBe('ventas.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.bytes as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Ventas')!;
    expect(ws.getCell('A1').value).toBe('Reporte de ventas del primer trimestre');
    expect(ws.getCell('A2').value).toBe('Café de Altura Chiapaneco · Enero – marzo 2024 · Cifras en MXN');
    expect(ws.getRow(3).values).toEqual([
      undefined,
      '#',
      'Producto',
      'Categoría',
      'Unidades',
      'Ingresos',
      'Precio promedio',
      'Participación',
      'Acumulado',
      'Meta',
      'Cumplimiento',
    ]);
    expect(ws.getCell('A3').font.bold).toBe(true);
    // Ranked by revenue: Espresso (239,850) first; computed columns are formulas with exact cached values.
    expect([ws.getCell('B4').value, ws.getCell('D4').value, ws.getCell('E4').value]).toEqual([
      'Espresso Chiapas 1 kg',
      615,
      239850,
    ]);
    expect(ws.getCell('F4').value).toEqual({ formula: 'IF(D4=0,"",E4/D4)', result: 390 });
    // Shares cached as the nearest double to the exact quotient (a viewer that does not recalculate rounds once).
    expect(ws.getCell('G4').value).toEqual({ formula: 'IF($E$10=0,0,E4/$E$10)', result: 239850 / 731804.5 });
    expect(ws.getCell('H5').value).toEqual({
      formula: 'IF($E$10=0,0,SUM($E$4:E5)/$E$10)',
      result: 425850 / 731804.5,
    });
    expect(ws.getCell('E4').numFmt).toBe('"$"#,##0.00;-"$"#,##0.00');
    expect(ws.getCell('D4').numFmt).toBe('#,##0');
    expect(ws.getCell('G4').numFmt).toBe('0.0%');
    expect(ws.getCell('A10').value).toBe('Total');
    expect(ws.getCell('E10').value).toEqual({ formula: 'SUM(E4:E9)', result: 731804.5 });
    expect(ws.getCell('D10').value).toEqual({ formula: 'SUM(D4:D9)', result: 3561 });
    expect(ws.getCell('F10').value).toEqual({ formula: 'IF(D10=0,"",E10/D10)', result: 205.51 });
    expect(ws.getCell('J10').value).toEqual({
      formula: 'IF(N(I10)=0,"",SUMIF(I4:I9,"<>",E4:E9)/I10)',
      result: 731804.5 / 723000,
    });
    // The group sheet reads the main one.
    const g = wb.getWorksheet('Por categoría')!;
    expect(g.getCell('D4').value).toEqual({
      formula: "SUMIF('Ventas'!$C$4:$C$9,A4,'Ventas'!$E$4:$E$9)",
      result: 543450,
    });

    // The raw package, as Excel reads it: frozen header, autofilter, and the chart wired sheet → drawing → chart.
    const zip = await JSZip.loadAsync(out.bytes);
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    expect(sheet).toMatch(/<pane [^>]*ySplit="3"[^>]*state="frozen"/);
    expect(sheet).toContain('<autoFilter ref="A3:J3"/>');
    expect(sheet).toMatch(/<drawing r:id="rId\d+"\/><\/worksheet>$/);
    const rid = /<drawing r:id="(rId\d+)"/.exec(sheet)![1];
    const sheetRels = await zip.file('xl/worksheets/_rels/sheet1.xml.rels')!.async('string');
    expect(sheetRels).toContain(
      `Id="${rid}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" ` +
        'Target="../drawings/drawing1.xml"',
    );
    const drawingRels = await zip.file('xl/drawings/_rels/drawing1.xml.rels')!.async('string');
    expect(drawingRels).toContain('Target="../charts/chart1.xml"');
    const chart = await zip.file('xl/charts/chart1.xml')!.async('string');
    expect(chart).toContain('<c:barDir val="bar"/>');
    expect(chart).toContain("<c:f>'Ventas'!$B$4:$B$9</c:f>");
    expect(chart).toContain("<c:f>'Ventas'!$E$4:$E$9</c:f>");
    expect(chart).toContain('<c:pt idx="0"><c:v>Espresso Chiapas 1 kg</c:v></c:pt>');
    const types = await zip.file('[Content_Types].xml')!.async('string');
    expect(types).toContain(
      '<Override PartName="/xl/charts/chart1.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>',
    );
    expect(Object.keys(zip.files)).toEqual(
      expect.arrayContaining(['xl/charts/chart2.xml', 'xl/drawings/drawing2.xml']),
    );
    expect(await zip.file('xl/charts/chart2.xml')!.async('string')).toContain('<c:doughnutChart>');
    // Every part is well-formed XML (Python's expat, an independent parser).
    const parts = Object.keys(zip.files).filter((n) => /\.(xml|rels)$/.test(n));
    const texts = await Promise.all(parts.map((n) => zip.file(n)!.async('string')));
    expect(() =>
      execFileSync('python3', ['-c', PY_WELLFORMED], { input: JSON.stringify(texts), encoding: 'utf8' }),
    ).not.toThrow();
  });

  it('ventas: chart text is escaped and sheet names are quoted in references', async () => {
    const out = await render({
      template: 'ventas',
      format: 'xlsx',
      data: {
        title: 'T',
        rows: [
          { product: 'Café <"A"> & Cía', units: 1, revenue: 2, region: "L'Estany" },
          { product: 'B', units: 1, revenue: 1, region: 'Norte' },
        ],
        group_by: 'region',
      },
    });
    const zip = await JSZip.loadAsync(out.bytes);
    const chart = await zip.file('xl/charts/chart1.xml')!.async('string');
    expect(chart).toContain('<c:v>Café &lt;&quot;A&quot;&gt; &amp; Cía</c:v>');
    const groups = await zip.file('xl/worksheets/sheet2.xml')!.async('string');
    expect(groups).toContain('COUNTIF(&apos;Ventas&apos;!$C$4:$C$5,A4)');
    expect(await zip.file('xl/charts/chart2.xml')!.async('string')).toContain(
      '<c:v>L&apos;Estany</c:v>'.replace('&apos;', "'"),
    );
  });

  it('balance: statement layout with SUM subtotals, totals over them and the audit row', async () => {
    const out = await render({ template: 'balance', format: 'xlsx', data: balance.sample });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.bytes as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const rowOf = (label: string) => {
      let found = 0;
      ws.eachRow((row, n) => {
        if (row.getCell(1).value === label) found = n;
      });
      return found;
    };
    const circ = rowOf('Total activo circulante');
    expect(ws.getCell(`B${circ}`).value).toEqual({
      formula: `SUM(B${circ - 4}:B${circ - 1})`,
      result: 1490581.3,
    });
    const ta = rowOf('Total activo');
    const gt = rowOf('Total pasivo + capital');
    expect(ws.getCell(`B${ta}`).value).toMatchObject({ result: 2810881.3 });
    expect(ws.getCell(`B${gt}`).value).toEqual({
      formula: `B${rowOf('Total pasivo')}+B${rowOf('Total capital contable')}`,
      result: 2810881.3,
    });
    const share = ws.getCell(`C${circ}`).value as { formula: string; result: number };
    expect(share.formula).toBe(`IF($B$${ta}=0,"",B${circ}/$B$${ta})`);
    expect(share.result).toBeCloseTo(1490581.3 / 2810881.3, 14); // the exact quotient's nearest double
    expect(ws.getCell(`F${circ}`).value).toEqual({ formula: `B${circ}-D${circ}`, result: 143910.65 });
    expect(ws.getCell(`B${ta + 1}`).value).toBe(null); // the PASIVO heading row: no amount
    expect(ws.getCell(`A${ta + 1}`).font.bold).toBe(true);
    expect(ws.getCell(`A${circ - 4}`).alignment.indent).toBe(1);
    // The audit row, read raw (exceljs's reader drops a cached 0): activo − (pasivo + capital) = 0.
    const last = ws.rowCount;
    const xml = await (await JSZip.loadAsync(out.bytes)).file('xl/worksheets/sheet1.xml')!.async('string');
    expect(xml).toMatch(new RegExp(`<c r="B${last}"[^>]*><f>B${ta}-B${gt}</f><v>0</v></c>`));
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
      ['#', 'Producto', 'Unidades', 'Ingresos', 'Precio promedio', 'Participación', 'Acumulado'],
      ['1', 'Ñandú', '1.5', '0.20', '0.13', '0.6667', '0.6667'],
      ['2', 'Café, "especial"\nde olla', '2', '0.10', '0.05', '0.3333', '1'],
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
