// The embed player on a real 100,000-character narration (the contract's maximum) made by the local pipeline and
// worker, in real headless Chromium (loopback only): pressed while the job is still running, it must play real
// audio from the job's segments before the job finishes. (The hand-over between segments and to the whole file,
// highlighting, clicks and scrolling are test/e2e/embed-follow.test.ts, on a job whose landing the test controls;
// waiting here for the whole 100,000 characters would only add minutes.)
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { launchChromium, loopbackPage } from '../helpers/browser';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(300_000);

const PARAGRAPHS = (() => {
  const base = readFileSync(join(__dirname, '..', 'fixtures', 'texto-2000.txt'), 'utf8').trim();
  const out: string[] = [];
  for (let i = 1, n = 0; n < 100_000; i++) {
    for (const p of [`Capítulo ${i}.`, ...base.split(/\n\s*\n/)]) {
      out.push(p.replace(/\s+/g, ' ').trim());
      n += p.length + 1;
    }
  }
  return out;
})();
/** What the blog narrates: its article's text, whitespace collapsed, cut to the contract's 100,000 characters. */
const TEXT = [...PARAGRAPHS.join(' ')].slice(0, 100_000).join('').trim();

let tripwire: Tripwire;
let rt: TestRuntime;
let site: Server;
let sitePort: number;
let browser: Browser;
let audioId = '';
const files = tempDir('embed-long-');
const blocked: string[] = [];

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  // Answer 202 at once: the job must still be running when the reader presses play.
  rt = await startRuntime({ WAIT_WINDOW_S: '0' });
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    // The article holds exactly the narrated text (one <p>; whitespace as sent).
    const html = TEXT.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    res.end(`<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Libro</title></head><body>
<script src="${rt.narrationUrl}/embed.js" data-audio-id="${audioId}" data-follow="#libro" async></script>
<article id="libro"><p>${html}</p></article></body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as AddressInfo).port;
  browser = await launchChromium(join(files.path, 'profile'));
});

// Stopping the runtime lets the worker finish the 100,000 characters first: minutes on a loaded machine.
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  files.cleanup();
  tripwire?.uninstall();
}, 600_000);

const ROOT = `document.querySelector('voz-player').shadowRoot`;
const NOW = `(() => {
  const els = [...${ROOT}.querySelectorAll('audio')];
  const a = els.find((e) => !e.paused) || els[0];
  return { src: a.currentSrc, t: a.currentTime, paused: a.paused, error: a.error ? a.error.code : null,
    ready: a.readyState };
})()`;

test('a pending 100,000-character job plays from its segments before it finishes', async () => {
  expect(TEXT.length).toBe(100_000);
  const res = await postJson(rt.url('/convert/text'), { text: TEXT, voice: 'es-MX-Mia', fmt: 'mp3' });
  expect(res.status).toBe(202);
  audioId = ((await res.json()) as { audio_id: string }).audio_id;

  const page = await loopbackPage(browser, blocked);
  await page.goto(`http://127.0.0.1:${sitePort}/libro`);
  await (await page.waitForSelector('voz-player >>> [part=boton]'))!.click();
  await page.waitForFunction(
    `(() => { const n = ${NOW}; return !n.paused && !n.error && n.ready >= 2 && n.t > 0.5 && /\\/seg\\/\\d+\\.mp3/.test(n.src); })()`,
    { timeout: 120_000, polling: 100 },
  );
  // Still being made: GET /audio says pending.
  const pending = await fetch(rt.url(`/audio/${audioId}`), { headers: { accept: 'application/json' } });
  expect(pending.status).toBe(202);

  expect(blocked).toEqual([]);
  expect(tripwire.attempts).toEqual([]);
  await page.close();
});
