// The Chromium renderer: HTML → PDF or PNG with one browser per process, reused across renders (and across Lambda
// invocations of a warm container), a page pool as large as the renders a process makes at once, a per-render
// timeout, a fresh browser after a crash or after N renders (Chromium's memory grows with use), and a second start
// for a browser that exits as it starts (startBrowser). The next browser is started ahead, while the current one
// still renders, and takes over only once it is ready (the old one serves on meanwhile), so a recycle never makes a
// render wait for a browser to start. The pages themselves (loading a document, what its requests may do,
// screenshots) are pages.ts. Caller HTML is untrusted: see containment.ts for the layers and
// docs/documents-rendering.md for the security model, options, limits and measured behaviour.
// Dependencies: @sparticuz/chromium (a Chromium build for Lambda's x86_64 Linux, brotli-packed in the npm package,
// the same binary runs locally) driven by puppeteer-core (no bundled browser download). 147.0.0 pairs with
// puppeteer-core 24.x (its peer range ^24.40.0).
import type { ChildProcess } from 'node:child_process';
import chromium from '@sparticuz/chromium';
import puppeteer, { ProtocolError, type Browser, type LaunchOptions } from 'puppeteer-core';
import { logger } from '../../shared/logger';
import { launchArgs, withoutScreenLayout } from './containment';
import { RenderCrashError, RenderInputError, RenderTimeoutError } from './errors';
import { resolveFontsDir, writeFontconfig } from './fonts';
import { unpackedChromium } from './unpack';
import { parsePngOptions, toPuppeteerPdfOptions, type PdfOptions, type PngOptions } from './page-options';
import {
  DEFAULT_VIEWPORT,
  loadDocument,
  navigatedAway,
  openPage,
  openStrictPage,
  screenshot,
  type BlockedRequestObserver,
  type PooledPage,
  type Viewport,
} from './pages';
import { watermarkOverlay } from './watermark';

export type { PdfOptions, PngOptions } from './page-options';

export interface RendererOptions {
  /**
   * Pages rendering at once (default 4). More renders wait for a free page. Pages are made on demand, so a Lambda
   * container (one request at a time) makes one; the local runtime serves many requests at once.
   */
  poolSize?: number;
  /** A fresh browser after this many renders (default 200). */
  maxRendersPerBrowser?: number;
  /** Per-render limit from taking a page to the finished bytes (default 15,000 ms). */
  renderTimeoutMs?: number;
  /** Browser start limit (default 30,000 ms; the first start also unpacks Chromium, ~3.5 s). */
  launchTimeoutMs?: number;
  /** Chromium binary; default @sparticuz/chromium's, unpacked to the temp dir on first use (unpack.ts). */
  executablePath?: string;
  /** Folder of the bundled .ttf fonts (default DOCUMENTS_FONTS_DIR or lambdas/documents/fonts). */
  fontsDir?: string;
  /** Keep @sparticuz/chromium's `--single-process` (default true: what Lambda needs; see the docs). */
  singleProcess?: boolean;
  /**
   * Called with the URL of each request the containment refuses: aborted by the request interception, or refused
   * by the CSP (Chromium reports those on the console; listened to only when this is set). The security tests watch
   * the defences at work with it.
   */
  onBlockedRequest?: BlockedRequestObserver;
}

export interface RendererStats {
  /** Browsers started by this renderer. */
  launches: number;
  /** Renders started (including failed ones). */
  renders: number;
  /** Renders stopped by the timeout. */
  timeouts: number;
  /** Browsers that died without being asked to (crash, killed from outside). */
  crashes: number;
  /** Requests the containment aborted in the last finished render (diagnostics). */
  lastBlockedRequests: number;
  /** How long the first unpack of the Chromium binary took in this process, if it happened here. */
  unpackMs?: number;
  /** A successor browser has started and is ready to take over (see the recycle in render()). */
  spareReady?: boolean;
  /** Process id of the current browser, if one is running. */
  browserPid?: number;
}

interface Slot {
  id: number;
  browser: Browser;
  idle: PooledPage[];
  inFlight: number;
  renders: number;
  /** Reached maxRendersPerBrowser: takes no new render, closes when the last one ends. */
  retiring: boolean;
  /** Disconnected (crash, killed, closed). */
  dead: boolean;
  /** We closed or killed it on purpose (not a crash). */
  ended: boolean;
}

/** A counting semaphore in arrival order. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async enter(): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class Renderer {
  private readonly poolSize: number;
  private readonly maxRenders: number;
  private readonly timeoutMs: number;
  private readonly launchTimeoutMs: number;
  private readonly singleProcess: boolean;
  private readonly gate: Gate;
  private slot?: Slot;
  private launching?: Promise<Slot>;
  /** The next browser, started before the current one retires (with one page ready). */
  private spare?: Promise<Slot>;
  /** The spare has settled (started, or failed to: then the next browser starts on demand). */
  private spareReady = false;
  /** Renders ahead of the recycle at which the spare starts; also how long a browser may outlive it for a slow spare. */
  private readonly spareLead: number;
  /** The current browser's render count at which its successor is started. */
  private readonly spareAt: number;
  private readonly slots = new Set<Slot>();
  private closed = false;
  private readonly counters: Omit<RendererStats, 'browserPid'> = {
    launches: 0,
    renders: 0,
    timeouts: 0,
    crashes: 0,
    lastBlockedRequests: 0,
  };

  constructor(private readonly options: RendererOptions = {}) {
    this.poolSize = Math.max(1, options.poolSize ?? 4);
    this.maxRenders = Math.max(1, options.maxRendersPerBrowser ?? 200);
    // Far enough ahead that the start (~0.3 s, longer on a busy machine) ends before the last render of the current one.
    this.spareLead = Math.max(8, Math.ceil(this.maxRenders / 10));
    this.spareAt = Math.max(1, this.maxRenders - this.spareLead);
    this.timeoutMs = options.renderTimeoutMs ?? 15_000;
    this.launchTimeoutMs = options.launchTimeoutMs ?? 30_000;
    this.singleProcess = options.singleProcess ?? true;
    this.gate = new Gate(this.poolSize);
  }

  /** HTML → PDF bytes. Throws RenderInputError/RenderTimeoutError (400) or RenderCrashError (500). */
  async renderPdf(html: string, options: PdfOptions = {}): Promise<Buffer> {
    const pdfOptions = toPuppeteerPdfOptions(options); // validate before taking a page
    // The free plan's watermark is drawn in the page, before printing (render/watermark.ts); no screen layout for a
    // page that only prints (withoutScreenLayout).
    const source =
      typeof html !== 'string' // refused in render()
        ? html
        : withoutScreenLayout(
            options.watermark ? html + watermarkOverlay(options.watermark) : html,
            options.allowScripts === true,
          );
    return this.render('PDF', source, options, DEFAULT_VIEWPORT, async (pp) =>
      Buffer.from(await pp.page.pdf({ ...pdfOptions, timeout: 0 })),
    );
  }

  /** HTML → PNG bytes (screen media). Same errors as renderPdf. */
  async renderPng(html: string, options: PngOptions = {}): Promise<Buffer> {
    const vp = parsePngOptions(options);
    return this.render('PNG', html, options, vp, async (pp) => screenshot(pp, vp));
  }

  stats(): RendererStats {
    return {
      ...this.counters,
      browserPid: this.slot?.dead ? undefined : this.slot?.browser.process()?.pid,
      spareReady: this.spareReady,
    };
  }

  /** The current browser's process, if one runs (tests kill it to check crash recovery). */
  browserProcess(): ChildProcess | null {
    return this.slot && !this.slot.dead ? this.slot.browser.process() : null;
  }

  /** Closes every browser; the renderer can not be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await this.launching?.catch(() => undefined);
    await this.spare?.catch(() => undefined);
    await Promise.all([...this.slots].map((s) => this.closeSlot(s)));
  }

  // ---- render flow -------------------------------------------------------------------------------------------

  private async render<T>(
    kind: 'PDF' | 'PNG',
    html: string,
    options: { allowScripts?: boolean; timeoutMs?: number },
    viewport: Viewport,
    produce: (pp: PooledPage) => Promise<T>,
  ): Promise<T> {
    if (typeof html !== 'string')
      throw new RenderInputError('The HTML to render must be a string', 'custom_html');
    if (this.closed) throw new RenderCrashError('The renderer is closed');
    const allowScripts = options.allowScripts === true;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    // A render that fails only because the browser died under it (another render crashed it or timed out) gets one
    // more try on a fresh browser; a second death is reported.
    for (let attempt = 1; ; attempt++) {
      await this.gate.enter();
      let slot: Slot | undefined;
      const held: { pp?: PooledPage } = {};
      let ok = false;
      try {
        slot = await this.acquireSlot();
        const s = slot;
        s.inFlight++;
        s.renders++;
        this.counters.renders++;
        if (s.renders >= this.spareAt) this.startSpare();
        // Recycled once its successor is ready, so no render waits for a browser to start: a spare still starting
        // (a busy machine) leaves renders on this browser meanwhile, at most spareLead more.
        if (
          s.renders >= this.maxRenders &&
          (this.spareReady || !this.spare || s.renders >= this.maxRenders + this.spareLead)
        )
          this.retire(s);
        const started = performance.now();
        const result = await this.withTimeout(timeoutMs, s, held, async () => {
          held.pp = s.idle.pop() ?? (await openPage(s.browser, this.options.onBlockedRequest));
          await loadDocument(held.pp, html, allowScripts, viewport);
          const out = await produce(held.pp);
          if (held.pp.page.url() !== held.pp.documentUrl) throw navigatedAway();
          return out;
        });
        ok = true;
        this.counters.lastBlockedRequests = held.pp?.blocked ?? 0;
        logger.debug('document rendered', {
          kind,
          ms: Math.round(performance.now() - started),
          blockedRequests: held.pp?.blocked,
          browser: s.id,
        });
        return result;
      } catch (err) {
        if (held.pp) held.pp.poisoned = true;
        if (err instanceof RenderInputError || err instanceof RenderTimeoutError) throw err;
        if (slot?.dead && attempt === 1 && !this.closed) {
          logger.warn('browser died during a render; retrying on a fresh browser', {
            kind,
            error: errorText(err),
          });
          continue;
        }
        if (err instanceof RenderCrashError) throw err;
        throw new RenderCrashError(`Chromium failed to render the ${kind}: ${errorText(err)}`, {
          cause: err,
        });
      } finally {
        if (slot) this.release(slot, held.pp, ok);
        this.gate.leave();
      }
    }
  }

  private async withTimeout<T>(
    ms: number,
    slot: Slot,
    held: { pp?: PooledPage },
    work: () => Promise<T>,
  ): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const running = work();
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderTimeoutError(ms)), ms);
    });
    try {
      return await Promise.race([running, expired]);
    } catch (err) {
      if (err instanceof RenderTimeoutError) {
        running.catch(() => undefined); // settles when the browser goes away
        this.counters.timeouts++;
        if (held.pp) held.pp.poisoned = true;
        // The page may be stuck in layout or printing. In single-process mode that thread is the only renderer for
        // every page, and closing a tab does not stop it (measured: another page waited 19 s after the close), so
        // the whole browser goes; renders sharing it are retried on the next one.
        logger.warn('render timed out; restarting the browser', { ms, browser: slot.id });
        this.kill(slot);
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private release(slot: Slot, pp: PooledPage | undefined, ok: boolean): void {
    slot.inFlight--;
    if (pp) {
      pp.html = undefined;
      if (ok && !pp.poisoned && !slot.dead && !slot.retiring) slot.idle.push(pp);
      else if (!slot.dead) void pp.page.close().catch(() => undefined);
    }
    if (slot.retiring && slot.inFlight === 0) void this.closeSlot(slot);
  }

  // ---- browsers ----------------------------------------------------------------------------------------------

  private async acquireSlot(): Promise<Slot> {
    if (this.slot && !this.slot.dead && !this.slot.retiring) return this.slot;
    this.launching ??= this.nextSlot().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  /** The spare browser when one was started and is alive (waiting for it if it is still starting), else a new one. */
  private async nextSlot(): Promise<Slot> {
    const spare = this.spare;
    this.spare = undefined;
    this.spareReady = false;
    let slot = spare && (await spare.catch(() => undefined));
    if (!slot || slot.dead) slot = await this.launch();
    if (this.closed) {
      await this.closeSlot(slot);
      throw new RenderCrashError('The renderer is closed');
    }
    this.slot = slot;
    return slot;
  }

  /** Starts the next browser in the background, with one page on an empty strict-CSP document ready to render. */
  private startSpare(): void {
    if (this.spare || this.closed) return;
    this.spareReady = false;
    const spare = this.launch().then(async (slot) => {
      try {
        slot.idle.push(await openStrictPage(slot.browser, this.options.onBlockedRequest));
      } catch (err) {
        // A page failed, not the browser: the first render makes its own.
        logger.warn('spare browser: page not prepared', { error: errorText(err) });
      }
      return slot;
    });
    this.spare = spare;
    spare.then(
      () => {
        if (this.spare === spare) this.spareReady = true;
      },
      (err) => {
        if (this.spare === spare) this.spareReady = true; // the next browser then starts on demand
        logger.warn('spare browser did not start', { error: errorText(err) });
      },
    );
  }

  private async launch(): Promise<Slot> {
    let executablePath = this.options.executablePath;
    // No WebGL: documents do not need it (`--disable-webgl` is added).
    chromium.setGraphicsMode = false;
    if (!executablePath) {
      const t = performance.now();
      executablePath = await unpackedChromium(); // the temp dir's binary, unpacked whole the first time
      const ms = performance.now() - t;
      if (ms > 500) this.counters.unpackMs = Math.round(ms);
    }
    let fontconfig: string;
    try {
      fontconfig = writeFontconfig(resolveFontsDir(this.options.fontsDir));
    } catch (err) {
      throw new RenderCrashError(errorText(err), { cause: err });
    }
    const t = performance.now();
    // LOCAL ONLY (the stack never sets it): a launcher that runs the browser so it dies with this process
    // (lib/local/chromium-with-parent.sh); it reads the real binary from CHROMIUM_EXECUTABLE.
    const launcher = process.env.CHROMIUM_LAUNCHER;
    const browser = await startBrowser({
      executablePath: launcher || executablePath,
      headless: 'shell',
      args: launchArgs(chromium.args, { singleProcess: this.singleProcess }),
      // CDP over a pipe: no DevTools port listening on loopback for anything to find.
      pipe: true,
      env: { ...process.env, FONTCONFIG_FILE: fontconfig, CHROMIUM_EXECUTABLE: executablePath },
      timeout: this.launchTimeoutMs,
      // Pending CDP calls settle eventually even if the browser wedges; the render timeout acts first.
      protocolTimeout: Math.max(60_000, this.timeoutMs * 4),
      defaultViewport: DEFAULT_VIEWPORT,
      // The host process owns signals; the browser dies with it either way.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const slot: Slot = {
      id: ++this.counters.launches,
      browser,
      idle: [],
      inFlight: 0,
      renders: 0,
      retiring: false,
      dead: false,
      ended: false,
    };
    browser.once('disconnected', () => {
      slot.dead = true;
      this.slots.delete(slot);
      if (this.slot === slot) this.slot = undefined;
      if (!slot.ended) {
        this.counters.crashes++;
        logger.warn('browser disconnected unexpectedly; the next render starts a new one', {
          browser: slot.id,
        });
      }
    });
    this.slots.add(slot);
    if (this.closed) {
      await this.closeSlot(slot);
      throw new RenderCrashError('The renderer is closed');
    }
    logger.info('browser started', {
      browser: slot.id,
      ms: Math.round(performance.now() - t),
      unpackMs: this.counters.unpackMs,
      pid: browser.process()?.pid,
    });
    return slot;
  }

  private retire(slot: Slot): void {
    slot.retiring = true;
    if (this.slot === slot) this.slot = undefined;
  }

  /** SIGKILL: a wedged browser does not answer a polite close. */
  private kill(slot: Slot): void {
    if (slot.dead) return;
    slot.ended = true;
    slot.dead = true;
    if (this.slot === slot) this.slot = undefined;
    slot.browser.process()?.kill('SIGKILL');
  }

  private async closeSlot(slot: Slot): Promise<void> {
    if (slot.dead) return;
    slot.ended = true;
    if (this.slot === slot) this.slot = undefined;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      slot.browser.close().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, 5_000);
      }),
    ]);
    clearTimeout(timer);
    this.kill(slot);
  }
}

/**
 * Starts Chromium, twice if the first one exits as it starts. Now and then (twice in ~20 full test runs at load ~8,
 * in the renderer and in a test's own launch) the process ends before answering its first CDP call ("Target
 * closed"); a second start then works. A start that times out, or a binary that is missing, is not tried again: that
 * would only double the wait for the same answer.
 */
export async function startBrowser(options: LaunchOptions): Promise<Browser> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await puppeteer.launch(options);
    } catch (err) {
      // puppeteer's TargetCloseError (a ProtocolError; its class is not in the package's types).
      if (attempt === 1 && err instanceof ProtocolError && /Target closed/.test(err.message)) {
        logger.warn('Chromium exited as it started; starting it again', { error: errorText(err) });
        continue;
      }
      throw new RenderCrashError(`Chromium did not start: ${errorText(err)}`, { cause: err });
    }
  }
}

let shared: Renderer | undefined;

/**
 * The process-wide renderer: one browser per warm Lambda container (or per `npm start` process), created on first
 * use with the options of that first call, reused by every handler afterwards.
 */
export function sharedRenderer(options?: RendererOptions): Renderer {
  shared ??= new Renderer(options);
  return shared;
}
