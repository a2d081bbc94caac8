// POST /v1/render with `cfdi_xml` over HTTP against the local runtime (the in-process corpus checks are in
// cfdi-xml.test.ts): a stamped XML whose Total does not add up comes back as a PDF with the X-CFDI-Avisos header,
// readable by browser callers (exposed through CORS); a complement we do not know is named by
// X-CFDI-Complementos-No-Reconocidos; an XML with a DTD is refused with the contract's 400 shape
// before anything is rendered or charged.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/env';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(180_000);

let rt: TestRuntime;
const files = tempDir('cfdi-http-');
const xmlOf = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'cfdi', name), 'utf8');

beforeAll(async () => {
  rt = await startRuntime({}, { trustProxy: true });
});
afterAll(async () => {
  await rt.stop();
  files.cleanup();
});

let ip = 1;
const render = (body: unknown) =>
  fetch(`${rt.documentsUrl!}/v1/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${ip++}` },
    body: JSON.stringify(body),
  });

test('a CFDI whose Total does not add up: PDF, X-CFDI-Avisos names the difference, exposed to browsers', async () => {
  const res = await render({ template: 'factura', format: 'pdf', cfdi_xml: xmlOf('descuadre.xml') });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(res.headers.get('x-cfdi-avisos')).toContain('Comprobante@Total: XML 1160.01, expected 1160.00');
  expect(res.headers.get('access-control-expose-headers')?.split(/,\s*/)).toContain('x-cfdi-avisos');
  const file = join(files.path, 'descuadre.pdf');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  execFileSync('qpdf', ['--check', file]);
});

test('a CFDI that adds up carries no warning header', async () => {
  const res = await render({ template: 'factura', format: 'pdf', cfdi_xml: xmlOf('ingreso-basico.xml') });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-cfdi-avisos')).toBeNull();
  await res.arrayBuffer();
});

test('a complement nobody knows: PDF with it printed, X-CFDI-Complementos-No-Reconocidos names it, exposed to browsers', async () => {
  const res = await render({
    template: 'factura',
    format: 'pdf',
    cfdi_xml: xmlOf(join('complementos', 'desconocido.xml')),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-cfdi-complementos-no-reconocidos')).toBe(
    'DatosAdicionales (urn:x-ejemplo:complemento-propio:1)',
  );
  expect(res.headers.get('x-cfdi-avisos')).toBeNull();
  expect(res.headers.get('access-control-expose-headers')?.split(/,\s*/)).toContain(
    'x-cfdi-complementos-no-reconocidos',
  );
  await res.arrayBuffer();
  const known = await render({
    template: 'factura',
    format: 'pdf',
    cfdi_xml: xmlOf(join('complementos', 'ine.xml')),
  });
  expect(known.status).toBe(200);
  expect(known.headers.get('x-cfdi-complementos-no-reconocidos')).toBeNull();
  await known.arrayBuffer();
});

test('an XML with a DTD (XXE) is a 400 at body.cfdi_xml, in the contract shape', async () => {
  const xxe =
    '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
    '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4">&x;</cfdi:Comprobante>';
  const res = await render({ template: 'factura', format: 'pdf', cfdi_xml: xxe });
  expect(res.status).toBe(400);
  const body = (await res.json()) as { detail: { loc: string[]; type: string }[] };
  expect(body.detail).toEqual([expect.objectContaining({ loc: ['body', 'cfdi_xml'], type: 'xml_dtd' })]);
});
