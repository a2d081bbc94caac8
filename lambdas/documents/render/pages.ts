// The renderer's pages (render/chromium.ts keeps the browsers and the render flow): a pooled tab with its scripts
// setting, viewport and the document it serves; every request it makes goes through the containment's decision
// (containment.ts): the document itself is answered from memory under the strict CSP, anything else is aborted. A
// page is loaded either by navigating to a fresh synthetic URL (trusted templates with scripts) or by writing
// caller HTML into an empty strict-CSP document it already holds (~3 ms instead of a ~25 ms navigation).
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { DOCUMENT_ORIGIN, contentSecurityPolicy, cspBlockedUrl, decideRequest } from './containment';
import { RenderInputError } from './errors';
import { MAX_PNG_HEIGHT, type PngViewport } from './page-options';

/** Called with each request the containment refuses (RendererOptions.onBlockedRequest). */
export type BlockedRequestObserver = (url: string, by: 'interception' | 'csp') => void;

export interface Viewport {
  width: number;
  height: number;
  deviceScaleFactor: number;
}

export interface PooledPage {
  page: Page;
  jsEnabled: boolean;
  viewport: string;
  /** The document being rendered: served once to the main frame's navigation, then cleared. */
  documentUrl?: string;
  html?: string;
  csp?: string;
  /** The document was handed to the navigation: a reload or a second navigation to it gets nothing. */
  served: boolean;
  /** 'strict': an empty strict-CSP document ready for the next caller HTML; 'used': navigate before reuse. */
  base: 'none' | 'strict' | 'used';
  blocked: number;
  /** Set when the page must not be reused (timeout, error). */
  poisoned: boolean;
}

export const DEFAULT_VIEWPORT = { width: 1024, height: 768, deviceScaleFactor: 1 };
const viewportKey = (v: Viewport) => `${v.width}x${v.height}@${v.deviceScaleFactor}`;

export const navigatedAway = () =>
  new RenderInputError(
    'The document navigated away (meta refresh, link or script): remove that',
    'custom_html',
  );

/** Synthetic document URLs handed out in this process (each navigation gets a new one). */
let documents = 0;

/** A new tab: every request it makes decided by the containment (onRequest), scripts off until a render asks. */
export async function openPage(browser: Browser, observe?: BlockedRequestObserver): Promise<PooledPage> {
  const page = await browser.newPage();
  const pp: PooledPage = {
    page,
    jsEnabled: true,
    viewport: '',
    served: false,
    base: 'none',
    blocked: 0,
    poisoned: false,
  };
  await page.setRequestInterception(true);
  page.on('request', (req) => onRequest(pp, req, observe));
  if (observe)
    page.on('console', (m) => {
      const url = cspBlockedUrl(m.text());
      if (url) observe(url, 'csp');
    });
  await page.setJavaScriptEnabled(false);
  pp.jsEnabled = false;
  return pp;
}

function onRequest(pp: PooledPage, req: HTTPRequest, observe?: BlockedRequestObserver): void {
  const decision = decideRequest({
    url: req.url(),
    isNavigation: req.isNavigationRequest(),
    isMainFrame: req.frame() === pp.page.mainFrame(),
    documentUrl: pp.served ? undefined : pp.documentUrl,
  });
  const settled = (p: Promise<void>) => void p.catch(() => undefined); // the page may be gone meanwhile
  if (decision === 'serve-document') {
    const body = pp.html ?? '';
    pp.served = true;
    pp.html = undefined;
    settled(
      req.respond({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        headers: {
          'content-security-policy': pp.csp ?? contentSecurityPolicy({ allowScripts: false }),
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-store',
        },
        body,
      }),
    );
  } else if (decision === 'continue') {
    settled(req.continue());
  } else {
    pp.blocked++;
    observe?.(req.url(), 'interception');
    // A navigation aborted with ERR_ABORTED leaves the page on its document (no chrome-error:// page).
    settled(req.abort(req.isNavigationRequest() ? 'aborted' : 'blockedbyclient'));
  }
}

export async function loadDocument(
  pp: PooledPage,
  html: string,
  allowScripts: boolean,
  viewport: Viewport,
): Promise<void> {
  if (pp.jsEnabled !== allowScripts) {
    await pp.page.setJavaScriptEnabled(allowScripts);
    pp.jsEnabled = allowScripts;
  }
  const key = viewportKey(viewport);
  if (pp.viewport !== key) {
    await pp.page.setViewport(viewport);
    pp.viewport = key;
  }
  pp.blocked = 0;
  if (allowScripts) {
    // Trusted template with scripts: a fresh document per render, so no script state carries over.
    await navigate(pp, html, true);
    pp.base = 'used';
  } else {
    // Caller HTML goes into an empty document already served from the synthetic origin with the strict CSP
    // (document.open/write through DevTools, which works with page scripts off): the CSP, the sandbox and the
    // origin stay, and it costs ~3 ms instead of a ~25 ms navigation (bench/render-pdf.bench.ts).
    if (pp.base !== 'strict') await navigate(pp, '<!doctype html><title></title>', false);
    pp.base = 'strict';
    await pp.page.setContent(html, { waitUntil: 'load', timeout: 0 });
    // A <meta http-equiv> (a CSP, say) outlives document.open(): the next render starts from a fresh document.
    if (/http-equiv/i.test(html)) pp.base = 'used';
  }
  if (pp.page.url() !== pp.documentUrl) throw navigatedAway();
}

/** Navigates the page to a new synthetic URL whose response (served once by onRequest) is `body`. */
async function navigate(pp: PooledPage, body: string, allowScripts: boolean): Promise<void> {
  pp.documentUrl = `${DOCUMENT_ORIGIN}/document/${++documents}`;
  pp.html = body;
  pp.served = false;
  pp.csp = contentSecurityPolicy({ allowScripts });
  // goto may resolve with no response when a script starts another navigation during load; the URL checks after
  // loading and after printing are what matter (an aborted navigation leaves the page on the document).
  await pp.page.goto(pp.documentUrl, { waitUntil: 'load', timeout: 0 });
}

export async function screenshot(pp: PooledPage, vp: PngViewport): Promise<Buffer> {
  let clip: { x: number; y: number; width: number; height: number } | undefined;
  if (vp.fullPage) {
    // Page.getLayoutMetrics works with JavaScript off; cap the height so a 100,000 px page is cut, not a 1 GB PNG.
    const session = await pp.page.createCDPSession();
    try {
      const { cssContentSize } = await session.send('Page.getLayoutMetrics');
      const width = Math.max(vp.width, Math.ceil(cssContentSize.width));
      const height = Math.min(MAX_PNG_HEIGHT, Math.max(vp.height, Math.ceil(cssContentSize.height)));
      clip = { x: 0, y: 0, width: Math.min(width, 4000), height };
    } finally {
      await session.detach().catch(() => undefined);
    }
  }
  const png = await pp.page.screenshot({
    type: 'png',
    omitBackground: vp.transparent,
    ...(clip ? { clip, captureBeyondViewport: true } : {}),
  });
  return Buffer.from(png);
}

/** A new page already holding an empty strict-CSP document: the spare browser's, ready for the first caller HTML. */
export async function openStrictPage(
  browser: Browser,
  observe?: BlockedRequestObserver,
): Promise<PooledPage> {
  const pp = await openPage(browser, observe);
  await navigate(pp, '<!doctype html><title></title>', false);
  pp.base = 'strict';
  return pp;
}
