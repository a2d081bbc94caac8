// Documents too large for a Lambda response (6 MB base64) are stored in S3 and answered with 303 to a presigned URL.
// The threshold is lowered here so an ordinary invoice crosses it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/env';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(120_000);
let rt: TestRuntime;
const files = tempDir('docs-large-');
beforeAll(async () => {
  rt = await startRuntime({ DOCUMENTS_INLINE_MAX_BYTES: '2000' }, { startWorker: false });
});
afterAll(async () => {
  await rt.stop();
  files.cleanup();
});

const factura = {
  template: 'factura',
  format: 'pdf',
  data: {
    empresa: 'ACME',
    cliente: 'Ana',
    items: [{ concepto: 'Servicio', cantidad: 1, precio: 1500 }],
    moneda: 'MXN',
  },
};

test('a large document: 303 See Other to a presigned URL that serves it; small ones stay inline', async () => {
  const res = await fetch(rt.documentsUrl + '/v1/render', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(factura),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  expect(res.headers.get('ratelimit-limit')).toBe('50'); // still counted
  const location = res.headers.get('location')!;
  expect(new URL(location).pathname).toMatch(/\/results\/[0-9a-f-]{36}\/factura.*\.pdf$/);
  const doc = await fetch(location);
  expect(doc.status).toBe(200);
  expect(doc.headers.get('content-type')).toBe('application/pdf');
  const file = join(files.path, 'large.pdf');
  writeFileSync(file, Buffer.from(await doc.arrayBuffer()));
  execFileSync('qpdf', ['--check', file]);

  const small = await fetch(rt.documentsUrl + '/v1/render', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      template: 'ventas',
      format: 'csv',
      data: { title: 'V', rows: [{ product: 'A', units: 1, revenue: 1 }] },
    }),
    redirect: 'manual',
  });
  expect(small.status).toBe(200);
  expect(small.headers.get('content-type')).toMatch(/^text\/csv/);
});
