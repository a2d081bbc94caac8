// Headless Chromium for the browser tests, the web benchmark and the screenshots (scripts/screenshots.ts): the
// build @sparticuz/chromium ships inside its npm package (no apt step, no download), driven by puppeteer-core. Network rule: Chromium resolves no names, sends anything not loopback to a
// dead proxy, and every request a page makes is intercepted: non-loopback ones are aborted before they leave and
// recorded in `blocked`.
import { unpackedChromium } from '../../lambdas/documents/render/unpack';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer-core';

export async function launchChromium(profileDir: string, extraArgs: string[] = []): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await unpackedChromium(),
    // Not @sparticuz/chromium's default args: those turn web security off, and CORS is part of what is tested.
    headless: 'shell',
    userDataDir: profileDir,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      // Nothing listens on port 9; loopback bypasses a proxy implicitly.
      '--proxy-server=http://127.0.0.1:9',
      ...extraArgs,
    ],
  });
}

/** A new page whose non-loopback requests are aborted and recorded; `intercept` may answer a request itself. */
export async function loopbackPage(
  browser: Browser,
  blocked: string[],
  intercept?: (req: HTTPRequest) => Promise<boolean>,
): Promise<Page> {
  const page = await browser.newPage();
  await page.setRequestInterception(true);
  page.on('request', async (req) => {
    const url = new URL(req.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') {
      if (intercept && (await intercept(req))) return;
      return void req.continue();
    }
    blocked.push(req.url());
    return void req.abort('blockedbyclient');
  });
  return page;
}
