// GET /embed.js in a real browser: headless Chromium (from @sparticuz/chromium: a Chromium build shipped inside an
// npm package, so no apt step; driven by puppeteer-core, which needs no browser download) loads blog pages served
// from loopback that embed the player with one script tag from the local runtime. A real click must make the
// <audio> element play real audio (currentTime advancing, not paused, no media error): the negative controls
// (unknown id, corrupt audio) show that the same check fails when nothing plays.
// Network rule: Chromium resolves no names (--host-resolver-rules), sends anything not loopback to a dead proxy,
// and every request it makes is intercepted: non-loopback ones are aborted before they leave and recorded.
// Runs in about 30 s (one browser, one runtime, two narrations).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { EMBED_JS } from '../../lambdas/narration/widget/embed.generated';
import { awsDeps } from '../../lambdas/narration/deps';
import { loopbackPage } from '../helpers/browser';
import { probeSpentHour } from '../helpers/quota-window';
import { postJson } from '../helpers/runtime';
import { until } from '../helpers/until';
import {
  ARTICLE_TITLE,
  files,
  tripwire,
  api,
  sitePort,
  browser,
  audio,
  blocked,
  apiLog,
  pages,
  open,
  ROOT,
  state,
  waitForPlaying,
  waitForAlert,
  click,
  standUp,
} from './embed/stand';

jest.setTimeout(120_000);

standUp();

describe('data-audio-id: a click plays an existing audio', () => {
  test('the script is served to the page (compressed, cacheable) and the player renders inside a shadow root', async () => {
    const res = await fetch(`${api}/embed.js`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toBe(EMBED_JS);
    const again = await fetch(`${api}/embed.js`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);

    const page = await open(`/entrada?id=${audio.audio_id}`);
    const s = await state(page);
    expect(s).toMatchObject({ button: 'Reproducir', title: 'Escuchar el audio', t: 0, paused: true });
    expect(s.clock).toBe('0:00 / 0:00');
    // Right after the script tag, open shadow root, nothing leaked onto window.
    expect(
      await page.evaluate(`(() => { const h = document.querySelector('voz-player');
        return [h.previousElementSibling.tagName, h.shadowRoot.mode] })()`),
    ).toEqual(['SCRIPT', 'open']);
    expect(
      await page.evaluate(
        `Object.getOwnPropertyNames(window).filter((k) => k !== '__before' && !window.__before.includes(k))`,
      ),
    ).toEqual([]);
    // The blog's `button { background: red !important }` and `* { font-family: serif !important }` stay out.
    const look = (await page.evaluate(`(() => { const b = ${ROOT}.querySelector('[part=boton]');
      const c = getComputedStyle(b); const t = getComputedStyle(${ROOT}.querySelector('[part=titulo]'));
      return [c.backgroundColor, c.width, t.fontFamily, t.color] })()`)) as string[];
    expect(look[0]).toBe('rgb(11, 87, 208)');
    expect(look[1]).toBe('44px');
    expect(look[2]).toMatch(/^system-ui/);
    expect(look[3]).toBe('rgb(31, 35, 40)');
  });

  test("a host page with a strict CSP (no 'unsafe-inline', no hashes): the player is styled and plays, nothing refused", async () => {
    const page = await loopbackPage(browser, blocked);
    pages.push(page);
    await page.evaluateOnNewDocument(`window.__refused = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__refused.push(e.violatedDirective + ' ' + e.blockedURI));`);
    await page.goto(`http://127.0.0.1:${sitePort}/estricta?id=${audio.audio_id}`);
    await page.waitForSelector('voz-player >>> [part=boton]');
    const look = (await page.evaluate(`(() => { const r = ${ROOT};
      const c = getComputedStyle(r.querySelector('[part=boton]'));
      return { bg: c.backgroundColor, width: c.width, styles: r.querySelectorAll('style').length,
        adopted: r.adoptedStyleSheets.length, headStyles: document.querySelectorAll('style').length,
        marks: document.adoptedStyleSheets.map((s) => [...s.cssRules].map((x) => x.cssText).join('')).join('') };
    })()`)) as {
      bg: string;
      width: string;
      styles: number;
      adopted: number;
      headStyles: number;
      marks: string;
    };
    expect(look).toMatchObject({
      bg: 'rgb(11, 87, 208)',
      width: '44px',
      styles: 0,
      adopted: 1,
      headStyles: 0,
    });
    // The highlight colours (data-follow) sit in a cascade layer: the page's own ::highlight rules win.
    expect(look.marks).toMatch(/^@layer voz \{[^}]*::highlight\(voz-frase\)/);
    await click(page, 'boton');
    await waitForPlaying(page);
    expect(await page.evaluate('window.__refused')).toEqual([]);
  });

  test('where constructable style sheets are missing, the player falls back to a <style> element and is styled', async () => {
    const page = await loopbackPage(browser, blocked);
    pages.push(page);
    await page.evaluateOnNewDocument(
      `delete ShadowRoot.prototype.adoptedStyleSheets; delete Document.prototype.adoptedStyleSheets;`,
    );
    await page.goto(`http://127.0.0.1:${sitePort}/entrada?id=${audio.audio_id}`);
    await page.waitForSelector('voz-player >>> [part=boton]');
    const look = (await page.evaluate(`(() => { const r = ${ROOT};
      return [getComputedStyle(r.querySelector('[part=boton]')).width, r.querySelectorAll('style').length,
        'adoptedStyleSheets' in r] })()`)) as [string, number, boolean];
    expect(look).toEqual(['44px', 1, false]);
  });

  test('a click plays real audio: the media clock advances, the time, seek bar and button follow', async () => {
    const page = await open(`/entrada?id=${audio.audio_id}`);
    await click(page, 'boton');
    await waitForPlaying(page);
    const s = await state(page);
    expect(s.paused).toBe(false);
    expect(s.mediaError).toBeNull();
    expect(s.button).toBe('Pausar');
    expect(s.alert).toBe('');
    // The media's own duration is the API's duration_s (CBR MP3 frames).
    expect(Math.abs(s.duration - audio.duration_s)).toBeLessThan(0.1);
    expect(s.seekDisabled).toBe(false);
    expect(s.seekMax).toBe(Math.floor(s.duration));
    const total = `${Math.floor(audio.duration_s / 60)}:${String(Math.floor(audio.duration_s % 60)).padStart(2, '0')}`;
    expect(s.clock).toMatch(new RegExp(`^0:0\\d / ${total}$`));
    expect(s.seekText).toMatch(/^\d+ s de (\d+ min )?\d+ s$/);
  });

  test('keyboard: focus is visible; Space and Enter toggle; arrows seek 5 s; speed 0.75–2×', async () => {
    const page = await open(`/entrada?id=${audio.audio_id}`);
    await page.keyboard.press('Tab');
    const focus = (await page.evaluate(`(() => { const r = ${ROOT}; const f = r.activeElement;
      const c = getComputedStyle(f); return [f.getAttribute('part'), c.outlineStyle, c.outlineWidth] })()`)) as string[];
    expect(focus).toEqual(['boton', 'solid', '3px']);

    await page.keyboard.press('Enter');
    await waitForPlaying(page);
    await page.keyboard.press('Space');
    await page.waitForFunction(
      `${ROOT}.querySelector('[part=boton]').getAttribute('aria-label') === 'Reproducir'`,
    );
    expect((await state(page)).paused).toBe(true);

    const t0 = (await state(page)).t;
    await page.keyboard.press('ArrowRight');
    expect((await state(page)).t).toBeCloseTo(t0 + 5, 1);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect((await state(page)).t).toBeCloseTo(Math.max(0, t0 - 5), 1);

    // On the seek slider: arrows seek too, Space toggles playback.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(`${ROOT}.activeElement.getAttribute('part')`)).toBe('posicion');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect((await state(page)).t).toBeCloseTo(Math.max(0, t0 - 5) + 10, 1);
    await page.keyboard.press('Space');
    await page.waitForFunction(
      `${ROOT}.querySelector('[part=boton]').getAttribute('aria-label') === 'Pausar'`,
    );
    expect((await state(page)).paused).toBe(false);

    // Speed: the select's options run 0,75× … 2×, and choosing one sets the playback rate.
    expect(
      await page.evaluate(
        `[...${ROOT}.querySelectorAll('[part=velocidad] option')].map((o) => o.textContent)`,
      ),
    ).toEqual(['0,75×', '1×', '1,25×', '1,5×', '1,75×', '2×']);
    const speed = await page.waitForSelector('voz-player >>> [part=velocidad]');
    await speed!.select('1.5');
    expect((await state(page)).rate).toBe(1.5);
    await speed!.select('0.75');
    expect((await state(page)).rate).toBe(0.75);
    // A mouse-driven seek through the slider's input event.
    await page.evaluate(`(() => { const s = ${ROOT}.querySelector('[part=posicion]'); s.value = '2';
      s.dispatchEvent(new Event('input')); })()`);
    expect(Math.floor((await state(page)).t)).toBeGreaterThanOrEqual(2);
    await waitForPlaying(page);
  });
});

describe('a presigned URL that stops working mid-play', () => {
  test('the player asks the API for a fresh URL and carries on from the same point, no error shown', async () => {
    // Storage serves the first three quarters of the file and holds the request for the rest until 3 s have
    // played, then answers it 403 like an expired presigned URL. Later requests go through untouched.
    const storage: string[] = [];
    let cut = 0;
    let expiredAt = 0;
    let freshSeen: () => void = () => undefined;
    const fresh = new Promise<void>((resolve) => (freshSeen = resolve));
    apiLog.length = 0;
    const page: Page = await open(`/entrada?id=${audio.audio_id}`, async (req) => {
      if (!new URL(req.url()).searchParams.has('X-Amz-Signature')) return false;
      if (storage.length === 0) {
        const bytes = Buffer.from(await (await fetch(req.url())).arrayBuffer());
        cut = Math.floor((bytes.length * 3) / 4);
        storage.push('partial');
        await req.respond({
          status: 206,
          headers: { 'content-range': `bytes 0-${cut - 1}/${bytes.length}`, 'accept-ranges': 'bytes' },
          contentType: 'audio/mpeg',
          body: bytes.subarray(0, cut),
        });
        return true;
      }
      if (storage.length === 1) {
        storage.push(`held ${req.headers()['range']}`);
        await page.waitForFunction(`${ROOT}.querySelector('audio').currentTime > 3`, { timeout: 30_000 });
        expiredAt = (await state(page)).t;
        storage.push('expired');
        await req.respond({
          status: 403,
          contentType: 'application/xml',
          body: '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
        });
        return true;
      }
      storage.push('through');
      freshSeen();
      return false;
    });
    await click(page, 'boton');
    await Promise.race([
      fresh,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no request through a fresh URL; storage saw ${storage}`)), 30_000),
      ),
    ]);
    expect(storage.slice(0, 4)).toEqual(['partial', `held bytes=${cut}-`, 'expired', 'through']);
    expect(apiLog.filter((l) => l.startsWith('GET /audio/')).length).toBe(2);
    // Resumed where it was, not from the start.
    expect((await state(page)).t).toBeGreaterThanOrEqual(expiredAt - 0.25);
    // Jump to the last seconds: those bytes exist only behind the fresh URL.
    const near = Math.floor(audio.duration_s) - 3;
    await page.evaluate(`(() => { const s = ${ROOT}.querySelector('[part=posicion]'); s.value = '${near}';
      s.dispatchEvent(new Event('input')); })()`);
    await page.waitForFunction(
      `(() => { const a = ${ROOT}.querySelector('audio');
        return !a.paused && !a.error && a.currentTime > ${near + 0.5}; })()`,
      { timeout: 30_000, polling: 100 },
    );
    expect(await state(page)).toMatchObject({ alert: '', mediaError: null, button: 'Pausar' });
  });
});

describe('negative controls: the same checks fail when no audio plays', () => {
  test('an unknown audio id: no playback, a Spanish error with the API detail', async () => {
    const page = await open('/entrada?id=noexiste123');
    await click(page, 'boton');
    await waitForAlert(page);
    const s = await state(page);
    expect(s.alert).toMatch(/^Este audio no existe o ya caducó\./);
    expect(s.alert).toContain('Detalle: No se encontró el audio.');
    expect(s.detailLang).toBe('');
    expect(s.t).toBe(0);
    expect(s.button).toBe('Reproducir');
    await expect(waitForPlaying(page, 2000)).rejects.toThrow(/Waiting failed|timeout/i);
  });

  test('an audio whose bytes are not audio: the browser fails to decode it, the player says so', async () => {
    const deps = awsDeps();
    const garbage = join(files.path, 'roto.mp3');
    writeFileSync(garbage, Buffer.from('esto no es un mp3 '.repeat(4000)));
    const now = new Date();
    await deps.store.putAudioFile('roto1', 'mp3', garbage);
    await deps.audio.create({
      audioId: 'roto1',
      status: 'done',
      voice: 'es-MX-Mia',
      fmt: 'mp3',
      chars: 100,
      plan: 'free',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + 3600,
      durationS: 30,
      bytes: 72_000,
      progress: 1,
    });
    const page = await open('/entrada?id=roto1');
    await click(page, 'boton');
    await waitForAlert(page);
    const s = await state(page);
    expect(s.alert).toBe('No se pudo reproducir el audio. Pulsa reproducir para intentarlo de nuevo.');
    expect(s.mediaError).not.toBeNull();
    expect(s.t).toBe(0);
    await expect(waitForPlaying(page, 2000)).rejects.toThrow(/Waiting failed|timeout/i);
  });
});

describe('a pending narration: progress while it is made, then playback', () => {
  test('queued → 40 % → done plays, with the progress bar announced; reduced motion stops its animation', async () => {
    const deps = awsDeps();
    const now = new Date();
    // A job no worker will pick up (never enqueued): it stays pending until this test moves it along.
    await deps.audio.create({
      audioId: 'pendiente1',
      status: 'queued',
      voice: 'es-MX-Mia',
      fmt: 'mp3',
      chars: 300,
      plan: 'free',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + 3600,
      progress: 0,
    });
    const page = await open('/entrada?id=pendiente1');
    await click(page, 'boton');
    await page.waitForFunction(`${ROOT}.querySelector('[part=estado]').textContent.startsWith('En cola')`);
    let s = await state(page);
    expect(s).toMatchObject({
      busy: 'true',
      progressHidden: false,
      progressNow: null,
      seekHidden: true,
      paused: true,
    });
    const animation = `getComputedStyle(${ROOT}.querySelector('[part=progreso] i')).animationName`;
    expect(await page.evaluate(animation)).not.toBe('none');
    await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
    expect(await page.evaluate(animation)).toBe('none');

    await deps.audio.claim('pendiente1', 1);
    await deps.audio.setProgress('pendiente1', 0.4);
    await page.waitForFunction(`${ROOT}.querySelector('[part=estado]').textContent.includes('40')`, {
      timeout: 15_000,
    });
    s = await state(page);
    expect(s.status).toBe('Preparando el audio… 40 %');
    expect(s.progressNow).toBe('40');

    // The job finishes with real audio: the player picks it up on its next poll and plays it.
    const mp3 = join(files.path, 'listo.mp3');
    const ready = await fetch(`${api}/audio/${audio.audio_id}`);
    writeFileSync(mp3, Buffer.from(await ready.arrayBuffer()));
    await deps.store.putAudioFile('pendiente1', 'mp3', mp3);
    await deps.audio.complete('pendiente1', { durationS: audio.duration_s, bytes: 1000 });
    await waitForPlaying(page);
    s = await state(page);
    expect(s).toMatchObject({
      busy: null,
      progressHidden: true,
      seekHidden: false,
      status: '',
      alert: '',
      button: 'Pausar',
    });
  });
});

describe('data-narrate="page": the player narrates the page it is on', () => {
  test('a click sends the page address to POST /convert/url, waits for the queued job, plays the article', async () => {
    apiLog.length = 0;
    const page = await open('/sociedad/sequia.html');
    expect((await state(page)).title).toBe('Escuchar esta página');
    await click(page, 'boton');
    await waitForPlaying(page, 60_000);
    const s = await state(page);
    // The API fetched and read this very page: its article's title comes back.
    expect(s.title).toBe(ARTICLE_TITLE);
    expect(s.mediaError).toBeNull();
    // A form-encoded POST is a CORS simple request: no preflight. Queued article: 200 once done within the wait
    // window (202 and polling past it).
    const log = apiLog.filter((l) => !l.startsWith('GET /embed.js')).map((l) => l.replace(/ \d+ ms$/, ''));
    expect(log).toContainEqual(expect.stringMatching(/^POST \/convert\/url → 20[02]$/));
    expect(apiLog.filter((l) => l.startsWith('OPTIONS'))).toEqual([]);
    // What plays: the whole file when the job was done by the time the player asked; else (a loaded machine: the
    // job outlasted the wait window) the job's segments as they land, each a few seconds of audio, and the whole
    // file only after them. Then the article's length is the finished job's, asked of the API.
    const playing = (await page.evaluate(`(() => { const els = [...${ROOT}.querySelectorAll('audio')];
      const a = els.find((e) => !e.paused) || els[0]; return { src: a.currentSrc, duration: a.duration }; })()`)) as {
      src: string;
      duration: number;
    };
    const segment = /\/audio\/([\w-]+)\/seg\/\d+\.mp3/.exec(playing.src);
    if (segment) {
      expect(s.status).toBe('Escuchando mientras se prepara el resto del audio.');
      expect(log).toContainEqual(`GET /audio/${segment[1]}/stream.m3u8 → 200`);
      const done = await until(
        'the article narrated',
        async () => {
          const res = await fetch(`${api}/audio/${segment[1]}`, { headers: { accept: 'application/json' } });
          return res.status === 200 ? ((await res.json()) as { duration_s: number }) : undefined;
        },
        60_000,
        undefined,
        1_000,
      );
      expect(done.duration_s).toBeGreaterThan(60);
    } else {
      expect(log).toContainEqual(expect.stringMatching(/^GET \/audio\/[\w-]+ → 200$/));
      expect(playing.duration).toBeGreaterThan(60);
    }
  }, 180_000);

  test('a page without an article: a Spanish message with the reason, nothing charged', async () => {
    const page = await open('/app');
    await click(page, 'boton');
    await waitForAlert(page);
    const s = await state(page);
    // The specific reason, in Spanish (the player asks for it): the page builds its text with JavaScript.
    expect(s.alert).toMatch(
      /^No se pudo narrar esta página\.\s*Detalle: La página arma su contenido con JavaScript/,
    );
    expect(s.t).toBe(0);
  });

  // Last: it uses up the free tier of 127.0.0.1 (FREE_PER_HOUR=2 here) itself, whatever earlier tests spent.
  test('the free-tier limit: a Spanish message saying when to retry, and the API detail', async () => {
    // The page's conversion must be refused in the hour the API calls spent (probeSpentHour: a turn of the hour
    // between them, and a second round). Each round another voice: the article in Lucía's voice was narrated above,
    // and a narrated one is reused, uncharged (as a repeated text would be: docs/reuse.md).
    const opened: Page[] = [];
    await probeSpentHour(
      2,
      (i, round) => postJson(`${api}/convert/text`, { text: `Hola ${round}-${i}.` }),
      async (round) => {
        const page = await open(`/sociedad/sequia.html?voz=${['es-MX-Mia', 'es-MX-Andres'][round]}`);
        opened.push(page);
        const answer = new Promise<Response>((resolve) =>
          page.on('response', (r) => {
            if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/convert/url')
              resolve(new Response(null, { status: r.status(), headers: r.headers() }));
          }),
        );
        await click(page, 'boton');
        return answer;
      },
    );
    const page = opened.at(-1)!;
    await waitForAlert(page);
    const s = await state(page);
    expect(s.alert).toMatch(
      /^Se alcanzó el límite de narraciones gratuitas\. Podrás intentarlo de nuevo en \d+ (s|min)\./,
    );
    expect(s.alert).toContain('Detalle: Llegaste al límite del plan gratuito');
    expect(s.detailLang).toBe('');
    expect(s.button).toBe('Reproducir');
    expect(s.busy).toBeNull();
  });
});

test('network rule: the browser reached only loopback, and this process connected nowhere else', () => {
  // The article fixtures carry a third-party ad script: refused inside the browser, never sent. Nothing the
  // player itself asked for was refused.
  expect([...new Set(blocked.map((u) => new URL(u).hostname))]).toEqual(['ads.example-adnetwork.com']);
  expect(tripwire.attempts).toEqual([]);
});
