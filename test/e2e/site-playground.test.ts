// The documents playground (GET / of the documents API) in real headless Chromium against the local runtime: a
// person picks the factura, its sample loads, an edit that breaks the template's JSON Schema is reported as they
// type (Spanish message + JSON path), fixing it clears the report, and the PDF rendered through POST /v1/render is
// previewed and downloaded; the downloaded bytes are checked by independent tools (qpdf --check, pdftotext finding
// the RFC, the total and the edited note). A Pro key renders the "HTML propio" tab to PNG (previewed as an image);
// without a key, and with a key whose subscription lapsed, the API's refusal (403, 402) is shown. A month of CFDI:
// a zip of 3 stamped XML goes through the batch API (upload slot, presigned POST straight to the bucket, start,
// polling), its progress is shown and the result zip is offered (on a desktop); a zip that is not one shows the
// API's reason in Spanish (on a 390 px phone). axe-core finds no serious/critical violation in each state. Network rule: every non-loopback request is aborted and recorded
// (asserted empty), and this process's own sockets may reach loopback only (tripwire).
// One browser, one page, one runtime: about 40 s.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { generateKey } from '../../lambdas/shared/auth/keys';
import { putApiKey } from '../helpers/api-keys';
import { unzipSync } from 'fflate';
import { expectNoSeriousA11yViolations } from '../helpers/axe';
import { batchCorpus, zipOf } from '../helpers/cfdi-batch';
import { launchChromium, loopbackPage } from '../helpers/browser';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { pdftotext, requirePdftotext } from '../helpers/pdftotext';
import { decodePng, pngProblems } from '../helpers/png';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(150_000);

const files = tempDir('playground-');
const downloads = join(files.path, 'descargas');
let tripwire: Tripwire;
let rt: TestRuntime;
let browser: Browser;
let page: Page;
let cdp: CDPSession;
const blocked: string[] = [];
/** Bodies of the POST /v1/render requests the page made, in order, with their Authorization header. */
const renders: { body: Record<string, unknown>; authorization?: string }[] = [];
let proKey = '';
let lapsedKey = '';
interface Listing {
  templates: { slug: string; sample: Record<string, unknown> }[];
}
let listing: Listing;

beforeAll(async () => {
  requirePdftotext();
  tripwire = installLoopbackTripwire();
  rt = await startRuntime();
  proKey = generateKey();
  lapsedKey = generateKey();
  await putApiKey(rt, proKey, 'pro');
  // A key issued by billing whose subscription was canceled: 402 (no paid access), not 401.
  await putApiKey(rt, lapsedKey, 'pro', 'cus_playground', { billingStatus: 'canceled' });
  listing = (await (await fetch(`${rt.documentsUrl!}/templates`)).json()) as Listing;

  browser = await launchChromium(join(files.path, 'perfil'));
  page = await loopbackPage(browser, blocked);
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/v1/render')
      renders.push({
        body: JSON.parse(req.postData() ?? 'null') as Record<string, unknown>,
        authorization: req.headers()['authorization'],
      });
  });
  cdp = await browser.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', {
    behavior: 'allow',
    downloadPath: downloads,
    eventsEnabled: true,
  });
});

afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  files.cleanup();
  tripwire?.uninstall();
});

// Page-side code is passed as strings: test tooling (coverage) must not rewrite what runs in the browser.
/** `expr` evaluated in the page with `e` = the element `selector` finds. */
const on = <T>(selector: string, expr: string) =>
  page.evaluate(`((e) => (${expr}))(document.querySelector(${JSON.stringify(selector)}))`) as Promise<T>;
const text = (selector: string) => on<string>(selector, `e.innerText.replace(/\\s+/g, ' ').trim()`);
/** Waits for `selector`'s text to match; a timeout names what the page said instead. */
async function waitText(selector: string, pattern: RegExp, timeout = 60_000): Promise<void> {
  try {
    await page.waitForFunction(
      `(() => { const e = document.querySelector(${JSON.stringify(selector)});
        return !!e && ${pattern.toString()}.test(e.innerText.replace(/\\s+/g, ' ')); })()`,
      { timeout, polling: 50 },
    );
  } catch (err) {
    const said = await Promise.all(
      [selector, '#estado-resultado', '#error-resultado'].map((s) => text(s).catch(() => '?')),
    );
    throw new Error(
      `${(err as Error).message}: ${pattern} never matched; the page said ${JSON.stringify(said)} after ${renders.length} render request(s)`,
    );
  }
}

/** Selects `find` (its first occurrence) in the data textarea and types `replacement` over it, key by key. */
async function typeOver(find: string, replacement: string) {
  const start = await on<number>('#datos', `e.value.indexOf(${JSON.stringify(find)})`);
  expect(start).toBeGreaterThan(0);
  await page.focus('#datos');
  await on('#datos', `e.setSelectionRange(${start}, ${start + find.length})`);
  await page.keyboard.type(replacement);
}

/** Clicks the download link and resolves the saved file's path once Chromium reports it complete. */
async function download(): Promise<string> {
  const name = await on<string>('#enlace-descarga', 'e.download');
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('download did not complete in 30 s')), 30_000);
    const onProgress = (e: { state: string }) => {
      if (e.state === 'inProgress') return;
      clearTimeout(timer);
      cdp.off('Browser.downloadProgress', onProgress);
      if (e.state === 'completed') resolve();
      else reject(new Error(`download ${e.state}`));
    };
    cdp.on('Browser.downloadProgress', onProgress);
  });
  await page.click('#enlace-descarga');
  await done;
  return join(downloads, name);
}

test('GET / is the Spanish playground with the strict CSP (frame-src blob: for the PDF preview, the bucket for a batch upload)', async () => {
  const res = await page.goto(`${rt.documentsUrl!}/`);
  expect(res!.status()).toBe(200);
  const csp = res!.headers()['content-security-policy']!;
  expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
  expect(csp).toMatch(/(^|; )frame-src blob:(;|$)/);
  // A batch's zip goes straight to the bucket (the emulator here): its origin, and only it, besides 'self'.
  expect(csp).toContain(`connect-src 'self' ${new URL(rt.emulators.env.AWS_ENDPOINT_URL_S3!).origin}`);
  expect(csp).toMatch(/(^|; )object-src 'none'(;|$)/);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(await on('html', 'e.lang')).toBe('es-MX');
  expect(await text('h1')).toBe('Prueba la API de documentos');
});

interface Plan {
  id: string;
  name: string;
  price_usd: number;
  billing: string;
  documents_per_month: number;
  checkout: string | null;
}
/** What the key's help says about the plans, and where its two links lead. */
const planHelp = (p: Page) =>
  p.evaluate(`({
    help: document.querySelector('#clave-ayuda').innerText.replace(/\\s+/g, ' '),
    pro: document.querySelector('#comprar-pro').getAttribute('href'),
    lifetime: document.querySelector('#comprar-lifetime').getAttribute('href'),
  })`) as Promise<{ help: string; pro: string; lifetime: string }>;

test("the key's help states the plans as GET /pricing answers them: changed prices show up, no copy of them", async () => {
  const pricing = (await (await fetch(`${rt.documentsUrl!}/pricing`)).json()) as { plans: Plan[] };
  const real = (id: string) => pricing.plans.find((p) => p.id === id)!;
  await page.waitForFunction(`document.querySelector('#comprar-pro').textContent.includes('$')`, {
    timeout: 15_000,
  });
  const shown = await planHelp(page);
  expect(shown.help).toContain(
    `gratuito: ${real('free').documents_per_month} documentos al mes por dirección IP`,
  );
  expect(shown.help).toContain(`Pro ($${real('pro').price_usd} al mes)`);
  expect(shown.help).toContain(`Lifetime ($${real('lifetime').price_usd} una vez)`);
  expect(shown.pro).toBe(`${real('pro').checkout}?ref=playground`);

  // The same page with GET /pricing answering other plans: the page follows the route, whatever it says.
  const changed = pricing.plans.map((p) =>
    p.id === 'free'
      ? { ...p, documents_per_month: 75 }
      : p.id === 'pro'
        ? { ...p, price_usd: 12.5, checkout: '/pay/checkout/pro-nuevo' }
        : p.id === 'lifetime'
          ? { ...p, price_usd: 99 }
          : p,
  );
  const other = await loopbackPage(browser, blocked, async (req) => {
    if (new URL(req.url()).pathname !== '/pricing') return false;
    await req.respond({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ ...pricing, plans: changed }),
    });
    return true;
  });
  try {
    await other.goto(`${rt.documentsUrl!}/`);
    await other.waitForFunction(`document.querySelector('#comprar-pro').textContent.includes('$')`, {
      timeout: 15_000,
    });
    const now = await planHelp(other);
    expect(now.help).toContain('gratuito: 75 documentos al mes por dirección IP');
    expect(now.help).toContain('Pro ($12.50 al mes)');
    expect(now.help).toContain('Lifetime ($99 una vez)');
    expect(now.help).not.toContain(`$${real('pro').price_usd} al mes`);
    expect(now.pro).toBe('/pay/checkout/pro-nuevo?ref=playground');
    expect(now.lifetime).toBe(`${real('lifetime').checkout}?ref=playground`);
  } finally {
    await other.close();
  }
});

test('choosing the factura loads its sample; an edit breaking the schema is reported as you type; fixing it clears it', async () => {
  await page.waitForSelector('#plantilla:not([disabled])');
  await page.select('#plantilla', 'factura');
  const sample = listing.templates.find((t) => t.slug === 'factura')!.sample;
  expect(JSON.parse(await on<string>('#datos', 'e.value'))).toEqual(sample);
  await waitText('#estado-datos', /cumplen el esquema de «Factura»/);
  // Formats the factura does not render to cannot be picked.
  const disabled = await on<string[]>(
    '#formato',
    `[...e.querySelectorAll('option:disabled')].map((o) => o.value)`,
  );
  expect(disabled).toEqual(expect.arrayContaining(['png', 'xlsx', 'docx']));
  expect(disabled).not.toContain('pdf');

  await typeOver('"cantidad": 1,', '"cantidad": "uno",');
  await waitText(
    '#estado-datos',
    /^Hay 1 problema en los datos: \$\.items\[0\]\.cantidad debe ser un número\.$/,
  );
  expect(await text('#errores-datos')).toMatch(/^\$\.items\[0\]\.cantidad debe ser un número\. Cantidad/);
  expect(await on('#datos', `e.getAttribute('aria-invalid')`)).toBe('true');
  await expectNoSeriousA11yViolations(page, 'playground with a schema error');

  // The path is a button that takes the cursor to the field.
  await page.click('#errores-datos button.ruta');
  const selected = await on(
    '#datos',
    '[document.activeElement === e, e.value.slice(e.selectionStart, e.selectionEnd)]',
  );
  expect(selected).toEqual([true, '"cantidad": "uno"']);

  // Generating while the data is invalid sends nothing and says why.
  await page.click('#generar');
  await waitText('#estado-resultado', /Corrige los problemas/);
  expect(renders).toHaveLength(0);

  // A syntax error names line and column.
  await typeOver('"uno",', '"uno"');
  await waitText('#estado-datos', /El JSON no es válido en la línea \d+, columna \d+/);

  await typeOver('"cantidad": "uno"', '"cantidad": 1,');
  await typeOver('Gracias por su preferencia.', 'Generada desde el playground.');
  await waitText('#estado-datos', /cumplen el esquema/);
  expect(await on('#datos', `e.getAttribute('aria-invalid')`)).toBeNull();
  expect(await on('#errores-datos', 'e.hidden')).toBe(true);
});

test('rendering the factura as PDF: previewed from a blob: URL, and the downloaded file is the real invoice', async () => {
  expect(await on('#formato', 'e.value')).toBe('pdf');
  await page.click('#generar');
  await waitText('#estado-resultado', /^Listo: /);
  expect(renders).toHaveLength(1);
  expect(renders[0]!.body).toMatchObject({ template: 'factura', format: 'pdf' });
  expect(renders[0]!.authorization).toBeUndefined(); // the free tier: no key needed
  expect((renders[0]!.body.data as { notas: string }).notas).toMatch(/Generada desde el playground\.$/);
  expect(await text('#estado-resultado')).toMatch(/Te quedan 49 de 50 documentos este mes\./);
  const frame = await on<string[]>('#vista-previa iframe', '[e.src, e.title]');
  expect(frame[0]).toMatch(/^blob:http:\/\/127\.0\.0\.1:\d+\//);
  expect(frame[1]).toMatch(/^Vista previa de .+\.pdf$/);
  // The preview's bytes are the document's: the iframe shows the same blob the download link saves.
  expect(await on('#enlace-descarga', 'e.href')).toBe(frame[0]);

  const file = await download();
  expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  execFileSync('qpdf', ['--check', file]);
  const t = pdftotext(file).replace(/\s+/g, ' ');
  expect(t).toContain('SDB180315KJ2');
  expect(t).toContain('CHU110921AB7');
  expect(t).toMatch(/Total \$30,284\.18/);
  expect(t).toContain('Generada desde el playground.');
  await expectNoSeriousA11yViolations(page, 'playground with a PDF preview');
});

test('a text format is shown as text: the ventas report as CSV, generated with Ctrl+Enter', async () => {
  await page.select('#plantilla', 'ventas');
  await waitText('#estado-datos', /cumplen el esquema de «Reporte de ventas»/);
  await page.select('#formato', 'csv');
  // Ctrl+Enter in the editor generates too.
  await page.focus('#datos');
  await page.keyboard.down('Control');
  await page.keyboard.press('Enter');
  await page.keyboard.up('Control');
  await waitText('#estado-resultado', /^Listo: .+\.csv/);
  const sample = listing.templates.find((t) => t.slug === 'ventas')!.sample as {
    rows: { product: string }[];
  };
  expect(await text('#vista-previa pre')).toContain(sample.rows[0]!.product);
  // Back to the factura: the person's edits are still there.
  await page.select('#plantilla', 'factura');
  expect(await on('#datos', 'e.value')).toContain('Generada desde el playground.');
});

test('HTML propio: without a key the API refuses (403) and the page says so; with a lapsed key, 402', async () => {
  // Keyboard: the selected tab, then the arrow key moves to "HTML propio".
  await page.focus('#pestana-plantillas');
  await page.keyboard.press('ArrowRight');
  expect(
    await on('#pestana-propio', `[e.getAttribute('aria-selected'), document.activeElement === e]`),
  ).toEqual(['true', true]);
  expect(await on('#panel-propio', 'e.hidden')).toBe(false);
  expect(await on('#panel-plantillas', 'e.hidden')).toBe(true);
  // Every format is open to custom HTML.
  expect(await on('#formato', `e.querySelectorAll('option:disabled').length`)).toBe(0);

  await page.click('#generar');
  await waitText('#error-resultado', /Tu plan no incluye esto/);
  expect(renders.at(-1)!.body).toMatchObject({ format: 'pdf' });
  expect(typeof renders.at(-1)!.body.custom_html).toBe('string');
  expect(await text('#error-resultado')).toMatch(
    /Respuesta de la API \(403\): custom_html \(tus propias plantillas\) es de los planes Pro, Scale o Lifetime/,
  );
  await expectNoSeriousA11yViolations(page, 'playground, HTML propio refused');

  await page.type('#clave', lapsedKey);
  await page.click('#generar');
  await waitText('#error-resultado', /Tu suscripción no está activa/);
  expect(renders.at(-1)!.authorization).toBe(`Bearer ${lapsedKey}`);
  // The page asks for Spanish: the API's own reason comes in Spanish.
  expect(await text('#error-resultado')).toMatch(
    /Respuesta de la API \(402\): .*de esta clave de API se canceló/,
  );
});

test('HTML propio with a Pro key renders to PNG, previewed as an image; the key stays in this tab only', async () => {
  await on('#clave', `e.value = ''`);
  await page.type('#clave', proKey);
  expect(await page.evaluate(`sessionStorage.getItem('documentos.clave')`)).toBe(proKey);
  expect(await page.evaluate(`localStorage.length`)).toBe(0);
  await page.select('#formato', 'png');
  await page.click('#generar');
  await waitText('#estado-resultado', /^Listo: .+\.png/);
  expect(renders.at(-1)).toMatchObject({ body: { format: 'png' }, authorization: `Bearer ${proKey}` });
  await page.waitForFunction(
    `(() => { const i = document.querySelector('#vista-previa img'); return !!i && i.complete && i.naturalWidth > 100; })()`,
    { timeout: 10_000 },
  );
  expect(await on('#vista-previa img', 'e.alt')).toMatch(/^Vista previa de .+\.png$/);
  const png = readFileSync(await download());
  // Decoded by pngjs: the default 1024 px wide viewport, with the rendered HTML's ink on it.
  const decoded = decodePng(png);
  expect(pngProblems(png, { width: 1024, height: decoded.height, minInk: 0.001 })).toEqual([]);
  await expectNoSeriousA11yViolations(page, 'playground with a PNG preview');
});

/** Every text #estado-lote showed, in order (recorded in the page as it changes). */
async function recordBatchStatus(): Promise<void> {
  await page.evaluate(`(() => {
    const e = document.querySelector('#estado-lote');
    window.shownLote = [];
    new MutationObserver(() => window.shownLote.push(e.textContent)).observe(e, { childList: true, characterData: true, subtree: true });
  })()`);
}

test('a month of CFDI on a desktop: a zip of 3 stamped XML is uploaded, its progress shown, the result zip offered', async () => {
  await page.setViewport({ width: 1280, height: 900 });
  const corpus = batchCorpus(`playground-${Date.now()}`, 3, false);
  const zipPath = join(files.path, 'mes.zip');
  writeFileSync(zipPath, zipOf(corpus.files));
  await on('#clave', `e.value = ''`);
  await page.type('#clave', proKey);
  await recordBatchStatus();
  const input = await page.$('#zip-lote');
  await input!.uploadFile(zipPath);
  await page.click('#subir-lote');
  await waitText('#estado-lote', /^Listo: 3 PDF\./, 120_000);
  // Progress on the way: the 202's state first (queued, or rendering with its counts), then done; the bar full.
  const shown = (await page.evaluate('window.shownLote')) as string[];
  expect(shown.findIndex((t) => /^(En cola|Imprimiendo)/.test(t))).toBeGreaterThanOrEqual(0);
  expect(shown.findIndex((t) => /^(En cola|Imprimiendo)/.test(t))).toBeLessThan(
    shown.findIndex((t) => /^Listo/.test(t)),
  );
  expect(await on('#progreso-lote', '[e.hidden, e.value]')).toEqual([false, 1]);
  // The result zip is offered: its link names it, and what it points at holds every PDF and XML and the summaries.
  expect(await text('#enlace-lote')).toMatch(/^Descargar cfdi-\d{4}-\d{2}-\d{2}-.+\.zip \(\d/);
  const href = await on<string>('#enlace-lote', 'e.href');
  const zip = unzipSync(new Uint8Array(await (await fetch(href)).arrayBuffer()));
  const names = Object.keys(zip);
  expect(names.filter((n) => n.endsWith('.pdf'))).toHaveLength(3);
  expect(names.filter((n) => n.endsWith('.xml'))).toHaveLength(3);
  expect(names).toEqual(expect.arrayContaining(['resumen.xlsx', 'resumen.csv']));
  for (const f of corpus.files) expect(names.some((n) => n.endsWith(`_${f.uuid}.pdf`))).toBe(true);
  await expectNoSeriousA11yViolations(page, 'playground with a batch done (desktop)');
});

test('a zip that is not one, on a 390 px phone: the API’s reason in Spanish', async () => {
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const bad = join(files.path, 'no-es-zip.zip');
  writeFileSync(bad, 'Esto es una nota de texto, no un zip.');
  const input = await page.$('#zip-lote');
  await input!.uploadFile(bad);
  await page.click('#subir-lote');
  await waitText('#error-lote', /Lo que subiste no es un zip/, 60_000);
  expect(await text('#error-lote')).toMatch(
    /^La API rechazó el lote .*Motivo que da la API: Lo que subiste no es un zip de archivos XML/,
  );
  expect(await text('#estado-lote')).toBe('El lote no se procesó.');
  expect(await on('#descarga-lote', 'e.hidden')).toBe(true);
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(page, 'playground with a refused batch (390 px)');
});

test('no request left loopback', () => {
  expect(blocked).toEqual([]);
  expect(tripwire.attempts).toEqual([]);
});
