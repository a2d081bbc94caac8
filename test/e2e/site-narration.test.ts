// The narration site's "Pruébalo" and "Voces" in a real browser: headless Chromium (test/helpers/browser.ts) on the
// page GET / of the real local runtime. Pasted text (POST /demo/try), an article address (POST /convert/url, served
// by a loopback article server) and a PDF (POST /convert/pdf, made here with pdf-lib) must each end in the embed
// player playing real audio (its clock passes 0.5 s) while the sentence being read is highlighted in the page's copy
// of the text. Bad input must show the API's reason under a Spanish message, never a blank. axe-core finds no serious
// or critical violation at desktop and phone widths, and the browser makes no request off loopback.
// Pricing, checkout, /gracias and the waitlist: site-narration-pay.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser, Page } from 'puppeteer-core';
import { stopPdfWorkers } from '../../lambdas/narration/pdf/index';
import { expectNoSeriousA11yViolations } from '../helpers/axe';
import { launchChromium, loopbackPage } from '../helpers/browser';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { probeSpentHour } from '../helpers/quota-window';
import { postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(180_000);

const ARTICLE = readFileSync(join(__dirname, '..', 'fixtures', 'articles', 'noticia.html'), 'utf8');
const ARTICLE_TITLE = 'La sequía obliga a Cataluña a restringir el riego agrícola';
const PDF_SENTENCES = [
  'El informe anual de la cooperativa llegó a tiempo.',
  'Las ventas de café crecieron en Veracruz y en Chiapas durante todo el año.',
  'La asamblea votará el reparto de utilidades el próximo mes.',
];

const files = tempDir('site-narration-');
let tripwire: Tripwire;
let rt: TestRuntime;
let articles: Server;
let articlePort: number;
let browser: Browser;
let page: Page;
let pdfPath: string;
let notPdfPath: string;
const blocked: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  articles = createServer((req, res) => {
    if (req.url === '/sociedad/sequia.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(ARTICLE);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no existe');
  });
  await new Promise<void>((r) => articles.listen(0, '127.0.0.1', r));
  articlePort = (articles.address() as AddressInfo).port;

  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const p = pdf.addPage([612, 792]);
  PDF_SENTENCES.forEach((s, i) => p.drawText(s, { x: 72, y: 700 - i * 24, size: 12, font }));
  pdfPath = join(files.path, 'informe.pdf');
  notPdfPath = join(files.path, 'notas.pdf');
  writeFileSync(pdfPath, await pdf.save());
  writeFileSync(notPdfPath, 'Esto no es un PDF, solo texto con otra extensión.\n');

  rt = await startRuntime(
    {
      URL_FETCH_ALLOWLIST: `127.0.0.1:${articlePort}`,
      // The demo: the text, one voice sample, then the limit (the last test sees the 429).
      DEMO_PER_HOUR: '2',
      DEMO_PER_DAY: '100',
      // The 2,700-character article goes through the queue and the worker: 202 at once, the page waits for its
      // timings (to show its text) and then plays it. Short texts are narrated inside the request.
      SYNC_MAX_CHARS: '1000',
      WAIT_WINDOW_S: '0',
      FREE_PER_HOUR: '10',
      FREE_PER_DAY: '100',
    },
    { documents: false },
  );
  browser = await launchChromium(join(files.path, 'profile'));
  page = await loopbackPage(browser, blocked);
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(rt.url('/'), { waitUntil: 'load' });
  // The voices arrive from GET /voices.
  await page.waitForFunction(`document.querySelectorAll('#voz option').length > 1`, { timeout: 15_000 });
});

afterAll(async () => {
  await browser?.close();
  await stopPdfWorkers();
  await rt?.stop();
  articles?.closeAllConnections();
  await new Promise((r) => articles?.close(r));
  files.cleanup();
  tripwire?.uninstall();
});

// Page-side code is passed as strings: test tooling (coverage) must not rewrite what runs in the browser.
const ROOT = `document.querySelector('voz-player').shadowRoot`;
const PLAYING = `(() => { const p = document.querySelector('voz-player'); if (!p) return false;
  const a = [...p.shadowRoot.querySelectorAll('audio')].find((e) => !e.paused);
  return !!a && !a.error && a.readyState >= 2 && a.currentTime > 0.5; })()`;
/** The sentence highlighted now in the page's own copy of the text (inside #texto-narrado), or null. */
const HIGHLIGHT = `(() => { const h = CSS.highlights.get('voz-frase'); if (!h || h.size === 0) return null;
  const r = [...h][0]; const box = document.querySelector('#texto-narrado');
  return box.contains(r.startContainer) ? r.toString().replace(/\\s+/g, ' ').trim() : 'outside'; })()`;

/** Runs page-side code given as a string. */
const js = <T>(code: string) => page.evaluate(code) as Promise<T>;
const text = (sel: string) =>
  js<string>(`document.querySelector(${JSON.stringify(sel)}).textContent.replace(/\\s+/g, ' ').trim()`);
const setValue = (sel: string, value: string) =>
  js<void>(`void (document.querySelector(${JSON.stringify(sel)}).value = ${JSON.stringify(value)})`);

async function clearResult() {
  await page.evaluate(`document.querySelector('#resultado').hidden = true;
    document.querySelector('#reproductor').textContent = '';
    document.querySelector('#error').textContent = '';`);
}

/** Presses the player's play button and waits for real playback and a highlighted sentence. */
async function playAndFollow(): Promise<string> {
  const button = await page.waitForSelector('voz-player >>> [part=boton]', { timeout: 30_000 });
  await button!.click();
  await page.waitForFunction(PLAYING, { timeout: 60_000, polling: 100 });
  const handle = await page.waitForFunction(
    `(() => { const t = ${HIGHLIGHT}; return t && t !== 'outside' ? t : false; })()`,
    {
      timeout: 20_000,
      polling: 100,
    },
  );
  const sentence = (await handle.jsonValue()) as string;
  // Pause, so the next flow starts from a quiet page.
  await page.evaluate(`${ROOT}.querySelectorAll('audio').forEach((a) => a.pause())`);
  return sentence;
}

async function waitForError(): Promise<{ message: string; detail: string; detailLang: string | null }> {
  await page.waitForFunction(`document.querySelector('#error').textContent.trim() !== ''`, {
    timeout: 30_000,
  });
  return page.evaluate(`(() => { const e = document.querySelector('#error');
    const s = e.querySelector('small');
    return { message: e.querySelector('strong').textContent, detail: s ? s.textContent : '', detailLang: s ? s.lang : null };
  })()`) as Promise<{ message: string; detail: string; detailLang: string | null }>;
}

test('the page: Spanish, its sections, live figures and the free-tier counter from GET /pay/status', async () => {
  expect(await js<string>('document.documentElement.lang')).toBe('es-MX');
  for (const id of ['pruebalo', 'voces', 'precios', 'lista']) expect(await page.$(`#${id}`)).not.toBeNull();
  await page.waitForFunction(`document.querySelector('#cuota').textContent !== ''`, { timeout: 10_000 });
  expect(await text('#cuota')).toBe(
    'Cuota gratuita para artículos y PDF: te quedan 10 de 10 narraciones esta hora y 100 de 100 hoy.',
  );
  await page.waitForFunction(`document.querySelector('#cifra-narraciones').textContent !== '—'`, {
    timeout: 10_000,
  });
  expect(await text('#cifra-narraciones')).toBe('0');
  // The free plan's limits come from the API, not from the HTML.
  expect(await text('#free-limites')).toBe('10 narraciones por hora y 100 al día');
});

test('pasted text → POST /demo/try → the embed player plays it and highlights the sentence being read', async () => {
  const sentences = [
    'Hola, esta es una prueba del sitio de Voz.',
    'El audio suena en el reproductor mientras la frase se resalta en pantalla.',
    'La lectura dura unos cuantos segundos, de sobra para comprobarlo.',
  ];
  await setValue('#texto', '');
  await page.type('#texto', sentences.join(' '));
  await page.select('#voz', 'es-MX-Mia');
  const demo = page.waitForResponse((r) => r.url().endsWith('/demo/try'));
  await page.click('#forma-texto button[type=submit]');
  const res = await demo;
  expect(res.status()).toBe(200);
  expect(((await res.json()) as { voice: string }).voice).toBe('es-MX-Mia');
  await page.waitForSelector('#resultado:not([hidden]) voz-player');
  expect(await text('#texto-narrado')).toBe(sentences.join(' '));
  // The player is styled: constructed style sheets, which the page CSP (no hashes) need not admit (no CSP report,
  // checked at the end).
  expect(await js<string>(`getComputedStyle(${ROOT}.querySelector('[part=boton]')).width`)).toBe('44px');
  const highlighted = await playAndFollow();
  expect(sentences).toContain(highlighted);
  expect(await text('#estado')).toBe('Tu audio está listo: pulsa reproducir.');
});

test('an article address → POST /convert/url (202, queued) → its title, its text (from the timings) followed while it plays', async () => {
  await clearResult();
  await setValue('#url', '');
  await page.type('#url', `http://127.0.0.1:${articlePort}/sociedad/sequia.html`);
  const conv = page.waitForResponse((r) => r.url().endsWith('/convert/url'));
  await page.click('#forma-url button[type=submit]');
  expect((await conv).status()).toBe(202);
  await page.waitForFunction(
    `document.querySelector('#estado').textContent.startsWith('Preparando el audio')`,
    {
      timeout: 10_000,
    },
  );
  await page.waitForFunction(
    `document.querySelector('#resultado-titulo').textContent === ${JSON.stringify(ARTICLE_TITLE)}`,
    {
      timeout: 60_000,
    },
  );
  await page.waitForSelector('#resultado:not([hidden]) voz-player');
  const narrated = await text('#texto-narrado');
  expect(narrated).toContain('Cataluña');
  const highlighted = await playAndFollow();
  // The highlighted sentence is a sentence of the article's text as the page shows it.
  expect(highlighted.length).toBeGreaterThan(10);
  expect(narrated).toContain(highlighted);
  expect(await js<string>(`${ROOT}.querySelector('[part=titulo]').textContent`)).toBe(ARTICLE_TITLE);
});

test('a PDF chosen with the Spanish "Elegir PDF…" button → POST /convert/pdf (multipart) → played with its text following', async () => {
  await clearResult();
  // The browser's own picker (English "Choose File") is out of sight; the Spanish button opens it.
  expect(await text('#zona-pdf .elegir')).toBe('Elegir PDF… Ningún archivo elegido.');
  expect(
    await js<number>(`document.querySelector('#pdf').getBoundingClientRect().width`),
  ).toBeLessThanOrEqual(1);
  const [chooser] = await Promise.all([
    page.waitForFileChooser({ timeout: 5_000 }),
    page.click('#zona-pdf .boton'),
  ]);
  await chooser.accept([pdfPath]);
  await page.waitForFunction(`document.querySelector('#pdf-nombre').textContent === 'informe.pdf'`, {
    timeout: 5_000,
  });
  const conv = page.waitForResponse((r) => r.url().endsWith('/convert/pdf'));
  await page.click('#forma-pdf button[type=submit]');
  const res = await conv;
  expect({ status: res.status(), body: await res.text() }).toMatchObject({ status: 200 });
  expect(res.request().headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  await page.waitForSelector('#resultado:not([hidden]) voz-player');
  expect(await text('#texto-narrado')).toBe(PDF_SENTENCES.join(' '));
  expect(PDF_SENTENCES).toContain(await playAndFollow());
});

test('bad input shows the specific reason in Spanish under the message: an address that is not one, a file that is not a PDF', async () => {
  await clearResult();
  await setValue('#url', '');
  await page.type('#url', 'esto no es una dirección');
  await page.click('#forma-url button[type=submit]');
  let shown = await waitForError();
  expect(shown.message).toBe('No se pudo narrar el artículo.');
  expect(shown.detail).toMatch(/^url: La URL no es una dirección absoluta válida\./);
  expect(shown.detailLang).toBe('');

  await clearResult();
  const input = await page.$('#pdf');
  await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(notPdfPath);
  await page.click('#forma-pdf button[type=submit]');
  shown = await waitForError();
  expect(shown.message).toBe('No se pudo narrar el PDF.');
  expect(shown.detail).toMatch(/^file: El archivo (no )?es .*PDF/);
  expect(await js<boolean>(`document.querySelector('#resultado').hidden`)).toBe(true);
});

test('Voces: every voice of GET /voices is listed; a sample is made with the demo and plays', async () => {
  const voices = (await (await fetch(rt.url('/voices'))).json()) as { id: string }[];
  expect(await js<number>(`document.querySelectorAll('#lista-voces li').length`)).toBe(voices.length);
  expect(
    await js<string[]>(`[...document.querySelectorAll('#voz option')].map((o) => o.value).slice(1)`),
  ).toEqual(voices.map((v) => v.id));
  const demo = page.waitForResponse((r) => r.url().endsWith('/demo/try'));
  await page.click('#lista-voces li:nth-child(2) button.secundario');
  expect((await demo).status()).toBe(200);
  await page.waitForFunction(
    `(() => { const a = document.querySelector('#muestra'); return !a.paused && !a.error && a.currentTime > 0.3; })()`,
    { timeout: 30_000, polling: 100 },
  );
  // "Usar esta voz" picks it in the form.
  await page.click('#lista-voces li:nth-child(2) button:not(.secundario)');
  expect(await js<string>(`document.querySelector('#voz').value`)).toBe(voices[1]!.id);
  await page.evaluate(`document.querySelector('#muestra').pause()`);
});

test('the demo limit: 429 shown in Spanish with when it resets, and the API reason', async () => {
  // The tests before spent this address's 2 demos of the hour; probeSpentHour spends what a turn of the hour since
  // gave back, so that the page's own request meets the limit in any case. Every text is new: a repeat would reuse
  // its audio, uncharged (docs/reuse.md).
  await probeSpentHour(
    2,
    (i, round) => postJson(rt.url('/demo/try'), { text: `Prueba del límite ${round}-${i}.` }),
    async (round) => {
      await clearResult();
      await setValue('#texto', `El límite de la demo, intento ${round + 1}.`);
      const demo = page.waitForResponse((r) => r.url().endsWith('/demo/try'));
      await page.click('#forma-texto button[type=submit]');
      const res = await demo;
      return new Response(null, { status: res.status(), headers: res.headers() });
    },
  );
  const shown = await waitForError();
  // Seconds in the last minute of the hour (ci35 ran it at 04:59:06: "en 54 s"), else minutes or hours.
  expect(shown.message).toMatch(
    /^Alcanzaste el límite de uso gratuito\. Podrás intentarlo de nuevo en \d+ (s|min|h)\b/,
  );
  expect(shown.detail).toMatch(/Llegaste al límite de la demo: 2 demos por hora/);
});

test('pricing without payments configured: the click explains it on the page (no JSON error page)', async () => {
  const url = page.url();
  await page.click('a.comprar[data-plan=pro]');
  await page.waitForFunction(`document.querySelector('#precios-error').textContent !== ''`, {
    timeout: 10_000,
  });
  expect(await text('#precios-error strong')).toBe(
    'No se pudo abrir la página de pago: el servicio no está disponible ahora mismo. Inténtalo de nuevo en unos minutos.',
  );
  // The operator's condition is logged for the operator; the visitor reads one plain sentence.
  expect(await text('#precios-error small')).toBe(
    'Los pagos no están disponibles en este servidor por ahora. Inténtalo más tarde o escribe a soporte.',
  );
  expect(page.url()).toBe(url);
});

test('axe: no serious or critical violation, desktop and a 390 px phone; nothing left loopback', async () => {
  // With a result and an error on the page, so the player and the messages are checked too.
  await page.setViewport({ width: 1280, height: 900 });
  await expectNoSeriousA11yViolations(page, '/ (escritorio)');
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(`document.querySelectorAll('#lista-voces li').length > 0`, { timeout: 15_000 });
  await expectNoSeriousA11yViolations(page, '/ (teléfono, 390 px)');
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(`document.documentElement.scrollWidth`)).toBeLessThanOrEqual(390);
  expect(blocked).toEqual([]);
  expect(tripwire.attempts).toEqual([]);
  // The refusals the tests provoked (422, 429, the 503 of payments not configured) are the only console errors.
  expect(consoleErrors.filter((e) => !/status of (4\d\d|503)/.test(e))).toEqual([]);
});
