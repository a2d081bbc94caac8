// GET /api of both services in a real browser (headless Chromium, test/helpers/browser.ts) on the real local runtime:
// the interactive reference (Swagger UI, served by the API itself) lists the operations of the same OpenAPI document
// the JSON form answers, and "Try it out" → "Execute" really calls the running API (GET /voices, GET /templates) and
// shows its 200 and body. The page keeps its strict CSP (no violation reported), axe-core finds no serious or critical
// violation, and the browser makes no request off loopback.
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { expectNoSeriousA11yViolations } from '../helpers/axe';
import { launchChromium, loopbackPage } from '../helpers/browser';
import { tempDir } from '../helpers/env';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(120_000);

const files = tempDir('site-api-reference-');
let rt: TestRuntime;
let browser: Browser;
let page: Page;
const blocked: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  rt = await startRuntime();
  browser = await launchChromium(join(files.path, 'profile'));
  page = await loopbackPage(browser, blocked);
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
});

afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  files.cleanup();
});

// Page-side code is passed as strings: test tooling (coverage) must not rewrite what runs in the browser.
const js = <T>(code: string) => page.evaluate(code) as Promise<T>;

/** Opens /api of `base`, waits for Swagger UI to list the document's operations, and returns their ids. */
async function openReference(base: string): Promise<string[]> {
  await page.goto(`${base}/api`, { waitUntil: 'load' });
  await page.waitForSelector('.opblock', { timeout: 30_000 });
  return js<string[]>(`[...document.querySelectorAll('.opblock')].map((o) => o.id)`);
}

/** Expands one operation, presses "Try it out" then "Execute", and returns the live response's status and body. */
async function tryIt(opId: string): Promise<{ status: string; body: string }> {
  const sel = `#${opId}`;
  await page.click(`${sel} .opblock-summary-control`);
  await page.waitForSelector(`${sel} .try-out__btn`, { timeout: 10_000 });
  await page.click(`${sel} .try-out__btn`);
  await page.waitForSelector(`${sel} .btn.execute`, { timeout: 10_000 });
  await page.click(`${sel} .btn.execute`);
  await page.waitForSelector(`${sel} .live-responses-table .response .response-col_status`, {
    timeout: 30_000,
  });
  return js(`(() => {
    const row = document.querySelector(${JSON.stringify(`${sel} .live-responses-table .response`)});
    return {
      status: row.querySelector('.response-col_status').textContent.trim(),
      body: row.querySelector('.response-col_description pre').textContent,
    };
  })()`);
}

/** Swagger UI's own labels still in English in the page (outside what the API document says), and a few in Spanish. */
const LABELS = `(() => {
  const english = ['Try it out', 'Cancel', 'Execute', 'Clear', 'Authorize', 'Parameters', 'No parameters', 'Request body',
    'Responses', 'Server response', 'Request URL', 'Response body', 'Response headers', 'Code', 'Description', 'Links',
    'No links', 'Media type', 'Example Value', 'Schema', 'Schemas'];
  const theirs = '.markdown, .renderedMarkdown, .model-box, .model, pre, code, textarea, .parameter__name, .prop-name';
  const w = document.createTreeWalker(document.getElementById('swagger-ui'), NodeFilter.SHOW_TEXT);
  const left = [];
  for (let t; (t = w.nextNode()); )
    if (english.includes(t.data.trim()) && !t.parentElement.closest(theirs)) left.push(t.data.trim());
  const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.trim());
  return { left, buttons: text('#swagger-ui .btn'), headings: text('#swagger-ui h4') };
})()`;

test('narration: /api lists every documented operation; GET /voices → Try it out → Execute shows 200 and the voices', async () => {
  const doc = (await (await fetch(rt.url('/api?format=json'))).json()) as {
    paths: Record<string, Record<string, { operationId: string; summary: string }>>;
  };
  const ids = await openReference(rt.narrationUrl);
  const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));
  expect(ids.length).toBe(operations.length);
  expect(ids).toContain('operations-narration-Voices');
  expect(await js<string>(`document.documentElement.lang`)).toBe('es');
  expect(await js<string>(`document.querySelector('h1').textContent`)).toContain('API de Narración');

  const res = await tryIt('operations-narration-Voices');
  expect(res.status).toBe('200');
  const voices = JSON.parse(res.body) as { id: string; lang: string }[];
  expect(voices).toEqual(await (await fetch(rt.url('/voices'))).json());
  expect(voices.map((v) => v.id)).toContain('es-MX-Mia');
  // Swagger UI's own words are Spanish; the document's descriptions stay as written.
  const labels = (await js(LABELS)) as { left: string[]; buttons: string[]; headings: string[] };
  expect(labels.left).toEqual([]);
  expect(labels.buttons).toEqual(expect.arrayContaining(['Autorizar', 'Cancelar', 'Ejecutar', 'Limpiar']));
  expect(labels.headings).toEqual(
    expect.arrayContaining(['Parámetros', 'Respuestas', 'Respuesta del servidor', 'URL de la petición']),
  );
  expect(
    await js<string>(
      `document.querySelector('#operations-narration-Voices .opblock-summary-description').textContent`,
    ),
  ).toBe(doc.paths['/voices']!['get']!.summary);

  await expectNoSeriousA11yViolations(page, 'narration /api (GET /voices answered)');
});

test('documents: /api lists its operations; GET /templates → Try it out → Execute shows 200 and the templates', async () => {
  const ids = await openReference(rt.documentsUrl!);
  expect(ids).toEqual(
    expect.arrayContaining(['operations-documents-Render', 'operations-templates-Templates']),
  );
  expect(await js<string>(`document.querySelector('h1').textContent`)).toContain('API de Documentos');

  const res = await tryIt('operations-templates-Templates');
  expect(res.status).toBe('200');
  const body = JSON.parse(res.body) as { templates: { slug: string }[] };
  expect(body.templates.map((t) => t.slug)).toContain('factura');

  await expectNoSeriousA11yViolations(page, 'documents /api (GET /templates answered)');
});

test('no CSP violation, script error or request off loopback while the references ran', () => {
  expect(problems).toEqual([]);
  expect(blocked).toEqual([]);
});
