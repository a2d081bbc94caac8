// Web pages' budget (issue #14), Lighthouse-style, on the local runtime in headless Chromium (@sparticuz/chromium):
// every page of both services (narration `/`, `/panel` and its other page routes, documents' site pages when they
// exist, and `/api` of each) against a baseline measured in the same run: an empty HTML page (`<!doctype html>`,
// a title) served by the same local front, handler chain and headers (staticSiteHandler + pageSecurityHeaders).
//   transfer   sum of encodedDataLength of every response the page loads (CDP Network.loadingFinished: bytes on
//              the wire, headers included, after compression), cache disabled, so each load is a first visit.
//   TTI        time to interactive, our definition: from navigation start to the latest of (a) the load event's end,
//              (b) the end of the last long task (> 50 ms, PerformanceObserver 'longtask', registered before any page
//              script) and (c) the end of the last resource fetched, observed until the network has been idle
//              for 500 ms (puppeteer's networkidle0). No CPU or network throttling: a ratio to the empty page on the
//              same machine, not an absolute phone figure.
// Median of RUNS loads per page, interleaved with RUNS loads of the baseline, each in a fresh page with the cache off. Every non-loopback request is aborted and
// counted (it must stay 0). Run: npm run bench -- web   (WEB_BENCH_RUNS=5)
import type { Server } from 'node:http';
import type { Browser } from 'puppeteer-core';
import { documentsManifest } from '../lambdas/documents/routes';
import { narrationManifest } from '../lambdas/narration/routes';
import { pageSecurityHeaders, staticSiteHandler } from '../lambdas/shared/http/static-assets';
import { createFront, listen } from '../lib/local/front';
import { startLocal, type LocalRuntime } from '../lib/local/runtime';
import { launchChromium, loopbackPage } from '../test/helpers/browser';
import { tempDir } from '../test/helpers/env';
import { pagesOf } from '../scripts/web-pages';

const RUNS = Number(process.env.WEB_BENCH_RUNS ?? 6);

interface Load {
  bytes: number;
  requests: number;
  ttiMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(browser: Browser, url: string, blocked: string[]): Promise<Load> {
  const page = await loopbackPage(browser, blocked);
  try {
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    let bytes = 0;
    let requests = 0;
    cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
      bytes += e.encodedDataLength;
      requests++;
    });
    // Registered before any page script (DevTools injection, not governed by the page's CSP).
    await page.evaluateOnNewDocument(`
      window.__longTaskEnd = 0;
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longTaskEnd = Math.max(window.__longTaskEnd, e.startTime + e.duration);
        }).observe({ type: 'longtask', buffered: true });
      } catch {}
    `);
    const res = await page.goto(url, { waitUntil: 'networkidle0', timeout: 30_000 });
    if (!res || res.status() !== 200) throw new Error(`${url}: HTTP ${res?.status()}`);
    const ttiMs = (await page.evaluate(`(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const lastResource = Math.max(0, ...performance.getEntriesByType('resource').map((r) => r.responseEnd));
      return Math.max(nav.loadEventEnd, window.__longTaskEnd, lastResource);
    })()`)) as number;
    return { bytes, requests, ttiMs };
  } finally {
    await page.close();
  }
}

/** RUNS loads of the page interleaved with RUNS of the baseline (machine load hits both alike); medians. */
async function measurePair(browser: Browser, url: string, baselineUrl: string, blocked: string[]) {
  const page: Load[] = [];
  const base: Load[] = [];
  // Alternating which goes first: a load right after another page closes pays for that page's teardown.
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) base.push(await measure(browser, baselineUrl, blocked));
    page.push(await measure(browser, url, blocked));
    if (i % 2 === 1) base.push(await measure(browser, baselineUrl, blocked));
  }
  const med = (loads: Load[]) => ({
    bytes: median(loads.map((l) => l.bytes)),
    requests: median(loads.map((l) => l.requests)),
    ttiMs: median(loads.map((l) => l.ttiMs)),
  });
  return { m: med(page), base: med(base) };
}

async function main(): Promise<void> {
  const data = tempDir('web-bench-');
  const profile = tempDir('web-bench-chrome-');
  let rt: LocalRuntime | undefined;
  let baselineServer: Server | undefined;
  let browser: Browser | undefined;
  const blocked: string[] = [];
  try {
    rt = await startLocal({ dataDir: data.path, persist: false, startWorker: false });
    // The baseline: an empty page through the same front, handler chain and security headers.
    baselineServer = createFront({
      manifest: {
        service: 'baseline',
        routes: [
          {
            id: 'Empty',
            method: 'GET',
            path: '/',
            handler: 'bench/web.bench.ts',
            memoryMb: 128,
            timeoutS: 3,
            access: {},
          },
        ],
      },
      handlers: {
        Empty: staticSiteHandler(
          {
            'empty.html': {
              type: 'text/html; charset=utf-8',
              body: '<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Vacía</title></head><body></body></html>',
            },
          },
          { '/': 'empty.html' },
          pageSecurityHeaders(),
        ) as never,
      },
      host: '127.0.0.1',
      port: 0,
      trustProxy: false,
    });
    const baselineUrl = await listen(baselineServer, '127.0.0.1', 0);
    browser = await launchChromium(profile.path);
    // Warm-up loads (browser start-up costs are not the pages').
    for (let i = 0; i < 3; i++) await measure(browser, baselineUrl + '/', blocked);

    const targets: [string, string][] = [
      ...pagesOf(narrationManifest).map((p) => [`narration ${p}`, rt!.narrationUrl + p] as [string, string]),
      ...pagesOf(documentsManifest).map((p) => [`documents ${p}`, rt!.documentsUrl! + p] as [string, string]),
    ];
    const figures: string[] = [];
    for (const [name, url] of targets) {
      const { m, base } = await measurePair(browser, url, baselineUrl + '/', blocked);
      console.log(
        `web ${name} transfer: ${(m.bytes / 1024).toFixed(1)} KB in ${m.requests} responses vs baseline empty page ` +
          `${(base.bytes / 1024).toFixed(1)} KB → ratio ${(m.bytes / base.bytes).toFixed(1)}×`,
      );
      console.log(
        `web ${name} time to interactive: ${m.ttiMs.toFixed(0)} ms vs baseline empty page ${base.ttiMs.toFixed(0)} ms ` +
          `→ ratio ${(m.ttiMs / base.ttiMs).toFixed(1)}×`,
      );
      figures.push(
        `| ${name} | ${(m.bytes / 1024).toFixed(1)} KB (${m.requests}) | ${m.ttiMs.toFixed(0)} ms |`,
      );
    }
    console.log(`# non-loopback requests blocked: ${blocked.length}`);
    console.log('# | page | transfer (responses) | TTI |');
    for (const f of figures) console.log(`# ${f}`);
    if (blocked.length) throw new Error(`pages asked for other hosts: ${blocked.join(', ')}`);
  } finally {
    await browser?.close();
    await new Promise<void>((r) => (baselineServer ? baselineServer.close(() => r()) : r()));
    await rt?.stop();
    data.cleanup();
    profile.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
