// Both services' pages on a 390 px phone, in headless Chromium against the real local runtime (loopback only; every
// other request is blocked): an error shown after a tap is inside the screen (scrolled into view; it sits in a
// role="alert" region, so it is announced); a 2,000-character paste is not cut — the page says which way it will go
// before sending and narrates it whole through POST /convert/text; a 20,000-character paste starts playing while its
// job is still being made (POST /convert/text with Prefer: respond-async, the player on the job's segments). The
// speech engine is the Polly stand-in (test/helpers/polly-stand-in.ts), so the test can hold the long job's later
// chunks until it has seen the audio play.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { launchChromium, loopbackPage } from '../helpers/browser';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { startPollyStandIn, type PollyStandIn } from '../helpers/polly-stand-in';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(180_000);

const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const FIRST = 'Primera parte de la prueba larga.';
/** A text of exactly `n` characters made of real Spanish prose, starting with FIRST. */
const prose = (n: number) => {
  const base = readFileSync(join(__dirname, '..', 'fixtures', 'texto-2000.txt'), 'utf8')
    .replace(/\s+/g, ' ')
    .trim();
  let out = FIRST;
  while (out.length < n) out += ` ${base}`;
  return (
    out
      .slice(0, n - 1)
      .trimEnd()
      .padEnd(n - 1, 'a') + '.'
  );
};

const files = tempDir('site-phone-');
let tripwire: Tripwire;
let polly: PollyStandIn;
let rt: TestRuntime;
let browser: Browser;
const blocked: string[] = [];
/** While set, Polly requests for anything but the long text's first chunk wait: its job cannot finish. */
let holding = false;
let release: () => void = () => undefined;
const held = new Promise<void>((r) => (release = r));

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  // Our Polly adapter sends at most 3,000 characters a request, and the site narrates MP3: the canned speech is made
  // for that (the default, 6,000 characters in MP3 and Ogg, took ~13 s of this file's start; an Ogg request would
  // still be answered, its copy made then).
  polly = await startPollyStandIn({
    speech: 'canned',
    cannedChars: 3000,
    cannedFormats: ['mp3'],
    hold: (_n, body) => (holding && !String(body.Text).includes('Primera parte') ? held : undefined),
  });
  rt = await startRuntime({
    SPEECH_ENGINE: 'polly',
    AWS_ENDPOINT_URL_POLLY: polly.endpoint,
    FREE_PER_HOUR: '20',
    FREE_PER_DAY: '100',
  });
  browser = await launchChromium(join(files.path, 'profile'));
});

afterAll(async () => {
  release();
  await browser?.close();
  await rt?.stop();
  await polly?.stop();
  files.cleanup();
  tripwire?.uninstall();
  expect(blocked).toEqual([]);
  expect(tripwire.attempts).toEqual([]);
});

async function phonePage(url: string): Promise<Page> {
  const page = await loopbackPage(browser, blocked);
  await page.setViewport(PHONE);
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

/** True when the element's box lies inside the visible screen (and it has one). Runs in the page. */
const IN_VIEW = (sel: string) => `(() => { const e = document.querySelector(${JSON.stringify(sel)});
  if (!e || !e.textContent.trim()) return false; const r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1; })()`; // (1 px: subpixel layout)

/** Taps `button` (scrolled to the top of the screen first, as a reader would have it) and waits for `error`'s text. */
async function tapAndSee(page: Page, button: string, error: string): Promise<string> {
  await page.evaluate(`document.querySelector(${JSON.stringify(button)}).scrollIntoView({ block: 'start' })`);
  await page.tap(button);
  await page.waitForFunction(`document.querySelector(${JSON.stringify(error)}).textContent.trim() !== ''`, {
    timeout: 20_000,
  });
  await page.waitForFunction(IN_VIEW(error), { timeout: 5_000 }).catch(async (err: unknown) => {
    const where =
      await page.evaluate(`(() => { const r = document.querySelector(${JSON.stringify(error)}).getBoundingClientRect();
      return JSON.stringify({ top: r.top, bottom: r.bottom, inner: window.innerHeight, y: window.scrollY }); })()`);
    throw new Error(`${error} is not on screen: ${String(where)} (${String(err)})`);
  });
  return (await page.evaluate(
    `document.querySelector(${JSON.stringify(error)}).textContent.replace(/\\s+/g, ' ').trim()`,
  )) as string;
}

describe('narration site at 390 px', () => {
  let page: Page;
  beforeAll(async () => {
    page = await phonePage(rt.url('/'));
    await page.waitForFunction(`document.querySelectorAll('#voz option').length > 1`, { timeout: 15_000 });
  });
  afterAll(() => page?.close());

  test('the in-view check itself: an alert below the screen is not in view (negative control)', async () => {
    await page.evaluate(`window.scrollTo(0, 0); document.querySelector('#lista-error').textContent = 'x'`);
    expect(await page.evaluate(IN_VIEW('#lista-error'))).toBe(false);
    await page.evaluate(`document.querySelector('#lista-error').textContent = ''`);
  });

  test.each([
    [
      'an address that is not one',
      '#forma-url button[type=submit]',
      '#error',
      'url',
      'esto no es una dirección',
    ],
    ['an empty text', '#forma-texto button[type=submit]', '#error', 'texto', ''],
    ['a waitlist e-mail that is not one', '#forma-lista button', '#lista-error', 'correo', 'ana@'],
    ['buying without payments configured', 'a.comprar[data-plan=pro]', '#precios-error', '', ''],
  ])(
    '%s: the error is on screen after the tap, and is an alert',
    async (_name, button, error, field, value) => {
      await page.evaluate(`document.querySelectorAll('.error').forEach((e) => (e.textContent = ''))`);
      if (field) await page.evaluate(`document.querySelector('#${field}').value = ${JSON.stringify(value)}`);
      const shown = await tapAndSee(page, button, error);
      expect(shown.length).toBeGreaterThan(10);
      expect(await page.evaluate(`document.querySelector('${error}').getAttribute('role')`)).toBe('alert');
    },
  );

  test('a 2,000-character paste: the limit and the way are stated before sending, then it is narrated whole', async () => {
    const text = prose(2000);
    await page.evaluate(`window.scrollTo(0, 0)`);
    await page.focus('#texto');
    await page.evaluate(`(() => { const t = document.querySelector('#texto'); t.value = '';
      t.dispatchEvent(new Event('input')); })()`);
    // A paste as the browser makes it: one insertText of the whole clipboard.
    await page.evaluate(`document.execCommand('insertText', false, ${JSON.stringify(text)})`);
    expect(await page.evaluate(`document.querySelector('#texto').value.length`)).toBe(2000);
    expect(await page.evaluate(`document.querySelector('#texto-cuenta').textContent`)).toMatch(
      /^2,000 caracteres: más de 500, así que se narra con tu cuota gratuita \(hasta 100,000\)/,
    );
    const sent = page.waitForRequest((r) => r.url().endsWith('/convert/text') && r.method() === 'POST');
    await page.tap('#forma-texto button[type=submit]');
    expect((JSON.parse((await sent).postData() ?? '{}') as { text: string }).text).toBe(text);
    await page.waitForSelector('#resultado:not([hidden]) voz-player', { timeout: 60_000 });
    expect(await page.evaluate(`document.querySelector('#texto-narrado').textContent.length`)).toBe(2000);
  });

  test('over 100,000 characters: said before anything is sent', async () => {
    const requests: string[] = [];
    const onRequest = (r: { url(): string }) => void requests.push(r.url());
    page.on('request', onRequest);
    await page.evaluate(`(() => { const t = document.querySelector('#texto'); t.value = 'a'.repeat(100001);
      t.dispatchEvent(new Event('input')); })()`);
    expect(await page.evaluate(`document.querySelector('#texto-cuenta').textContent`)).toMatch(
      /^100,001 caracteres: el máximo es 100,000/,
    );
    const shown = await tapAndSee(page, '#forma-texto button[type=submit]', '#error');
    expect(shown).toMatch(/^Tu texto tiene 100,001 caracteres; se pueden narrar hasta 100,000 a la vez\./);
    page.off('request', onRequest);
    expect(requests.filter((u) => /\/(convert|demo)\//.test(u))).toEqual([]);
  });

  test('a 20,000-character paste plays while its job is still being made', async () => {
    holding = true;
    await page.evaluate(`(() => { const t = document.querySelector('#texto'); t.value = ${JSON.stringify(prose(20_000))};
      t.dispatchEvent(new Event('input')); document.querySelector('#error').textContent = ''; })()`);
    const answered = page.waitForResponse((r) => r.url().endsWith('/convert/text'));
    await page.tap('#forma-texto button[type=submit]');
    const res = await answered;
    expect(res.status()).toBe(202);
    expect(res.headers()['preference-applied']).toBe('respond-async');
    const audioId = ((await res.json()) as { audio_id: string }).audio_id;
    const button = await page.waitForSelector('voz-player >>> [part=boton]', { timeout: 30_000 });
    await button!.tap();
    await page.waitForFunction(
      `(() => { const p = document.querySelector('voz-player'); if (!p) return false;
        const a = [...p.shadowRoot.querySelectorAll('audio')].find((e) => !e.paused);
        return !!a && !a.error && a.currentTime > 0.5; })()`,
      { timeout: 60_000, polling: 100 },
    );
    // Playing, and the job is not finished: its later chunks are still held.
    const status = await fetch(rt.url(`/audio/${audioId}`), { headers: { accept: 'application/json' } });
    expect(status.status).toBe(202);
    expect(((await status.json()) as { status: string }).status).toMatch(/^(queued|processing)$/);
    await page.evaluate(
      `document.querySelector('voz-player').shadowRoot.querySelectorAll('audio').forEach((a) => a.pause())`,
    );
    release();
    expect((await fetch(rt.url(`/audio/${audioId}`), { method: 'DELETE' })).status).toBe(204);
  });
});

describe('documents playground at 390 px', () => {
  test('a render the API refuses: the reason is on screen after the tap', async () => {
    const page = await phonePage(`${rt.documentsUrl!}/`);
    await page.waitForFunction(`!document.querySelector('#plantilla').disabled`, { timeout: 15_000 });
    // Own HTML without a paid key: 403 from the API, explained under the result.
    await page.tap('#pestana-propio');
    await page.evaluate(`(() => { document.querySelector('#html-propio').value = '<p>{{ x }}</p>';
      document.querySelector('#datos-propio').value = '{"x": 1}'; })()`);
    const shown = await tapAndSee(page, '#generar', '#error-resultado');
    expect(shown).toMatch(/^Tu plan no incluye esto/);
    await page.close();
  });
});
