// The request path of POST /v1/render, end to end, in one run (issue #16 item 3): the factura over HTTP through the
// local runtime (front → middy chain → key lookup → quota charge → template → format → stats counter → response,
// with dynalite as DynamoDB) against the same work without the request path, measured in the same process:
//   - factura html over HTTP (from fetch, from node:http with a keep-alive agent, and from node:http in another
//     process, as a real caller: then this process does only the request path's work) vs renderDocument() in
//     process (parse + template + CSS inlining, no HTTP, no DynamoDB), after HTML_WARMUP requests, as wall time and
//     as this process's CPU time per request (a shared, loaded machine inflates it less);
//   - factura pdf over HTTP vs raw Chromium (plain puppeteer setContent + pdf of the same HTML and page options, on
//     a browser started from the same binary with the same flags and fonts), and the in-process pdf vs the same;
//   - throughput at 4 concurrent renders: the renderer vs plain puppeteer with 4 pages on one browser, same HTML;
//   - browser recycles under load: the slowest render with a recycle every 20 renders vs the slowest render on a
//     browser that is never recycled (a stall shows as a ratio far above 1×).
// Then where an html request's time goes, each piece alone in the same process (medians and CPU per call): one
// quota charge and one GET /stats counter write through the real adapters (AWS SDK → dynalite), and the HTTP round
// trip through the front and middy chain of a request refused before any DynamoDB call (400).
// Then jsreport, if it is installed (it is not a dependency: `npm i --no-save @jsreport/jsreport-core
// @jsreport/jsreport-chrome-pdf puppeteer-core` to include it), against plain puppeteer on the same HTML.
// Loopback only (tripwire); every loop is bounded. Run: npm run bench -- request-path
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import { unpackedChromium } from '../lambdas/documents/render/unpack';
import puppeteer, { type Browser } from 'puppeteer-core';
import { generateKey, hashKey } from '../lambdas/shared/auth/keys';
import { dynamo } from '../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../lambdas/shared/aws/key-store';
import { DynamoQuotaStore } from '../lambdas/shared/aws/quota-store';
import { DynamoGrowthStore } from '../lambdas/shared/aws/growth-store';
import { monthlyRules } from '../lambdas/documents/core/plans';
import { findTemplate } from '../lambdas/documents/domain/template-registry';
import { parseRenderRequest, renderDocument } from '../lambdas/documents/use-cases/render-request';
import { Renderer, type PdfOptions } from '../lambdas/documents/render/chromium';
import { launchArgs } from '../lambdas/documents/render/containment';
import { resolveFontsDir, writeFontconfig } from '../lambdas/documents/render/fonts';
import { toPuppeteerPdfOptions } from '../lambdas/documents/render/page-options';
import { startLocal } from '../lib/local/runtime';
import { installLoopbackTripwire } from '../test/helpers/loopback-only';

const REPS = Number(process.env.REQUEST_PATH_REPS ?? 60);
const HTML_WARMUP = 300;
const THROUGHPUT_RENDERS = 48;
const RECYCLE_EVERY = 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
const fmt = (n: number, d = 1) => n.toFixed(d);
const load = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(' ');

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * Wall time, plus this process's CPU time added to `cpu` (user + system, ms). On a shared machine the wall time
 * includes waiting for a core; the CPU time is the work itself (everything in this process: front, handler,
 * dynalite, the HTTP client; not Chromium's processes).
 */
async function timeCpu(fn: () => Promise<unknown>, cpu: { ms: number }): Promise<number> {
  const c = process.cpuUsage();
  const t = await time(fn);
  const d = process.cpuUsage(c);
  cpu.ms += (d.user + d.system) / 1000;
  return t;
}

function ratioLine(name: string, ours: number, baseName: string, base: number, extra = ''): void {
  console.log(
    `${name}: ${fmt(ours, 2)} ms vs baseline ${baseName} ${fmt(base, 2)} ms → ratio ${fmt(ours / base, 2)}×${extra}`,
  );
}

async function rawBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await unpackedChromium(),
    headless: 'shell',
    pipe: true,
    args: launchArgs(chromium.args, { singleProcess: true }),
    env: { ...process.env, FONTCONFIG_FILE: writeFontconfig(resolveFontsDir()) },
  });
}

/** Renders per second with `concurrency` callers sharing `total` renders. */
async function rate(concurrency: number, total: number, render: (worker: number) => Promise<unknown>) {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (next++ < total) await render(w);
    }),
  );
  return (total * 1000) / (performance.now() - t);
}

/** jsreport (chrome-pdf recipe) if installed; undefined otherwise. */
async function jsreportPdf(): Promise<((html: string) => Promise<unknown>) | undefined> {
  let core: (o: unknown) => {
    use(x: unknown): unknown;
    init(): Promise<void>;
    render(r: unknown): Promise<unknown>;
  };
  let chromePdf: (o: unknown) => unknown;
  try {
    core = (await import('@jsreport/jsreport-core' as string)).default;
    chromePdf = (await import('@jsreport/jsreport-chrome-pdf' as string)).default;
  } catch {
    return undefined;
  }
  const jsreport = core({ store: { provider: 'memory' }, logger: { silent: true } });
  jsreport.use(
    chromePdf({
      launchOptions: {
        executablePath: await unpackedChromium(),
        args: launchArgs(chromium.args, { singleProcess: true }),
      },
    }),
  );
  await jsreport.init();
  return (html) => jsreport.render({ template: { content: html, engine: 'none', recipe: 'chrome-pdf' } });
}

/**
 * `HTML_WARMUP` then `REPS` html requests, one at a time, from a child Node process (node:http, keep-alive); the
 * wall time of each measured one, in ms. Loopback only: the URL is checked before the child starts.
 */
async function otherProcessHtml(url: URL, key: string, body: string): Promise<number[]> {
  if (url.hostname !== '127.0.0.1') throw new Error(`not loopback: ${url.hostname}`);
  const client = `
    const http = require('node:http');
    const [url, key, body, warm, reps] = JSON.parse(process.argv[1]);
    const u = new URL(url);
    const agent = new http.Agent({ keepAlive: true });
    const one = () => new Promise((resolve, reject) => {
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent,
        headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key,
          'content-length': Buffer.byteLength(body) } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error('status ' + res.statusCode))));
      });
      req.on('error', reject);
      req.end(body);
    });
    (async () => {
      for (let i = 0; i < warm; i++) await one();
      const out = [];
      for (let i = 0; i < reps; i++) { const t = performance.now(); await one(); out.push(performance.now() - t); }
      agent.destroy();
      process.stdout.write(JSON.stringify(out));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const { execFile } = await import('node:child_process');
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['-e', client, JSON.stringify([url.href, key, body, HTML_WARMUP, REPS])],
      { timeout: 300_000, maxBuffer: 1 << 20 },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    ),
  );
  return JSON.parse(out) as number[];
}

(async () => {
  const tripwire = installLoopbackTripwire();
  console.log(`# Node ${process.version}, load average ${load()} at the start`);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-request-path-'));
  // trustProxy: the free-plan series comes from a new X-Forwarded-For address every request (the free plan counts
  // 50 documents a month per IP), so it is the free plan's own path, quota and watermark included.
  const rt = await startLocal({ dataDir, persist: false, startWorker: false, trustProxy: true });
  const raw = await rawBrowser();
  try {
    // Scale keys (10,000 documents a month): no watermark, and the quota never answers during the run.
    const key = generateKey();
    await new DynamoKeyStore(dynamo(), rt.emulators.tableNames.keys).put({
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, 10),
      plan: 'scale',
      status: 'active',
      email: 'bench@example.com',
      createdAt: new Date().toISOString(),
    });
    const data = findTemplate('factura')!.sample;
    const bodyOf = (format: 'html' | 'pdf') => JSON.stringify({ template: 'factura', format, data });
    let freeIp = 0;
    const overHttp =
      (format: 'html' | 'pdf', plan: 'scale' | 'free' = 'scale') =>
      async () => {
        const res = await fetch(`${rt.documentsUrl}/v1/render`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(plan === 'scale'
              ? { authorization: `Bearer ${key}` }
              : { 'x-forwarded-for': `10.${(++freeIp >> 16) & 255}.${(freeIp >> 8) & 255}.${freeIp & 255}` }),
          },
          body: bodyOf(format),
        });
        const bytes = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200) throw new Error(`${format} over HTTP: ${res.status} ${bytes.toString()}`);
        return bytes;
      };
    // The same html request from node:http with a keep-alive agent (what the AWS SDK itself uses): fetch's WHATWG
    // streams cost this process ~2 ms of CPU per call more, which is the client's work, not the request path's (a
    // real caller is another process). Both are measured, interleaved.
    const agent = new HttpAgent({ keepAlive: true });
    const renderUrl = new URL(`${rt.documentsUrl}/v1/render`);
    const htmlBody = bodyOf('html');
    const overNodeHttp = () =>
      new Promise<Buffer>((resolve, reject) => {
        const req = httpRequest(
          {
            host: renderUrl.hostname,
            port: renderUrl.port,
            path: renderUrl.pathname,
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${key}`,
              'content-length': Buffer.byteLength(htmlBody),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', reject);
            res.on('end', () => {
              const bytes = Buffer.concat(chunks);
              if (res.statusCode === 200) resolve(bytes);
              else reject(new Error(`html over node:http: ${res.statusCode} ${bytes.toString()}`));
            });
          },
        );
        req.on('error', reject);
        req.end(htmlBody);
      });
    // In process: what the handler does minus HTTP, middy and DynamoDB (the body parsed as the handler does).
    const inProcessRenderer = new Renderer();
    const inProcess =
      (format: 'html' | 'pdf', ctx: { watermark?: boolean } = {}) =>
      () =>
        renderDocument(
          parseRenderRequest(JSON.parse(bodyOf(format))),
          {
            renderPdf: (html, o) => inProcessRenderer.renderPdf(html, o),
            renderPng: (html, o) => inProcessRenderer.renderPng(html, o),
          },
          ctx,
        );

    // The exact HTML and page options the route hands to Chromium, for the raw baseline.
    let captured: { html: string; options: PdfOptions } | undefined;
    await renderDocument(parseRenderRequest(JSON.parse(bodyOf('pdf'))), {
      renderPdf: async (html, options) => {
        captured = { html, options };
        return Buffer.alloc(0);
      },
      renderPng: async () => Buffer.alloc(0),
    });
    const rawPage = await raw.newPage();
    const rawPdf = async () => {
      await rawPage.setContent(captured!.html, { waitUntil: 'load' });
      return rawPage.pdf(toPuppeteerPdfOptions(captured!.options));
    };

    // Warm-up: first imports, JIT, the browsers' start, compiled templates. A warm Lambda container has served many
    // requests: V8 optimizes the SDK's, the handler's and the template's functions only after a few hundred calls
    // (CPU per html request 20–26 ms after 30 requests, 15–19 ms after 500, one session, load ~4), so the html
    // requests are repeated HTML_WARMUP times first.
    for (let i = 0; i < HTML_WARMUP; i++) {
      await overHttp('html')();
      await overNodeHttp();
      await inProcess('html')();
    }
    for (let i = 0; i < 10; i++) {
      await overHttp('pdf')();
      await overHttp('pdf', 'free')();
      await inProcess('pdf')();
      await rawPdf();
    }

    // Interleaved, so drift (other load on the machine) hits every series alike.
    const s = {
      httpHtml: [] as number[],
      nodeHtml: [] as number[],
      procHtml: [] as number[],
      httpPdf: [] as number[],
      // The same pdf as the free plan gets it over HTTP (no key: per-IP quota, watermark drawn in the page).
      httpPdfFree: [] as number[],
    };
    // procPdfFree: the same pdf as the free plan gets it (watermark drawn in the page, render/watermark.ts).
    const p = { procPdf: [] as number[], procPdfFree: [] as number[], rawPdf: [] as number[] };
    const cpu = { httpHtml: { ms: 0 }, nodeHtml: { ms: 0 }, procHtml: { ms: 0 } };
    for (let i = 0; i < REPS; i++) {
      s.httpHtml.push(await timeCpu(overHttp('html'), cpu.httpHtml));
      s.nodeHtml.push(await timeCpu(overNodeHttp, cpu.nodeHtml));
      s.procHtml.push(await timeCpu(inProcess('html'), cpu.procHtml));
      s.httpPdf.push(await time(overHttp('pdf')));
      s.httpPdfFree.push(await time(overHttp('pdf', 'free')));
      p.procPdf.push(await time(inProcess('pdf')));
      p.procPdfFree.push(await time(inProcess('pdf', { watermark: true })));
      p.rawPdf.push(await time(rawPdf));
    }
    agent.destroy();
    const m = Object.fromEntries(Object.entries({ ...s, ...p }).map(([k, v]) => [k, median(v)])) as Record<
      keyof typeof s | keyof typeof p,
      number
    >;
    ratioLine('request-path factura html over HTTP (p50)', m.httpHtml, 'in-process render', m.procHtml);
    ratioLine(
      'request-path factura html over HTTP, CPU per request (mean)',
      cpu.httpHtml.ms / REPS,
      'in-process render',
      cpu.procHtml.ms / REPS,
    );
    ratioLine(
      'request-path factura html over HTTP, node:http client (p50)',
      m.nodeHtml,
      'in-process render',
      m.procHtml,
    );
    ratioLine(
      'request-path factura html over HTTP, node:http client, CPU per request (mean)',
      cpu.nodeHtml.ms / REPS,
      'in-process render',
      cpu.procHtml.ms / REPS,
    );
    ratioLine('request-path factura pdf over HTTP (p50)', m.httpPdf, 'raw Chromium', m.rawPdf);
    ratioLine(
      'request-path factura pdf over HTTP (p90)',
      p90(s.httpPdf),
      'raw Chromium p90',
      p90(p.rawPdf),
      ' (target ≤ 1.2×)',
    );
    ratioLine(
      'request-path factura pdf over HTTP, free plan (p50)',
      m.httpPdfFree,
      'paid (Scale key) p50',
      m.httpPdf,
      `; free − paid ${fmt(m.httpPdfFree - m.httpPdf, 2)} ms (target ≤ 5 ms); p90 ${fmt(p90(s.httpPdfFree), 2)} vs ${fmt(p90(s.httpPdf), 2)} ms`,
    );
    ratioLine('request-path factura pdf in process (p50)', m.procPdf, 'raw Chromium', m.rawPdf);
    ratioLine(
      'request-path factura pdf in process, free plan watermark (p50)',
      m.procPdfFree,
      'the same pdf without it',
      m.procPdf,
      `; watermark cost ${fmt(m.procPdfFree - m.procPdf, 2)} ms (target ≤ 5 ms); p90 ${fmt(p90(p.procPdfFree), 2)} vs ${fmt(p90(p.procPdf), 2)} ms`,
    );
    console.log(
      `# factura html over HTTP p50 ${fmt(m.httpHtml, 2)} ms (fetch) / ${fmt(m.nodeHtml, 2)} ms (node:http) ` +
        `(target ≤ 10 ms on a warm process), p90 ${fmt(p90(s.httpHtml), 2)} / ${fmt(p90(s.nodeHtml), 2)} ms; ` +
        `medians of ${REPS}`,
    );

    console.log(`# load average ${load()} after the html/pdf series`);

    // The html request as a real caller makes it: from another process (its own core), node:http with keep-alive.
    // This process then does only the request path's work (front, chain, SDK, dynalite, render).
    const fromOther = await otherProcessHtml(renderUrl, key, htmlBody);
    ratioLine(
      'request-path factura html over HTTP, client in another process (p50)',
      median(fromOther),
      'in-process render',
      m.procHtml,
      `; p90 ${fmt(p90(fromOther), 2)} ms, ${fromOther.length} requests after ${HTML_WARMUP} warm-up`,
    );

    // Where the time of an html request goes: its pieces alone, interleaved, medians and CPU per call.
    const quotas = new DynamoQuotaStore(dynamo(), rt.emulators.tableNames.quotas);
    const growth = new DynamoGrowthStore(dynamo(), rt.emulators.tableNames.growth);
    const pieces = {
      'one quota charge (SDK → dynalite)': () => quotas.consume('bench#pieces', monthlyRules('scale')),
      'one GET /stats counter write (SDK → dynalite)': () =>
        growth.add('bench#pieces', { documents: 1, format_html: 1 }),
      'HTTP round trip, front + middy chain, refused before DynamoDB (400)': async () => {
        const res = await fetch(`${rt.documentsUrl}/v1/render`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ template: 'factura', format: 'html' }),
        });
        await res.arrayBuffer();
        if (res.status !== 400) throw new Error(`expected 400, got ${res.status}`);
      },
    };
    const pieceTimes = Object.fromEntries(Object.keys(pieces).map((k) => [k, [] as number[]]));
    const pieceCpu = Object.fromEntries(Object.keys(pieces).map((k) => [k, { ms: 0 }]));
    for (const fn of Object.values(pieces)) for (let i = 0; i < HTML_WARMUP; i++) await fn();
    for (let i = 0; i < REPS; i++)
      for (const [name, fn] of Object.entries(pieces))
        pieceTimes[name]!.push(await timeCpu(fn, pieceCpu[name]!));
    for (const name of Object.keys(pieces))
      console.log(
        `# piece: ${name}: p50 ${fmt(median(pieceTimes[name]!), 2)} ms, CPU ${fmt(pieceCpu[name]!.ms / REPS, 2)} ms`,
      );

    // Throughput at 4 concurrent renders: the renderer (its default pool) vs plain puppeteer, 4 pages, one browser.
    const pages = await Promise.all(Array.from({ length: 4 }, () => raw.newPage()));
    const plain = async (w: number) => {
      await pages[w]!.setContent(captured!.html, { waitUntil: 'load' });
      return pages[w]!.pdf(toPuppeteerPdfOptions(captured!.options));
    };
    const ours = () => inProcessRenderer.renderPdf(captured!.html, captured!.options);
    await rate(4, 8, plain);
    await rate(4, 8, ours);
    const runs = { ours: [] as number[], plain: [] as number[] };
    for (let r = 0; r < 3; r++) {
      runs.ours.push(await rate(4, THROUGHPUT_RENDERS, ours));
      runs.plain.push(await rate(4, THROUGHPUT_RENDERS, plain));
    }
    const [o, b] = [median(runs.ours), median(runs.plain)];
    console.log(
      `request-path pdf throughput at 4 concurrent: ${fmt(1000 / o)} ms per render vs baseline plain puppeteer ` +
        `(4 pages, one browser) ${fmt(1000 / b)} ms → ratio ${fmt(b / o, 2)}× (${fmt(o)} vs ${fmt(b)} renders/s: ` +
        `${fmt(o / b, 2)}× its throughput)`,
    );
    await Promise.all(pages.map((pg) => pg.close()));

    // Browser recycles under load (one every RECYCLE_EVERY renders) vs the same renders on a browser that is never
    // recycled, 4 concurrent callers: the slowest render of each (a recycle that stalls renders shows as a ratio
    // well above 1×; before the spare browser a recycle stalled renders 0.4–0.65 s).
    const recycling = new Renderer({ maxRendersPerBrowser: RECYCLE_EVERY });
    const steady = new Renderer({ maxRendersPerBrowser: 1_000_000 });
    const slowest = async (r: Renderer) => {
      const lat: number[] = [];
      await rate(4, RECYCLE_EVERY * 3, async () =>
        lat.push(await time(() => r.renderPdf(captured!.html, captured!.options))),
      );
      return Math.max(...lat);
    };
    await rate(4, 8, () => steady.renderPdf(captured!.html, captured!.options));
    await recycling.renderPdf(captured!.html, captured!.options);
    const worst = { recycling: 0, steady: 0 };
    for (let r = 0; r < 2; r++) {
      worst.recycling = Math.max(worst.recycling, await slowest(recycling));
      worst.steady = Math.max(worst.steady, await slowest(steady));
    }
    const launches = recycling.stats().launches;
    await Promise.all([recycling.close(), steady.close()]);
    ratioLine(
      `request-path slowest render with ${launches - 1} browser recycles (4 concurrent)`,
      worst.recycling,
      'slowest render without recycles',
      worst.steady,
    );

    const js = await jsreportPdf();
    if (js) {
      await js(captured!.html);
      const jr: number[] = [];
      const pr: number[] = [];
      for (let i = 0; i < 20; i++) {
        jr.push(await time(() => js(captured!.html)));
        pr.push(await time(rawPdf));
      }
      ratioLine('request-path jsreport chrome-pdf (p50)', median(jr), 'raw Chromium', median(pr));
    } else console.log('# jsreport not installed: skipped (see the header of this file)');
    await inProcessRenderer.close();
  } finally {
    await raw.close();
    await rt.stop();
    rmSync(dataDir, { recursive: true, force: true });
    tripwire.uninstall();
  }
  if (tripwire.attempts.length) {
    console.error(`request-path: ${tripwire.attempts.length} connection(s) outside loopback refused`);
    process.exit(1);
  }
  process.exit(0); // Chromium and isolated-vm keep handles open by design.
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
