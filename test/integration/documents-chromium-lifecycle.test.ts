// The renderer's browser lifecycle with real Chromium: a runaway document hits the timeout (400) and the next render
// succeeds on a fresh browser; renders caught behind it are retried; a browser killed between or during renders is
// replaced; a second death is a 500-class RenderCrashError; the browser is replaced after N renders; pooled pages
// never mix documents. No network at all.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as puppeteerCore from 'puppeteer-core';
import type { Page } from 'puppeteer-core';
import { Renderer } from '../../lambdas/documents/render/chromium';
import { RenderCrashError, RenderTimeoutError } from '../../lambdas/documents/render/errors';
import { toHttpError } from '../../lambdas/shared/http/errors';
import { pdftotext, requirePdftotext } from '../helpers/pdftotext';

jest.setTimeout(90_000);

// Tiny and pure CSS, yet it takes Chromium minutes to print (measured > 120 s): blur and shadows on 200 big boxes.
const RUNAWAY =
  '<style>div{filter:blur(40px) drop-shadow(0 0 30px red);width:2000px;height:2000px;' +
  'background:repeating-radial-gradient(red,blue 3px)}</style>' +
  '<div></div>'.repeat(200);

let dir: string;
const renderers: Renderer[] = [];
function renderer(options: ConstructorParameters<typeof Renderer>[0]): Renderer {
  const r = new Renderer(options);
  renderers.push(r);
  return r;
}

beforeAll(() => {
  requirePdftotext();
  dir = mkdtempSync(join(tmpdir(), 'documents-lifecycle-'));
});
afterAll(async () => {
  await Promise.all(renderers.map((r) => r.close()));
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function text(pdf: Buffer): string {
  const file = join(dir, `l-${++n}.pdf`);
  writeFileSync(file, pdf);
  return pdftotext(file);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// CdpPage (the class of every page puppeteer opens over CDP) is exported at run time, not in the types.
const pagePrototype = (puppeteerCore as unknown as { CdpPage: { prototype: Page } }).CdpPage.prototype;
/**
 * Resolves when the renderer next starts printing a page (puppeteer's Page.pdf is called): from then on the runaway
 * holds the browser's (single-process) renderer, so a kill or a second render lands mid-render on any machine speed.
 */
function nextPrint(): Promise<void> {
  const original = pagePrototype.pdf;
  return new Promise((resolve) => {
    const spy = jest.spyOn(pagePrototype, 'pdf').mockImplementation(function (
      this: Page,
      ...args: Parameters<Page['pdf']>
    ) {
      spy.mockRestore();
      resolve();
      return original.apply(this, args);
    });
  });
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('timeouts', () => {
  it('a runaway document fails with a 400 RenderTimeoutError and the next render succeeds', async () => {
    // Only the runaway gets the short limit: at CI's load (ci55, ~10) an ordinary first render took over 1.5 s.
    const r = renderer({});
    expect(text(await r.renderPdf('<p>Antes</p>'))).toContain('Antes');
    const firstPid = r.stats().browserPid!;
    const err = await r.renderPdf(RUNAWAY, { timeoutMs: 1_500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderTimeoutError);
    expect(toHttpError(err)?.statusCode).toBe(400);
    expect((err as RenderTimeoutError).detail).toMatch(/did not finish rendering within 1\.5 s/);
    expect(text(await r.renderPdf('<p>Después ñ</p>'))).toContain('Después ñ');
    expect(r.stats()).toMatchObject({ timeouts: 1, launches: 2, crashes: 0 });
    expect(r.stats().browserPid).not.toBe(firstPid);
    await waitFor(() => !alive(firstPid)); // the wedged browser was killed, not leaked
  });

  it('a render caught behind a runaway on the same browser is retried on the next one and succeeds', async () => {
    const r = renderer({ renderTimeoutMs: 20_000, poolSize: 2 });
    await r.renderPdf('<p>calentar</p>');
    const printing = nextPrint();
    const runaway = r.renderPdf(RUNAWAY, { timeoutMs: 1_500 }).catch((e: unknown) => e);
    await printing; // the runaway holds the (single-process) renderer now
    const bystander = r.renderPdf('<p>Inocente</p>');
    expect(await runaway).toBeInstanceOf(RenderTimeoutError);
    expect(text(await bystander)).toContain('Inocente');
    expect(r.stats()).toMatchObject({ timeouts: 1, launches: 2 });
  });
});

describe('crashes', () => {
  it('a browser killed between renders is replaced by the next render', async () => {
    const r = renderer({});
    await r.renderPdf('<p>uno</p>');
    const proc = r.browserProcess()!;
    const pid = proc.pid!;
    proc.kill('SIGKILL');
    await waitFor(() => r.stats().crashes === 1);
    expect(text(await r.renderPdf('<p>dos</p>'))).toContain('dos');
    expect(r.stats()).toMatchObject({ launches: 2, crashes: 1 });
    expect(r.stats().browserPid).not.toBe(pid);
  });

  it('a render in flight when the browser dies is retried once on a fresh browser', async () => {
    const r = renderer({});
    await r.renderPdf('<p>calentar</p>');
    // The kill lands while the runaway prints; the retry runs it again (and it times out).
    const printing = nextPrint();
    const pending = r.renderPdf(RUNAWAY, { timeoutMs: 2_500 }).catch((e: unknown) => e);
    await printing;
    r.browserProcess()!.kill('SIGKILL');
    expect(await pending).toBeInstanceOf(RenderTimeoutError);
    expect(r.stats()).toMatchObject({ launches: 2, crashes: 1, timeouts: 1 });
  });

  it('a second death during the same render is a RenderCrashError (500, not a domain error)', async () => {
    const r = renderer({});
    await r.renderPdf('<p>calentar</p>');
    const firstPid = r.stats().browserPid!;
    let printing = nextPrint();
    const pending = r.renderPdf(RUNAWAY, { timeoutMs: 30_000 }).catch((e: unknown) => e);
    await printing;
    printing = nextPrint(); // the retry, on the fresh browser
    r.browserProcess()!.kill('SIGKILL');
    await printing;
    expect(r.stats().browserPid).not.toBe(firstPid);
    r.browserProcess()!.kill('SIGKILL');
    const err = await pending;
    expect(err).toBeInstanceOf(RenderCrashError);
    expect(toHttpError(err)).toBeUndefined();
    expect(text(await r.renderPdf('<p>sigue</p>'))).toContain('sigue');
  });

  it('a browser that cannot start is a RenderCrashError naming the cause', async () => {
    const r = renderer({ executablePath: join(dir, 'no-such-chromium') });
    const err = await r.renderPdf('<p>x</p>').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderCrashError);
    expect((err as Error).message).toMatch(/Chromium did not start/);
  });

  describe('a browser that exits as it starts (its first CDP call gets "Target closed")', () => {
    /**
     * A launcher (as CHROMIUM_LAUNCHER, lib/local/chromium-with-parent.sh's role) that exits before Chromium starts
     * the first `dies` times it is run, then runs the real binary. Returns how many times it ran.
     */
    function dyingLauncher(dies: number): () => number {
      const runs = join(dir, `runs-${++n}`);
      const script = join(dir, `launcher-${n}.sh`);
      writeFileSync(
        script,
        `#!/bin/sh\necho x >> '${runs}'\n` +
          `[ "$(wc -l < '${runs}')" -le ${dies} ] && exit 1\nexec "$CHROMIUM_EXECUTABLE" "$@"\n`,
        { mode: 0o755 },
      );
      process.env.CHROMIUM_LAUNCHER = script;
      return () => (existsSync(runs) ? readFileSync(runs, 'utf8').split('\n').length - 1 : 0);
    }
    afterEach(() => {
      delete process.env.CHROMIUM_LAUNCHER;
    });

    it('is started again, once, and the render succeeds', async () => {
      const runs = dyingLauncher(1);
      const r = renderer({});
      expect(text(await r.renderPdf('<p>Segundo intento</p>'))).toContain('Segundo intento');
      expect(runs()).toBe(2);
      expect(r.stats()).toMatchObject({ launches: 1, crashes: 0 });
    });

    it('twice in a row is a RenderCrashError (500) naming the cause', async () => {
      const runs = dyingLauncher(2);
      const r = renderer({});
      const err = await r.renderPdf('<p>x</p>').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RenderCrashError);
      expect((err as Error).message).toMatch(/Chromium did not start: .*Target closed/);
      expect(toHttpError(err)).toBeUndefined();
      expect(runs()).toBe(2);
      // Nothing is left stuck: the next render starts a browser (the launcher's third run) and succeeds.
      expect(text(await r.renderPdf('<p>Después</p>'))).toContain('Después');
      expect(runs()).toBe(3);
    });
  });

  it('missing fonts are a RenderCrashError naming DOCUMENTS_FONTS_DIR', async () => {
    const r = renderer({ fontsDir: dir });
    const err = await r.renderPdf('<p>x</p>').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderCrashError);
    expect((err as Error).message).toMatch(/DOCUMENTS_FONTS_DIR/);
  });
});

describe('reuse', () => {
  it('starts a fresh browser after maxRendersPerBrowser renders and closes the old one', async () => {
    const r = renderer({ maxRendersPerBrowser: 3 });
    const pids: number[] = [];
    for (let i = 1; i <= 7; i++) {
      expect(text(await r.renderPdf(`<p>Render ${i}</p>`))).toContain(`Render ${i}`);
      pids.push(r.stats().browserPid ?? -1);
      // A browser is recycled once its successor is ready (never making a render wait for a start): let it get ready.
      await waitFor(() => r.stats().spareReady === true);
    }
    // Renders 1-3 on the first browser, 4-6 on the second, 7 on the third (a retired browser closes when idle); each
    // browser's successor is started ahead (here at its first render), so a 4th is already waiting.
    const distinct = [...new Set(pids.filter((p) => p > 0))];
    expect(distinct).toHaveLength(3);
    await waitFor(() => r.stats().launches === 4); // the spare finishes starting in the background
    expect(r.stats()).toMatchObject({ renders: 7, crashes: 0 });
    const first = distinct[0]!;
    await waitFor(() => !alive(first));
  });

  it('the next browser is started ahead and takes over at the recycle without a new start', async () => {
    // 20 renders per browser: the successor starts at render 12 (8 ahead).
    const r = renderer({ maxRendersPerBrowser: 20 });
    for (let i = 1; i <= 11; i++) await r.renderPdf(`<p>Render ${i}</p>`);
    expect(r.stats().launches).toBe(1);
    await r.renderPdf('<p>Render 12</p>');
    await waitFor(() => r.stats().launches === 2 && r.stats().spareReady === true); // started in the background
    const first = r.stats().browserPid;
    for (let i = 13; i <= 20; i++) await r.renderPdf(`<p>Render ${i}</p>`);
    expect(text(await r.renderPdf('<p>Render 21</p>'))).toContain('Render 21');
    // On the spare: a different browser, and no browser was started for this render.
    expect(r.stats().browserPid).not.toBe(first);
    expect(r.stats()).toMatchObject({ launches: 2, renders: 21, crashes: 0 });
  });

  it('a browser past its renders serves on while its successor is still starting: no render waits for a start', async () => {
    // 2 renders per browser: the successor starts at render 1. Its start is held until the test releases it.
    const launcher = puppeteerCore.default;
    const real = launcher.launch.bind(launcher);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let launches = 0;
    const spy = jest.spyOn(launcher, 'launch').mockImplementation(async (options) => {
      if (++launches === 2) await held;
      return real(options);
    });
    try {
      const r = renderer({ maxRendersPerBrowser: 2 });
      const pids: number[] = [];
      for (let i = 1; i <= 5; i++) {
        expect(text(await r.renderPdf(`<p>Render ${i}</p>`))).toContain(`Render ${i}`);
        pids.push(r.stats().browserPid ?? -1);
      }
      // Renders 3-5 are past the limit, yet they did not wait for the held start: the first browser served them.
      expect(new Set(pids).size).toBe(1);
      expect(r.stats()).toMatchObject({ launches: 1, spareReady: false, renders: 5 });
      release();
      await waitFor(() => r.stats().spareReady === true);
      await r.renderPdf('<p>Render 6</p>'); // the last on the first browser: it is retired now
      expect(text(await r.renderPdf('<p>Render 7</p>'))).toContain('Render 7');
      expect(r.stats().browserPid).not.toBe(pids[0]);
      await waitFor(() => !alive(pids[0]!));
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('pooled pages render concurrent documents without mixing them', async () => {
    const r = renderer({ poolSize: 2 });
    const words = ['manzana', 'pera', 'uva', 'mango', 'kiwi', 'limón'];
    const pdfs = await Promise.all(words.map((w) => r.renderPdf(`<title>${w}</title><p>Fruta: ${w}</p>`)));
    pdfs.forEach((pdf, i) => {
      const t = text(pdf);
      expect(t).toContain(`Fruta: ${words[i]}`);
      for (const other of words.filter((_, j) => j !== i)) expect(t).not.toContain(`Fruta: ${other}`);
    });
    expect(r.stats()).toMatchObject({ launches: 1, renders: 6 });
  });
});
