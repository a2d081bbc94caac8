// The embed player on a real 100,000-character narration (the contract's maximum) made by the local pipeline and
// worker, in real headless Chromium (loopback only): pressed while the job is still running, it must play real
// audio from the job's segments before the job finishes. (The hand-over between segments and to the whole file,
// highlighting, clicks and scrolling are test/e2e/embed-follow.test.ts, on a job whose landing the test controls;
// waiting here for the whole 100,000 characters would only add minutes.) Also: a page that has its own address
// narrated (data-narrate="page", POST /convert/url answered 202) shows the article's title while it plays the
// pending job's segments. Each job is deleted (DELETE /audio/{id}, the owner's own request) once its test has seen
// what it needs: the worker stops at its next step, so tearing down does not wait for minutes of unneeded work.
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
/** A long article the player has narrated by its address: long enough to be pending for a while. */
const ARTICLE_TITLE = 'Crónica de la sequía en la comarca';
const ARTICLE = (() => {
  const ps: string[] = [];
  for (let i = 0, n = 0; n < 60_000; i++) {
    ps.push(PARAGRAPHS[i]!);
    n += PARAGRAPHS[i]!.length + 1;
  }
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>${ARTICLE_TITLE}</title></head><body>
<article><h1>${ARTICLE_TITLE}</h1>${ps.map((p) => `<p>${esc(p)}</p>`).join('\n')}</article>
<script src="__API__/embed.js" data-narrate="page" async></script></body></html>`;
})();

let tripwire: Tripwire;
let rt: TestRuntime;
let site: Server;
let sitePort: number;
let browser: Browser;
let audioId = '';
/** Jobs still to delete when the tests end early. */
const jobs = new Set<string>();
const files = tempDir('embed-long-');
const blocked: string[] = [];

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (req.url === '/articulo') return res.end(ARTICLE.replace('__API__', rt.narrationUrl));
    // The article holds exactly the narrated text (one <p>; whitespace as sent).
    const html = TEXT.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    res.end(`<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Libro</title></head><body>
<script src="${rt.narrationUrl}/embed.js" data-audio-id="${audioId}" data-follow="#libro" async></script>
<article id="libro"><p>${html}</p></article></body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as AddressInfo).port;
  // Answer 202 at once: the job must still be running when the reader presses play. The API may fetch this
  // site's exact address and port (narrate mode), nothing else on loopback.
  rt = await startRuntime(
    { WAIT_WINDOW_S: '0', URL_FETCH_ALLOWLIST: `127.0.0.1:${sitePort}` },
    { documents: false },
  );
  browser = await launchChromium(join(files.path, 'profile'));
});

/** Deletes a job as its owner (this address): its worker stops at its next step. */
async function deleteJob(id: string): Promise<number> {
  const res = await fetch(rt.url(`/audio/${id}`), { method: 'DELETE' });
  jobs.delete(id);
  return res.status;
}

// Stopping the runtime waits for the worker's jobs in progress: deleted, they end at their next step.
afterAll(async () => {
  await browser?.close();
  if (rt) for (const id of [...jobs]) await deleteJob(id).catch(() => undefined);
  await rt?.stop();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  files.cleanup();
  tripwire?.uninstall();
}, 120_000);

const ROOT = `document.querySelector('voz-player').shadowRoot`;
const NOW = `(() => {
  const els = [...${ROOT}.querySelectorAll('audio')];
  const a = els.find((e) => !e.paused) || els[0];
  return { src: a.currentSrc, t: a.currentTime, paused: a.paused, error: a.error ? a.error.code : null,
    ready: a.readyState };
})()`;

const PLAYING_SEGMENT = `(() => { const n = ${NOW}; return !n.paused && !n.error && n.ready >= 2 && n.t > 0.5 && /\\/seg\\/\\d+\\.mp3/.test(n.src); })()`;

test('narrate mode: the 202 of POST /convert/url plays from segments with the article title shown', async () => {
  const page = await loopbackPage(browser, blocked);
  let id = '';
  page.on('response', (r) => {
    if (r.url().endsWith('/convert/url') && r.request().method() === 'POST')
      void r.json().then((b: { audio_id: string }) => {
        id = b.audio_id;
        jobs.add(id);
      });
  });
  await page.goto(`http://127.0.0.1:${sitePort}/articulo`);
  await (await page.waitForSelector('voz-player >>> [part=boton]'))!.click();
  await page.waitForFunction(PLAYING_SEGMENT, { timeout: 120_000, polling: 100 });
  expect(await page.evaluate(`${ROOT}.querySelector('[part=titulo]').textContent`)).toBe(ARTICLE_TITLE);
  // Still being made (the player is on the segments path, not the whole file).
  const pending = await fetch(rt.url(`/audio/${id}`), { headers: { accept: 'application/json' } });
  expect(pending.status).toBe(202);
  expect(((await pending.json()) as { title?: string }).title).toBe(ARTICLE_TITLE);
  await page.close();
  expect(await deleteJob(id)).toBe(204);
  expect(blocked).toEqual([]);
});

test('a pending 100,000-character job plays from its segments before it finishes', async () => {
  expect(TEXT.length).toBe(100_000);
  const res = await postJson(rt.url('/convert/text'), { text: TEXT, voice: 'es-MX-Mia', fmt: 'mp3' });
  expect(res.status).toBe(202);
  audioId = ((await res.json()) as { audio_id: string }).audio_id;
  jobs.add(audioId);

  const page = await loopbackPage(browser, blocked);
  await page.goto(`http://127.0.0.1:${sitePort}/libro`);
  await (await page.waitForSelector('voz-player >>> [part=boton]'))!.click();
  await page.waitForFunction(PLAYING_SEGMENT, { timeout: 120_000, polling: 100 });
  // Still being made: GET /audio says pending.
  const pending = await fetch(rt.url(`/audio/${audioId}`), { headers: { accept: 'application/json' } });
  expect(pending.status).toBe(202);

  expect(blocked).toEqual([]);
  expect(tripwire.attempts).toEqual([]);
  await page.close();
  expect(await deleteJob(audioId)).toBe(204);
});
