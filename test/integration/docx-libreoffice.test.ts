// The docx output opened by an independent reader: LibreOffice Writer converts it to text (it opens only a valid
// document) and the text shows what a reader sees — heading, formatting runs joined, list items, the table cells in
// order, escaped characters as characters. (documents-formats.test.ts checks the Word XML structures themselves.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TemplateSandbox } from '../../lambdas/documents/templating/sandbox';
import { parseRenderRequest, renderDocument } from '../../lambdas/documents/use-cases/render-request';
import { tempDir } from '../helpers/env';
import { requireSoffice, sofficeConvert } from '../helpers/office';

jest.setTimeout(180_000);

const noChromium = {
  renderPdf: async () => {
    throw new Error('docx does not use Chromium');
  },
  renderPng: async () => {
    throw new Error('docx does not use Chromium');
  },
};

const dir = tempDir('docx-lo-');
// The caller's template runs in a sandbox of its own with a limit far above production's 500 ms of wall time: what is
// checked is the docx, and a loaded CI machine (load ~8, ci49) took this template past 500 ms. The limit itself is
// tested in documents-sandbox.
const sandbox = new TemplateSandbox({ timeoutMs: 30_000 });
afterAll(() => {
  sandbox.dispose();
  dir.cleanup();
});

test('a custom_html docx opens in LibreOffice Writer and reads as the document', async () => {
  requireSoffice();
  const html = `<!DOCTYPE html><html><head><title>Informe {{ mes }}</title></head><body>
<h1>Informe de {{ mes }}</h1>
<p>Hola <strong>{{ nombre }}</strong>, aquí está el <em>resumen</em>.</p>
<ul>{% for x in puntos %}<li>{{ x }}</li>{% endfor %}</ul>
<table><thead><tr><th>Producto</th><th>Unidades</th></tr></thead>
<tbody>{% for r in filas %}<tr><td>{{ r.p }}</td><td>{{ r.u }}</td></tr>{% endfor %}</tbody></table>
</body></html>`;
  const data = {
    mes: 'marzo',
    nombre: 'Ana & Luis',
    puntos: ['uno', 'dos'],
    filas: [
      { p: 'Café, molido', u: 3 },
      { p: 'Té "verde" <bio>', u: 10 },
    ],
  };
  const out = await renderDocument(parseRenderRequest({ custom_html: html, format: 'docx', data }), {
    ...noChromium,
    sandbox,
  });
  const file = join(dir.path, 'informe.docx');
  writeFileSync(file, out.bytes);
  const [txtFile] = sofficeConvert([file], 'txt', dir.path);
  const lines = readFileSync(txtFile!, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  expect(lines).toEqual([
    'Informe de marzo',
    'Hola Ana & Luis, aquí está el resumen.',
    expect.stringMatching(/^\S*\s*uno$/), // a bullet (its glyph is LibreOffice's choice), then the item
    expect.stringMatching(/^\S*\s*dos$/),
    'Producto',
    'Unidades',
    'Café, molido',
    '3',
    'Té "verde" <bio>',
    '10',
  ]);
});
