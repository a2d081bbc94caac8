// PDF/A-3b out of real Chromium (options.pdfa; the default for cfdi_xml), read back by independent tools.
//
// No PDF/A validator runs here: veraPDF (the reference validator) is Java and ships neither in Debian nor on npm,
// `apt-cache search pdfa` finds none, and no npm package validates PDF/A. What IS checked of ISO 19005-3, each by a
// tool we did not write (docs/documents-rendering.md has the same list):
//   - qpdf --check: the file parses, xref and streams decode, no warnings;
//   - pdfinfo: not encrypted; `pdfinfo -meta` (poppler's reader) finds the catalog's XMP, which xmllint parses as
//     well-formed XML and which declares pdfaid:part 3, conformance B;
//   - pdffonts: every font embedded;
//   - pdfdetach: the source (CFDI XML or data.json) listed and saved back byte for byte;
//   - qpdf's JSON view: a trailer /ID; Info dates and title equal the XMP's; one /GTS_PDFA1 output intent whose
//     profile is an ICC stream (acsp magic) with /N 3; catalog /AF → file spec with /AFRelationship and an embedded
//     file stream.
// What is NOT checked: the XMP against PDF/A's extension-schema rules, each page object's colour spaces against the
// output intent, forbidden actions and annotations, transparency groups, the embedded file's MIME /Subtype and
// /Params, font programs' widths against the PDF's: the rest of veraPDF's rules.
// render/pdfa.ts appends an incremental update to the file it gets (Chromium's, or a merge's); a file it cannot
// extend (an xref stream) is rewritten whole: both outputs pass the same checks.
// The last test is the negative control: the same checks on copies damaged in one place each must fail.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, PDFHexString } from 'pdf-lib';
import sample from '../../templates/factura/sample.json';
import { dataJson } from '../../lambdas/documents/formats/json';
import { toPdfA3 } from '../../lambdas/documents/render/pdfa';
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { templateRenderer } from '../helpers/template-render';

jest.setTimeout(120_000);

const tpl = templateRenderer('factura');
const XML = readFileSync(join(__dirname, '..', 'fixtures', 'cfdi', 'descuadre.xml'));

type Obj = { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown>; data?: string } };
/** qpdf's JSON (v2) of the file, with stream data: objects by "obj:N 0 R", the trailer as "trailer". */
function qpdfObjects(file: string): Record<string, Obj> {
  const out = execFileSync(
    'qpdf',
    ['--json=2', '--json-stream-data=inline', '--decode-level=generalized', file],
    {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    },
  );
  return (JSON.parse(out) as { qpdf: [unknown, Record<string, Obj>] }).qpdf[1];
}
const dictOf = (o: Obj | undefined) => (o?.value ?? o?.stream?.dict ?? {}) as Record<string, unknown>;
const deref = (objs: Record<string, Obj>, ref: unknown) => objs[`obj:${String(ref)}`];
const streamText = (o: Obj | undefined) => Buffer.from(o?.stream?.data ?? '', 'base64').toString('utf8');

function checkPdfA(file: string, attachment: { name: string; bytes: Buffer; relationship: string }) {
  // qpdf: structurally sound, no warnings.
  expect(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' })).toMatch(
    /No syntax or stream encoding errors/,
  );

  // poppler: not encrypted; its own reading of the XMP is well-formed XML (xmllint) declaring PDF/A-3B.
  expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/^Encrypted:\s+no$/m);
  const meta = execFileSync('pdfinfo', ['-meta', file], { encoding: 'utf8' });
  execFileSync('xmllint', ['--noout', '-'], { input: meta }); // throws on malformed XML
  expect(meta).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
  expect(meta).toMatch(/<pdfaid:conformance>B<\/pdfaid:conformance>/);

  // pdffonts: every font has "yes" in its emb column.
  const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean);
  expect(fonts.length).toBeGreaterThan(0);
  for (const line of fonts) expect(line).toMatch(/\byes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/);

  // pdfdetach: listed, and saved back byte-identical.
  expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toContain(`1: ${attachment.name}`);
  const saved = join(tpl.dir, `detached-${Date.now()}-${attachment.name}`);
  execFileSync('pdfdetach', ['-save', '1', '-o', saved, file]);
  expect(readFileSync(saved).equals(attachment.bytes)).toBe(true);

  // qpdf's JSON: catalog → Metadata (XMP), OutputIntents, AF; trailer → ID.
  const objs = qpdfObjects(file);
  const trailer = dictOf(objs.trailer);
  expect(Array.isArray(trailer['/ID']) && (trailer['/ID'] as unknown[]).length).toBe(2);
  const catalog = dictOf(deref(objs, trailer['/Root']));
  const xmp = streamText(deref(objs, catalog['/Metadata']));
  expect(xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
  expect(xmp).toMatch(/<pdfaid:conformance>B<\/pdfaid:conformance>/);
  const info = dictOf(deref(objs, trailer['/Info']));
  // The Info dictionary's dates equal the XMP's (D:YYYYMMDDHHmmSSZ vs ISO 8601).
  const created = /^u:D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z/.exec(String(info['/CreationDate']))!;
  expect(created).not.toBeNull();
  const iso = `${created[1]}-${created[2]}-${created[3]}T${created[4]}:${created[5]}:${created[6]}Z`;
  expect(xmp).toContain(`<xmp:CreateDate>${iso}</xmp:CreateDate>`);
  expect(xmp).toContain(`<xmp:ModifyDate>${iso}</xmp:ModifyDate>`);
  const title = String(info['/Title']).replace(/^u:/, '');
  expect(xmp).toContain(`<rdf:li xml:lang="x-default">${title}</rdf:li>`);

  const intents = catalog['/OutputIntents'] as string[];
  expect(intents).toHaveLength(1);
  const intent = dictOf(deref(objs, intents[0]));
  expect(intent['/S']).toBe('/GTS_PDFA1');
  const icc = deref(objs, intent['/DestOutputProfile']);
  expect(icc?.stream?.dict['/N']).toBe(3);
  expect(Buffer.from(icc!.stream!.data!, 'base64').subarray(36, 40).toString('latin1')).toBe('acsp'); // ICC magic

  const af = catalog['/AF'] as string[];
  expect(af).toHaveLength(1);
  const spec = dictOf(deref(objs, af[0]));
  expect(spec['/AFRelationship']).toBe(`/${attachment.relationship}`);
  const ef = deref(objs, (spec['/EF'] as Record<string, unknown>)['/F']);
  expect(ef?.stream?.dict['/Subtype']).toBeDefined();
}

it('cfdi_xml → PDF/A-3b by default, the XML embedded byte for byte as its Source', async () => {
  const { file } = await tpl.renderBody({ cfdi_xml: XML.toString('utf8') });
  checkPdfA(file, { name: 'factura.xml', bytes: XML, relationship: 'Source' });
});

it('free plan: the watermark of a PDF/A is drawn in an embedded font (PDF/A forbids unembedded ones)', async () => {
  const { file } = await tpl.renderBody({ cfdi_xml: XML.toString('utf8') }, { watermark: true });
  // Drawn in the page before printing (render/watermark.ts): real text in Chromium's embedded Noto Sans Bold subset;
  // checkPdfA fails on any font that is not embedded.
  const text = (f: string) =>
    execFileSync('pdftotext', ['-raw', f, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
  expect(text(file)).toContain('Generadoconelplangratuito');
  expect(execFileSync('pdffonts', [file], { encoding: 'utf8' })).toMatch(
    /^[A-Z]{6}\+NotoSans-Bold\s.*\byes\s+yes\s+yes\s+\d+\s+\d+\s*$/m,
  );
  checkPdfA(file, { name: 'factura.xml', bytes: XML, relationship: 'Source' });
  const plain = await tpl.renderBody({ cfdi_xml: XML.toString('utf8') });
  expect(text(plain.file)).not.toContain('Generadoconelplangratuito');
});

it('an incremental update: the printed file kept byte for byte, then one revision adding what PDF/A asks', async () => {
  const { bytes: printed } = await tpl.renderBody({
    cfdi_xml: XML.toString('utf8'),
    options: { pdfa: false },
  });
  const xml = { name: 'factura.xml', bytes: XML, mimeType: 'application/xml' };
  const out = await toPdfA3(printed, { title: 'Factura ñ · A-1', attachments: [xml] });
  expect(out.subarray(0, printed.length).equals(printed)).toBe(true);
  const file = join(tpl.dir, 'incremental.pdf');
  writeFileSync(file, out);
  // qpdf reads the two xref sections: the update's trailer points back at Chromium's (/Prev).
  const trailer = dictOf(qpdfObjects(file).trailer);
  expect(trailer['/Prev']).toBe(Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(printed.toString('latin1'))![1]));
  checkPdfA(file, { name: 'factura.xml', bytes: XML, relationship: 'Source' });
  expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/^Title:\s+Factura ñ · A-1$/m);

  // A merge's files, given out of order: the name tree lists them sorted (pdfdetach numbers them as it reads it).
  const json = { name: '02-data.json', bytes: Buffer.from('{"a":1}'), mimeType: 'application/json' };
  const two = join(tpl.dir, 'incremental-2.pdf');
  writeFileSync(
    two,
    await toPdfA3(printed, { title: 'Lote', attachments: [json, { ...xml, name: '01-factura.xml' }] }),
  );
  execFileSync('qpdf', ['--check', two]);
  expect(execFileSync('pdfdetach', ['-list', two], { encoding: 'utf8' })).toMatch(
    /2 embedded files\n1: 01-factura\.xml\n2: 02-data\.json/,
  );
});

it('a file that already has a document ID keeps its permanent part; the update adds the changing one', async () => {
  const { bytes: printed } = await tpl.renderBody({
    cfdi_xml: XML.toString('utf8'),
    options: { pdfa: false },
  });
  const doc = await PDFDocument.load(printed);
  const permanent = PDFHexString.of('00112233445566778899aabbccddeeff');
  doc.context.trailerInfo.ID = doc.context.obj([permanent, permanent]);
  const withId = Buffer.from(await doc.save({ useObjectStreams: false }));
  const out = await toPdfA3(withId, {
    title: 'Factura',
    attachments: [{ name: 'factura.xml', bytes: XML, mimeType: 'application/xml' }],
  });
  expect(out.subarray(0, withId.length).equals(withId)).toBe(true); // incremental: pdf-lib's save has a classic xref
  const file = join(tpl.dir, 'with-id.pdf');
  writeFileSync(file, out);
  checkPdfA(file, { name: 'factura.xml', bytes: XML, relationship: 'Source' });
  const [first, second] = dictOf(qpdfObjects(file).trailer)['/ID'] as string[];
  expect(first).toBe('b:00112233445566778899aabbccddeeff');
  expect(second).not.toBe(first);
});

it('a file the update cannot extend (an xref stream) is rewritten whole and passes the same checks', async () => {
  const { bytes: printed } = await tpl.renderBody({
    cfdi_xml: XML.toString('utf8'),
    options: { pdfa: false },
  });
  const doc = await PDFDocument.load(printed);
  const streamed = Buffer.from(await doc.save({ useObjectStreams: true }));
  expect(streamed.toString('latin1')).toMatch(/\/Type \/XRef/);
  const out = await toPdfA3(streamed, {
    title: 'Factura',
    attachments: [{ name: 'factura.xml', bytes: XML, mimeType: 'application/xml' }],
  });
  expect(out.subarray(0, streamed.length).equals(streamed)).toBe(false);
  const file = join(tpl.dir, 'rewritten.pdf');
  writeFileSync(file, out);
  checkPdfA(file, { name: 'factura.xml', bytes: XML, relationship: 'Source' });
});

it('cfdi_xml with options.pdfa false → a plain PDF, nothing embedded', async () => {
  const { file } = await tpl.renderBody({ cfdi_xml: XML.toString('utf8'), options: { pdfa: false } });
  expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toMatch(/^0 embedded files/);
});

it('JSON data with options.pdfa → PDF/A-3b carrying data.json (the validated data) as its Source', async () => {
  const { file } = await tpl.renderBody({ data: sample, options: { pdfa: true } });
  const check = validateRenderRequest({ template: 'factura', format: 'pdf', data: sample });
  if (!check.ok) throw new Error('sample invalid');
  checkPdfA(file, {
    name: 'data.json',
    bytes: dataJson((check.request as { data: unknown }).data),
    relationship: 'Source',
  });
});

it('options.pdfa with a format other than pdf → 400 at options.pdfa naming the fix', () => {
  const r = validateRenderRequest({
    template: 'factura',
    format: 'html',
    data: sample,
    options: { pdfa: true },
  });
  expect(r).toMatchObject({ ok: false });
  expect((r as { problems: unknown }).problems).toEqual([
    {
      loc: ['body', 'options', 'pdfa'],
      msg: "PDF/A is a PDF: send format 'pdf' with options.pdfa, or drop options.pdfa for 'html'",
      type: 'unsupported_option',
    },
  ]);
  const zip = validateRenderRequest({
    template: 'factura',
    format: 'zip',
    data: sample,
    options: { pdfa: true },
  });
  expect(zip.ok).toBe(false);
  expect(
    validateRenderRequest({ template: 'factura', format: 'html', data: sample, options: { pdfa: false } }).ok,
  ).toBe(true);
});

it('negative controls: the same checks reject a copy without its output intent, or whose XMP claims PDF/A-2', async () => {
  const { file } = await tpl.renderBody({ cfdi_xml: XML.toString('utf8') });
  const source = { name: 'factura.xml', bytes: XML, relationship: 'Source' };
  checkPdfA(file, source);
  // Same-length edits in the uncompressed catalog and XMP (the update pdfa.ts appends is plain text), so the xref
  // stays valid and qpdf --check still passes: only the PDF/A checks can notice.
  const damaged = (name: string, from: string, to: string) => {
    const bytes = readFileSync(file);
    const at = bytes.indexOf(from, 0, 'latin1');
    expect(at).toBeGreaterThan(0);
    const out = join(tpl.dir, `damaged-${name}.pdf`);
    writeFileSync(
      out,
      Buffer.concat([bytes.subarray(0, at), Buffer.from(to, 'latin1'), bytes.subarray(at + to.length)]),
    );
    execFileSync('qpdf', ['--check', out]);
    return out;
  };
  expect(() => checkPdfA(damaged('no-intent', '/OutputIntents', '/OutputIntentX'), source)).toThrow(
    /toHaveLength/,
  );
  expect(() =>
    checkPdfA(damaged('part-2', '<pdfaid:part>3</pdfaid:part>', '<pdfaid:part>2</pdfaid:part>'), source),
  ).toThrow(/pdfaid:part/);
});
