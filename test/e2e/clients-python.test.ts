// The Python client (clients/python, standard library only) and `python -m voz` against the real local runtime:
// Debian's python3 (/usr/bin/python3, not a pyenv shim; no PyPI) runs clients/python/tests/test_live.py (unittest)
// with this runtime's URLs and keys — every wrapped operation, a 19 MB PDF through the upload path, webhook
// verification of real deliveries of both services, an idempotent retry after a lost answer, a publisher feed of a
// loopback RSS, CFDI batches (zip upload and XML list), X-Error-Code in English and Spanish, the CLI's MP3
// (ffprobe) and facturas (qpdf --check) — and the package is type-checked by Debian's mypy (python3-mypy,
// `--strict --python-version 3.9`).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { stopPdfWorkers } from '../../lambdas/narration/pdf/index';
import { generateKey } from '../../lambdas/shared/auth/keys';
import { putApiKey } from '../helpers/api-keys';
import { tempDir } from '../helpers/env';
import { FFPROBE, startRuntime, type TestRuntime } from '../helpers/runtime';
import { textPdf } from '../helpers/text-pdf';
import { webhookTestEnv } from '../helpers/webhook-receiver';
import { startArticleSite, type ArticleSite } from '../helpers/clients-site';

jest.setTimeout(180_000);

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3'; // Debian's: the `python3` on PATH may be pyenv's
const ROOT = join(__dirname, '..', '..');
const PKG = join(ROOT, 'clients', 'python');
const files = tempDir('clients-py-');
const keys = { pro: generateKey(), scale: generateKey() };
let rt: TestRuntime;
let site: ArticleSite;

beforeAll(async () => {
  site = await startArticleSite();
  rt = await startRuntime({
    ...webhookTestEnv(''),
    URL_FETCH_ALLOWLIST: `127.0.0.1:${site.port}`,
    SYNC_MAX_CHARS: '200', // texts over 200 characters answer 202 at once: the polling path, cheaply
    WAIT_WINDOW_S: '0',
  });
  await putApiKey(rt, keys.pro, 'pro', 'cus_py_pro');
  await putApiKey(rt, keys.scale, 'scale', 'cus_py_scale');
});

afterAll(async () => {
  await stopPdfWorkers();
  await rt?.stop();
  await site?.close();
  files.cleanup();
});

test('the Python client and CLI pass their live tests against this runtime (Debian python3, unittest)', async () => {
  const small = join(files.path, 'small.pdf');
  const big = join(files.path, 'big.pdf');
  writeFileSync(
    small,
    textPdf(['Informe de ventas del primer trimestre.', 'Las ventas crecieron un diez por ciento.']),
  );
  // 19 MB, as #29 asks: far over what one request may carry (~4.5 MB), so only the upload path takes it; just under
  // the upload path's 20 MiB. A binary stream pads it, as photographs weigh.
  writeFileSync(big, textPdf(['Anexo del informe anual.', 'Este documento pesa por sus fotografias.'], 19e6));
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
    VOZ_TEST_ARTICLE_URL: site.articleUrl,
    VOZ_TEST_FEED_URL: site.feedUrl,
    VOZ_TEST_FEED_ARTICLE_URL: site.feedArticleUrl,
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
  // A failure shows unittest's own report of each failing test.
  expect({
    code: result.code,
    tail: result.out.split('\n').slice(-4).join('\n'),
    failures: result.out.match(/^(FAIL|ERROR): [\s\S]*?(?=^-{20,}$|^={20,}$)/gm) ?? [],
  }).toEqual({
    code: 0,
    tail: expect.stringMatching(/Ran 18 tests in [\d.]+s\n\nOK\n?$/),
    failures: [],
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
