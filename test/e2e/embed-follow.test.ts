// The embed player on a job still being made, in real headless Chromium (test/helpers/browser.ts: loopback only,
// every other request aborted and recorded). A long job is fabricated through the real adapters
// (test/helpers/segmented-job.ts: espeak speech in MP3 segments in s3rver, the record in dynalite) and lands
// segment by segment while the page plays it: the player must start from the first segment while the job is still
// processing, cross into the next segment, move to the whole file once the job is done, highlight the sentence
// under the playhead in the page's own article (CSS Custom Highlight API), jump when a sentence is clicked and
// scroll to it when the reader asked to. Screenshots for docs/embed.md are written to docs/img/.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { awsDeps } from '../../lambdas/narration/deps';
import { launchChromium, loopbackPage } from '../helpers/browser';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { startRuntime, type TestRuntime } from '../helpers/runtime';
import { fabricateJob, type FabricatedJob } from '../helpers/segmented-job';

jest.setTimeout(180_000);

const DOCS_IMG = join(__dirname, '..', '..', 'docs', 'img');
const AUDIO_ID = 'follow0000000001';

const PARAGRAPHS = [
  'La sequía obliga a restringir el riego en toda la comarca. Los agricultores esperan lluvias en otoño. ' +
    'El embalse está al veinte por ciento de su capacidad.',
  'Las autoridades piden ahorrar agua en casa. Las duchas cortas ayudan mucho. ' +
    'Regar el jardín de noche evita que el agua se evapore.',
  'Los expertos recuerdan que no es la primera sequía. Hubo otra parecida hace diez años. ' +
    'Entonces se construyeron nuevas depuradoras.',
  'El gobierno estudia ayudas para el campo. Se conocerán la próxima semana. ' +
    'Mientras tanto, los pozos siguen bajando.',
];

/** The article as the blog renders it: the narrated text is its textContent with whitespace collapsed. */
const ARTICLE = `<article id="texto">
  <h2>Sequía en la comarca</h2>
  ${PARAGRAPHS.map((p) => `<p>\n    ${p}\n  </p>`).join('\n  ')}
</article>`;

let tripwire: Tripwire;
let rt: TestRuntime;
let api: string;
let site: Server;
let sitePort: number;
let browser: Browser;
let job: FabricatedJob;
let narrated: string;
const files = tempDir('embed-follow-');
const blocked: string[] = [];

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  site = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/articulo') {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Blog</title>
<style>body{font:18px/1.6 Georgia,serif;max-width:36em;margin:2em auto;padding:0 1em}</style></head><body>
<h1>Noticias del campo</h1>
<script src="${api}/embed.js" data-audio-id="${AUDIO_ID}"${url.searchParams.has('sin-seguir') ? '' : ' data-follow="#texto"'} data-title="Escuchar la noticia" async></script>
${ARTICLE}
<p style="height:1500px">Fin.</p>
</body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as AddressInfo).port;

  rt = await startRuntime({}, { startWorker: false, documents: false });
  api = rt.narrationUrl;

  // What the blog sent to POST /convert/text: the article's textContent (no entities in it), whitespace collapsed.
  narrated = ARTICLE.replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  job = await fabricateJob(AUDIO_ID, narrated, 2, files.path);
  browser = await launchChromium(join(files.path, 'profile'));
});

afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  files.cleanup();
  tripwire?.uninstall();
});

const ROOT = `document.querySelector('voz-player').shadowRoot`;
/** The player's clock: the element playing now (segments take turns in two elements) and what it plays. */
const NOW = `(() => {
  const els = [...${ROOT}.querySelectorAll('audio')];
  const a = els.find((e) => !e.paused) || els.find((e) => e.getAttribute('src')) || els[0];
  const hl = CSS.highlights.get('voz-frase'); const w = CSS.highlights.get('voz-palabra');
  return { src: a.currentSrc, t: a.currentTime, paused: a.paused, error: a.error ? a.error.code : null,
    ready: a.readyState, hl: hl ? [...hl][0].toString().replace(/\\s+/g, ' ') : null, word: w ? [...w][0].toString() : null, scrollY: window.scrollY,
    status: ${ROOT}.querySelector('[part=estado]').textContent };
})()`;
interface Now {
  src: string;
  t: number;
  paused: boolean;
  error: number | null;
  ready: number;
  hl: string | null;
  word: string | null;
  scrollY: number;
  status: string;
}
const now = (page: Page) => page.evaluate(NOW) as Promise<Now>;

/** The sentence the fabricated timings put at second t of the whole audio. */
function sentenceAt(t: number): string {
  let s = job.sentences[0]!;
  for (const x of job.sentences) if (x.start_s <= t) s = x;
  return narrated.slice(s.start, s.end);
}

test('plays a job from its first segment while it is made, then the whole file; follows and jumps in the text', async () => {
  expect(job.segments.length).toBeGreaterThanOrEqual(5);
  await job.create();
  await job.land(0);
  await job.land(1);

  const page = await loopbackPage(browser, blocked);
  await page.setViewport({ width: 900, height: 700 });
  await page.goto(`http://127.0.0.1:${sitePort}/articulo`);
  const play = await page.waitForSelector('voz-player >>> [part=boton]');
  await play!.click();

  // 1. Playing segment 0 for real while the job is still processing.
  await page.waitForFunction(
    `(() => { const n = ${NOW}; return !n.paused && !n.error && n.ready >= 2 && n.t > 0.5 && /\\/seg\\/0\\.mp3/.test(n.src); })()`,
    { timeout: 30_000, polling: 100 },
  );
  expect((await awsDeps().audio.get(AUDIO_ID))!.status).toBe('processing');
  // The page's article is exactly what was narrated (so offsets can be checked against it).
  expect(
    await page.evaluate(`document.getElementById('texto').textContent.replace(/\\s+/g, ' ').trim()`),
  ).toBe(narrated);
  expect((await now(page)).status).toBe('Escuchando mientras se prepara el resto del audio.');
  await page.screenshot({
    path: join(DOCS_IMG, 'embed-pendiente.png'),
    clip: { x: 0, y: 0, width: 900, height: 330 },
  });

  // 2. On into segment 1 (preloaded in the second element) without an error.
  await page.select('voz-player >>> [part=velocidad]', '2');
  await page.waitForFunction(
    `(() => { const n = ${NOW}; return !n.paused && !n.error && n.t > 0.2 && /\\/seg\\/1\\.mp3/.test(n.src); })()`,
    { timeout: 30_000, polling: 100 },
  );

  // 3. The rest lands and the job ends: at the next boundary the player moves to the whole file.
  for (let n = 2; n < job.segments.length; n++) await job.land(n);
  await job.finish();
  await page.waitForFunction(
    `(() => { const n = ${NOW}; return !n.paused && !n.error && n.src.includes('/audio/${AUDIO_ID}.mp3') && n.t > ${job.segments[1]!.start_s}; })()`,
    { timeout: 40_000, polling: 100 },
  );

  // 4. The sentence under the playhead is highlighted in the article (paused: a stable clock to compare).
  await page.waitForFunction(`CSS.highlights.has('voz-frase')`, { timeout: 15_000 });
  await (await page.$('voz-player >>> [part=boton]'))!.click();
  await page.waitForFunction(`${NOW}.paused`);
  // The highlight follows the playhead on the player's next frame: a pause just past a boundary may be read first.
  let n = await now(page);
  for (const settle = Date.now() + 2000; n.hl !== sentenceAt(n.t) && Date.now() < settle; n = await now(page))
    await new Promise((r) => setTimeout(r, 50));
  expect(n.hl).toBe(sentenceAt(n.t));
  // And the word, when the timings have words (here: a word or the gap between two).
  const word = job.words.find((w) => w.start_s <= n.t && n.t < w.end_s);
  expect(n.word).toBe(word ? narrated.slice(word.start, word.end) : null);

  // 5. A click on a sentence of the article jumps there (and plays); the highlight follows.
  const target = job.sentences[job.sentences.length - 2]!;
  const words = narrated.slice(target.start, target.end);
  const box = (await page.evaluate(`(() => {
    const w = document.createTreeWalker(document.getElementById('texto'), NodeFilter.SHOW_TEXT);
    for (let t; (t = w.nextNode()); ) {
      const i = t.data.indexOf(${JSON.stringify(words.slice(0, 20))});
      if (i >= 0) { const r = document.createRange(); r.setStart(t, i + 3); r.setEnd(t, i + 4);
        const b = r.getBoundingClientRect(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; }
    }
    return null; })()`)) as { x: number; y: number };
  expect(box).not.toBeNull();
  await page.mouse.click(box.x, box.y);
  await page.waitForFunction(`!${NOW}.paused`, { timeout: 10_000 });
  n = await now(page);
  expect(n.t).toBeGreaterThanOrEqual(target.start_s - 0.05);
  expect(n.t).toBeLessThan(target.start_s + 1.5);
  await page.waitForFunction(`${NOW}.hl === ${JSON.stringify(words)}`, { timeout: 5_000 });
  await page.screenshot({
    path: join(DOCS_IMG, 'embed-resaltado.png'),
    clip: { x: 0, y: 0, width: 900, height: 700 },
  });

  // 6. "Seguir el texto" on: jumping back to the first sentence from further down scrolls it into view.
  await page.evaluate(`window.scrollTo(0, 900)`);
  await page.evaluate(`${ROOT}.querySelector('[part=texto] input').click()`);
  const first = job.sentences[0]!;
  const seekTo = `(() => { const r = ${ROOT}; const s = r.querySelector('[part=posicion]');
    s.value = '${Math.floor(first.start_s)}'; s.dispatchEvent(new Event('input')); })()`;
  await page.evaluate(seekTo);
  await page.waitForFunction(`${NOW}.hl === ${JSON.stringify(narrated.slice(first.start, first.end))}`, {
    timeout: 5_000,
  });
  await page.waitForFunction(`window.scrollY < 600`, { timeout: 5_000 });

  // Keyboard: "Frase siguiente" moves the playhead to the next sentence.
  const before = (await now(page)).t;
  await page.focus('voz-player >>> [part=texto] [data-d="1"]').catch(async () => {
    await page.evaluate(`${ROOT}.querySelector('[part=texto] [data-d="1"]').focus()`);
  });
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    `${NOW}.hl === ${JSON.stringify(narrated.slice(job.sentences[1]!.start, job.sentences[1]!.end))}`,
    {
      timeout: 5_000,
    },
  );
  expect((await now(page)).t).toBeGreaterThan(before);

  // The live region is silent unless the page asks (data-live).
  expect(await page.evaluate(`${ROOT}.querySelector('[aria-live]').getAttribute('aria-live')`)).toBe('off');
  expect(blocked).toEqual([]);
  expect(tripwire.attempts).toEqual([]);
  await page.close();
});

test('data-follow set after the player was made, on <voz-player> or on the script tag, starts following; removed, stops', async () => {
  const page = await loopbackPage(browser, blocked);
  await page.setViewport({ width: 900, height: 700 });
  await page.goto(`http://127.0.0.1:${sitePort}/articulo?sin-seguir`);
  await (await page.waitForSelector('voz-player >>> [part=boton]'))!.click();
  await page.waitForFunction(`(() => { const n = ${NOW}; return !n.paused && n.t > 0.3; })()`, {
    timeout: 30_000,
    polling: 100,
  });
  await (await page.$('voz-player >>> [part=boton]'))!.click();
  await page.waitForFunction(`${NOW}.paused`);
  const textBarHidden = `${ROOT}.querySelector('[part=texto]').hidden`;
  // Made without data-follow: no highlight, no sentence buttons.
  expect((await now(page)).hl).toBeNull();
  expect(await page.evaluate(textBarHidden)).toBe(true);

  // 1. Set on the player's element: the sentence under the (paused) playhead is highlighted, the buttons show.
  await page.evaluate(`document.querySelector('voz-player').setAttribute('data-follow', '#texto')`);
  await page.waitForFunction(`${NOW}.hl !== null`, { timeout: 15_000 });
  const n = await now(page);
  expect(n.hl).toBe(sentenceAt(n.t));
  expect(await page.evaluate(textBarHidden)).toBe(false);

  // 2. Removed: the highlights go, the buttons hide, and a click in the article no longer moves the playhead.
  await page.evaluate(`document.querySelector('voz-player').removeAttribute('data-follow')`);
  await page.waitForFunction(`${NOW}.hl === null && ${textBarHidden}`, { timeout: 5_000 });
  const at = (await now(page)).t;
  await page.click('#texto p:last-of-type');
  expect((await now(page)).t).toBe(at);

  // 3. Set on the script tag this time (the tag the page wrote): following again, and a click jumps.
  await page.evaluate(`document.querySelector('script[data-audio-id]').dataset.follow = '#texto'`);
  await page.waitForFunction(`${NOW}.hl !== null`, { timeout: 5_000 });
  // The last paragraph holds the last three sentences: a click there jumps into one of them.
  await page.click('#texto p:last-of-type');
  await page.waitForFunction(`${NOW}.t >= ${job.sentences[job.sentences.length - 3]!.start_s}`, {
    timeout: 10_000,
  });
  expect(blocked).toEqual([]);
  await page.close();
});
