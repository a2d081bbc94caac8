// The stand of test/e2e/embed.test.ts: the blog site, the runtime with its own logging API front, one Chromium, and
// the page-side probes of the player. The test file calls standUp() once; the bindings below are live.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { narrationManifest } from '../../../lambdas/narration/routes';
import { createFront, listen } from '../../../lib/local/front';
import { loadHandlers } from '../../../lib/local/runtime';
import { launchChromium, loopbackPage } from '../../helpers/browser';
import { tempDir } from '../../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../../helpers/loopback-only';
import { postJson, startRuntime, type TestRuntime } from '../../helpers/runtime';

const ARTICLE = readFileSync(join(__dirname, '..', '..', 'fixtures', 'articles', 'noticia.html'), 'utf8');
const APP_SHELL = readFileSync(join(__dirname, '..', '..', 'fixtures', 'articles', 'app-shell.html'), 'utf8');
export const ARTICLE_TITLE = 'La sequía obliga a Cataluña a restringir el riego agrícola';
const TEXT =
  'Hola. Este es un audio de prueba del reproductor embebido. ' +
  'Lo escuchan los lectores del blog sin salir de la página, con controles de velocidad y de posición. ' +
  'La narración dura unos cuantos segundos, de sobra para comprobar que el audio avanza de verdad.';

export const files = tempDir('embed-');
export let tripwire: Tripwire;
let rt: TestRuntime;
let apiServer: Server;
export let api: string;
let site: Server;
export let sitePort: number;
export let browser: Browser;
/** A short finished MP3 made through the API in beforeAll. */
export let audio: { audio_id: string; duration_s: number };
export const blocked: string[] = [];
/** What the API front answered, as `METHOD /path → status …`. */
export const apiLog: string[] = [];
export const pages: Page[] = [];

/** A blog page with hostile CSS; `tag` is the embed snippet the blogger pasted. */
function blogPage(tag: string): string {
  return `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Mi blog</title>
<style>*{font-family:serif!important;color:green!important}button,input,select{all:unset;background:red!important}</style>
</head><body><h1>Mi blog</h1><p>Una entrada cualquiera.</p>
<script>window.__before = Object.getOwnPropertyNames(window);</script>
${tag}
</body></html>`;
}

const embedTag = (attrs: string) => `<script src="${api}/embed.js" ${attrs} async></script>`;

/** Opens a blog page; `intercept` may answer a loopback request itself (true) instead of letting it through. */
export async function open(path: string, intercept?: (req: HTTPRequest) => Promise<boolean>): Promise<Page> {
  const page = await loopbackPage(browser, blocked, intercept);
  pages.push(page);
  await page.goto(`http://127.0.0.1:${sitePort}${path}`);
  await page.waitForSelector('voz-player >>> [part=boton]');
  return page;
}

// Page-side code is passed as strings: test tooling (coverage) must not rewrite what runs in the browser.
export const ROOT = `document.querySelector('voz-player').shadowRoot`;
interface WidgetState {
  t: number;
  paused: boolean;
  mediaError: number | null;
  duration: number;
  rate: number;
  button: string;
  title: string;
  clock: string;
  status: string;
  alert: string;
  detailLang: string | null;
  busy: string | null;
  progressHidden: boolean;
  progressNow: string | null;
  seekMax: number;
  seekDisabled: boolean;
  seekText: string | null;
  seekHidden: boolean;
}
const STATE = `(() => {
  const r = ${ROOT}; const a = r.querySelector('audio'); const q = (p) => r.querySelector('[part=' + p + ']');
  const small = q('error').querySelector('small');
  return {
    t: a.currentTime, paused: a.paused, mediaError: a.error ? a.error.code : null, duration: a.duration,
    rate: a.playbackRate, button: q('boton').getAttribute('aria-label'), title: q('titulo').textContent,
    clock: q('tiempo').textContent, status: q('estado').textContent, alert: q('error').textContent,
    detailLang: small ? small.lang : null, busy: q('reproductor').getAttribute('aria-busy'),
    progressHidden: q('progreso').hidden, progressNow: q('progreso').getAttribute('aria-valuenow'),
    seekMax: Number(q('posicion').max), seekDisabled: q('posicion').disabled,
    seekText: q('posicion').getAttribute('aria-valuetext'), seekHidden: q('posicion').hidden,
  };
})()`;
export const state = (page: Page) => page.evaluate(STATE) as Promise<WidgetState>;

/** Real playback: the media clock has run past 0.5 s, the element plays and reports no error. */
const PLAYING = `(() => { const a = ${ROOT}.querySelector('audio');
  return !a.paused && !a.error && a.readyState >= 2 && a.currentTime > 0.5; })()`;
export const waitForPlaying = (page: Page, timeout = 30_000) =>
  page.waitForFunction(PLAYING, { timeout, polling: 100 });
export const waitForAlert = (page: Page) =>
  page.waitForFunction(`${ROOT}.querySelector('[part=error]').textContent !== ''`, { timeout: 30_000 });

export async function click(page: Page, part: string) {
  const el = await page.waitForSelector(`voz-player >>> [part=${part}]`);
  await el!.click();
}

/** A finished MP3 conversion made through the API (counts against the free tier). */
async function convertText(): Promise<{ audio_id: string; duration_s: number }> {
  const res = await postJson(`${api}/convert/text`, { text: TEXT, voice: 'es-MX-Mia' });
  expect(res.status).toBe(200);
  return (await res.json()) as { audio_id: string; duration_s: number };
}

/** The one runtime, API front, blog site and browser of test/e2e/embed.test.ts, started and stopped around it. */
export function standUp(): void {
  beforeAll(async () => {
    tripwire = installLoopbackTripwire();
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const html = (body: string) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(body);
      };
      switch (url.pathname) {
        case '/entrada':
          return html(blogPage(embedTag(`data-audio-id="${url.searchParams.get('id')}"`)));
        case '/sociedad/sequia.html':
          return html(
            ARTICLE.replace(
              '</body>',
              `${embedTag(`data-narrate="page" data-voice="${url.searchParams.get('voz') ?? 'es-ES-Lucia'}"`)}</body>`,
            ),
          );
        case '/estricta': {
          // A page with a strict CSP: exactly what docs/embed.md says a host page needs, nothing for styles.
          const bucket = new URL(rt.emulators.env['AWS_ENDPOINT_URL_S3']!).origin;
          res.setHeader(
            'content-security-policy',
            `default-src 'none'; script-src ${api}; connect-src ${api}; media-src ${api} ${bucket}; style-src 'self'`,
          );
          return html(`<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Estricta</title></head>
  <body><h1>Mi blog</h1><article id="texto"><p>${TEXT}</p></article>
  ${embedTag(`data-audio-id="${url.searchParams.get('id')}" data-follow="#texto"`)}</body></html>`);
        }
        case '/app':
          return html(APP_SHELL.replace('</body>', `${embedTag('data-narrate="page"')}</body>`));
        default:
          res.writeHead(404, { 'content-type': 'text/plain' });
          return res.end('no existe');
      }
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    sitePort = (site.address() as AddressInfo).port;

    rt = await startRuntime({
      URL_FETCH_ALLOWLIST: `127.0.0.1:${sitePort}`,
      // Two conversions happen before the last test, which needs the limit reached.
      FREE_PER_HOUR: '2',
      FREE_PER_DAY: '1000',
      // The 2,700-character article goes through the queue and the worker (answered 200 when it is done within the
      // wait window, else 202 and the player polls).
      SYNC_MAX_CHARS: '1000',
    });
    // Its own front on the same manifest, to log what the player asked for.
    apiServer = createFront({
      manifest: narrationManifest,
      handlers: await loadHandlers(narrationManifest),
      host: '127.0.0.1',
      port: 0,
      trustProxy: false,
      log: (line) => apiLog.push(line),
    });
    api = await listen(apiServer, '127.0.0.1', 0);
    audio = await convertText();

    browser = await launchChromium(join(files.path, 'profile'));
  });
  afterAll(async () => {
    await browser?.close();
    await rt?.stop();
    for (const s of [apiServer, site]) {
      s?.closeAllConnections();
      await new Promise((r) => s?.close(r));
    }
    files.cleanup();
    tripwire?.uninstall();
  });
  afterEach(async () => {
    while (pages.length) await pages.pop()!.close();
  });
}
