// The Python client (clients/python, standard library only) and `python -m voz` against the real local runtime:
// Debian's python3 (/usr/bin/python3, not a pyenv shim; no PyPI) runs clients/python/tests/test_live.py (unittest)
// with this runtime's URLs and keys — every wrapped operation, the 5 MiB PDF through the upload path, webhook
// verification of real deliveries of both services, an idempotent retry after a lost answer, the CLI's MP3
// (ffprobe) and facturas (qpdf --check) — and the package is type-checked by Debian's mypy (python3-mypy,
// `--strict --python-version 3.9`).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { stopPdfWorkers } from '../../lambdas/narration/pdf/index';
import { generateKey } from '../../lambdas/shared/auth/keys';
import { putApiKey } from '../helpers/api-keys';
import { tempDir } from '../helpers/env';
import { FFPROBE, startRuntime, type TestRuntime } from '../helpers/runtime';
import { textPdf } from '../helpers/text-pdf';
import { webhookTestEnv } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3'; // Debian's: the `python3` on PATH may be pyenv's
const ROOT = join(__dirname, '..', '..');
const PKG = join(ROOT, 'clients', 'python');
const files = tempDir('clients-py-');
const keys = { pro: generateKey(), scale: generateKey() };
const ARTICLE = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>El tren llega a la sierra</title></head>
<body><main><article><h1>El tren llega a la sierra</h1>
<p>Después de diez años de obras, el tren de pasajeros llegó por fin a los pueblos de la sierra. Los vecinos
salieron a recibirlo con música y comida, y muchos viajaron gratis durante el primer día.</p>
<p>El recorrido completo dura dos horas y media. Las autoridades prometen tres salidas diarias y tarifas
especiales para estudiantes y personas mayores a partir del mes próximo.</p>
<p>Los comerciantes esperan más visitantes los fines de semana, sobre todo en la temporada de lluvias.</p>
</article></main></body></html>`;
let rt: TestRuntime;
let site: Server;
let sitePort = 0;

beforeAll(async () => {
  site = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  );
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as AddressInfo).port;
  rt = await startRuntime({
    ...webhookTestEnv(''),
    URL_FETCH_ALLOWLIST: `127.0.0.1:${sitePort}`,
    SYNC_MAX_CHARS: '200', // texts over 200 characters answer 202 at once: the polling path, cheaply
    WAIT_WINDOW_S: '0',
  });
  await putApiKey(rt, keys.pro, 'pro', 'cus_py_pro');
  await putApiKey(rt, keys.scale, 'scale', 'cus_py_scale');
});

afterAll(async () => {
  await stopPdfWorkers();
  await rt?.stop();
  await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
  files.cleanup();
});

test('the Python client and CLI pass their live tests against this runtime (Debian python3, unittest)', async () => {
  const small = join(files.path, 'small.pdf');
  const big = join(files.path, 'big.pdf');
  writeFileSync(
    small,
    textPdf(['Informe de ventas del primer trimestre.', 'Las ventas crecieron un diez por ciento.']),
  );
  // 5 MiB: just over what one request may carry (~4.5 MB), so only the upload path takes it.
  writeFileSync(
    big,
    textPdf(['Anexo del informe anual.', 'Este documento pesa por sus fotografias.'], 5 * 1024 * 1024),
  );
  const cfdi = ['ingreso-basico.xml', 'egreso-nota-credito.xml'].map((n) =>
    join(ROOT, 'test/fixtures/cfdi', n),
  );
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    PYTHONDONTWRITEBYTECODE: '1',
    VOZ_TEST_NARRATION_URL: rt.narrationUrl,
    VOZ_TEST_DOCUMENTS_URL: rt.documentsUrl!,
    VOZ_TEST_PRO_KEY: keys.pro,
    VOZ_TEST_SCALE_KEY: keys.scale,
    VOZ_TEST_ARTICLE_URL: `http://127.0.0.1:${sitePort}/noticia`,
    VOZ_TEST_SMALL_PDF: small,
    VOZ_TEST_BIG_PDF: big,
    VOZ_TEST_CFDI: cfdi.join(delimiter),
    VOZ_TEST_DIR: files.path,
    VOZ_TEST_FFPROBE: FFPROBE,
  };
  const result = await run(PYTHON, ['-m', 'unittest', '-v', 'tests.test_live'], { cwd: PKG, env }).then(
    (r) => ({ code: 0, out: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, out: e.stderr }),
  );
  // unittest reports on stderr; every test ran (none skipped) and passed.
  expect({ code: result.code, tail: result.out.split('\n').slice(-4).join('\n') }).toEqual({
    code: 0,
    tail: expect.stringMatching(/Ran 14 tests in [\d.]+s\n\nOK\n?$/),
  });
  expect(result.out).not.toMatch(/skipped/);
});

test('typed: Debian’s mypy (python3-mypy) --strict --python-version 3.9 on the package and its tests', async () => {
  const result = await run(
    PYTHON,
    [
      '-m',
      'mypy',
      '--strict',
      '--python-version',
      '3.9',
      '--cache-dir',
      join(files.path, 'mypy-cache'),
      'voz',
      'tests',
    ],
    { cwd: PKG },
  ).then(
    (r) => r.stdout,
    (e: { stdout: string; stderr: string }) => e.stdout + e.stderr,
  );
  expect(result).toMatch(/^Success: no issues found in \d+ source files/);
});
