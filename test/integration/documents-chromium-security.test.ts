// Hostile HTML through the real renderer: every way a document can reach the network or the disk is tried against a
// SENTINEL (HTTP + WebSocket server on 127.0.0.1) that counts TCP connections, and the sentinel must see none. The
// PDF must not contain /etc/passwd, and scripts must not run unless a trusted template asks. Then each containment
// layer is checked ALONE with raw puppeteer and the renderer's own building blocks, so no single layer carries it.
// Network rule: the only addresses named are 127.0.0.1 and localhost (resolved by Chromium without DNS); the browser
// sends nothing else anywhere (proxy to 127.0.0.1:9, host names never resolve).
// No fixed waits: each test first waits for positive evidence that the hostile requests were attempted and refused
// (the renderer's onBlockedRequest, or the page's requestfailed and CSP console reports for raw puppeteer), then ends
// the browser and waits for its process to exit, then passes the sentinel's barrier (a probe connection of our own,
// accepted after every earlier one) before counting. The control waits until the expected URLs have arrived.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { EventEmitter, once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import chromium from '@sparticuz/chromium';
import { unpackedChromium } from '../../lambdas/documents/render/unpack';
import type { Browser, Page } from 'puppeteer-core';
import { Renderer, startBrowser } from '../../lambdas/documents/render/chromium';
import {
  CONTAINMENT_ARGS,
  DOCUMENT_ORIGIN,
  DROPPED_ARGS,
  contentSecurityPolicy,
  cspBlockedUrl,
  decideRequest,
} from '../../lambdas/documents/render/containment';
import { pdftotext, requirePdftotext } from '../helpers/pdftotext';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

jest.setTimeout(90_000);

interface Sentinel {
  server: Server;
  port: number;
  /** TCP connections accepted (HTTP, WebSocket, anything), not counting the barrier's own probes. */
  readonly connections: number;
  /** `METHOD url` of HTTP requests and `WS url` of upgrades. */
  seen: string[];
  reset(): void;
  /**
   * Opens a probe connection of our own and resolves once the sentinel has accepted it. The kernel's accept queue
   * is FIFO, so every connection attempted before the probe has been accepted, and counted, by then.
   */
  barrier(): Promise<void>;
}

async function startSentinel(): Promise<Sentinel> {
  /** The client port of every connection accepted, in order; and those of our probes. */
  const accepted: number[] = [];
  const probes = new Set<number>();
  const server = createServer((req, res) => {
    s.seen.push(`${req.method} ${req.url}`);
    bus.emit('change');
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    res.end('SENTINEL-BODY');
  });
  const sockets = new Set<Socket>();
  server.on('connection', (sock) => {
    accepted.push(sock.remotePort!);
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  server.on('upgrade', (req, sock) => {
    s.seen.push(`WS ${req.url}`);
    bus.emit('change');
    sock.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const s: Sentinel = {
    server,
    port,
    get connections() {
      return accepted.filter((p) => !probes.has(p)).length;
    },
    seen: [],
    reset() {
      accepted.length = 0;
      probes.clear();
      this.seen = [];
    },
    async barrier() {
      const probe = connect(port, '127.0.0.1');
      await once(probe, 'connect');
      const mine = probe.localPort!;
      probes.add(mine);
      while (!accepted.includes(mine)) await once(server, 'connection');
      probe.destroy();
    },
  };
  server.on('close', () => sockets.forEach((x) => x.destroy()));
  return s;
}

let sentinel: Sentinel;
let renderer: Renderer;
let dir: string;
const PASSWD = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!; // e.g. root:x:0:0:root:/root:/bin/bash

/** Every observation a test waits on (sentinel arrivals, refused requests) emits 'change' here. */
const bus = new EventEmitter();
/** `<by> <url>` of each request refused in this test: the renderer's onBlockedRequest, or the page's reports. */
let refused: string[] = [];
const refuse = (by: string, url: string) => {
  refused.push(`${by} ${url}`);
  bus.emit('change');
};

/** Waits, change by change, until `done()` holds; after `ms` fails saying what was still missing. */
async function until(done: () => boolean, missing: () => string, ms = 15_000): Promise<void> {
  const signal = AbortSignal.timeout(ms);
  while (!done()) {
    try {
      await once(bus, 'change', { signal });
    } catch {
      throw new Error(`not observed within ${ms} ms: ${missing()}`);
    }
  }
}

/** Waits until each of `expected` (`<by> <url>`) has been refused. */
const untilRefused = (expected: string[]) =>
  until(
    () => expected.every((e) => refused.includes(e)),
    () =>
      `${expected.filter((e) => !refused.includes(e)).join(', ')} (refused so far: ${refused.join(', ')})`,
  );

/** Waits until the browser process has exited: nothing it started can connect anywhere afterwards. */
async function exited(proc: ChildProcess | null): Promise<void> {
  expect(proc).not.toBeNull();
  if (proc!.exitCode === null && proc!.signalCode === null) await once(proc!, 'exit');
}

/** Ends the browser, waits for its exit, then for the sentinel's barrier: what reached the sentinel is all counted. */
async function endAndCount(end: () => Promise<void>): Promise<void> {
  await end();
  await sentinel.barrier();
}

/** Closes this test's renderer and waits for its browser to exit. */
async function endRenderer(): Promise<void> {
  const proc = renderer.browserProcess();
  const gone = exited(proc);
  await renderer.close();
  await gone;
}

beforeAll(async () => {
  requirePdftotext();
  sentinel = await startSentinel();
  dir = mkdtempSync(join(tmpdir(), 'documents-security-'));
});

afterAll(async () => {
  await new Promise((r) => sentinel?.server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  sentinel.reset();
  refused = [];
});

let n = 0;
function text(pdf: Buffer): string {
  const file = join(dir, `s-${++n}.pdf`);
  writeFileSync(file, pdf);
  return pdftotext(file);
}

/** Markup and CSS that would each make a request or read a file if anything let them. */
function hostileMarkup(S: string, port: number): string {
  const svgWithRef = encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image href="${S}/svg-in-img" width="10" height="10"/></svg>`,
  );
  return `<!doctype html><html><head>
  <base href="${S}/base/">
  <meta http-equiv="refresh" content="0;url=${S}/meta-refresh">
  <link rel="stylesheet" href="${S}/link-css">
  <link rel="stylesheet" href="file:///etc/passwd">
  <link rel="prefetch" href="${S}/prefetch">
  <link rel="preload" as="image" href="${S}/preload">
  <link rel="preconnect" href="${S}">
  <link rel="dns-prefetch" href="//localhost:${port}">
  <link rel="icon" href="${S}/icon">
  <link rel="manifest" href="${S}/manifest">
  <style>
    @import url(${S}/import);
    @import url("http://localhost:${port}/import-localhost");
    @font-face { font-family: Hostile; src: url(${S}/font) format("woff2"); }
    body { background: url(${S}/css-background); }
    .c { font-family: Hostile; cursor: url(${S}/cursor), auto; list-style-image: url(${S}/list);
         border: 10px solid; border-image: url(${S}/border-image) 30; mask-image: url(${S}/mask); }
    .d { background-image: image-set(url(${S}/image-set) 1x); }
    .e::before { content: url(${S}/content-url); }
  </style>
  <script src="${S}/script-src"></script>
</head><body>
  <h1 class="c d e">Documento hostil</h1>
  <img src="${S}/img"><img srcset="${S}/srcset 2x"><picture><source srcset="${S}/picture"><img></picture>
  <img src="relative-to-base.png">
  <img src="file:///etc/passwd"><iframe src="file:///etc/passwd"></iframe>
  <object data="file:///etc/passwd"></object><embed src="file:///etc/passwd">
  <iframe src="${S}/iframe"></iframe><iframe srcdoc="<img src='${S}/srcdoc-img'>"></iframe>
  <object data="${S}/object"></object><embed src="${S}/embed">
  <video src="${S}/video" poster="${S}/poster" autoplay><track src="${S}/track"></video><audio src="${S}/audio" autoplay></audio>
  <svg><image href="${S}/svg-image" width="10" height="10"/><use href="${S}/svg-use#x"/></svg>
  <img src="data:image/svg+xml,${svgWithRef}">
  <form action="${S}/form"><input type="image" src="${S}/input-image"></form>
  <a ping="${S}/ping" href="${S}/a">enlace</a>
  <script>document.body.append("SCRIPT-RAN"); fetch("${S}/fetch"); new WebSocket("ws://127.0.0.1:${port}/ws");</script>
  <p>Fin del documento</p>
</body></html>`;
}

/** Everything a script could try; it also writes SCRIPT-RAN so a test can tell it did run. */
function hostileScripts(S: string, port: number): string {
  return `<!doctype html><body><h1>Plantilla con script</h1><div id="out"></div><script>
  document.getElementById("out").textContent = "SCRIPT-RAN";
  console.log("SCRIPT-RAN");
  const tries = [
    () => fetch("${S}/fetch"),
    () => fetch("http://localhost:${port}/fetch-localhost", { mode: "no-cors" }),
    () => { const x = new XMLHttpRequest(); x.open("GET", "${S}/xhr"); x.send(); },
    () => { const x = new XMLHttpRequest(); x.open("GET", "${S}/xhr-sync", false); x.send(); },
    () => new WebSocket("ws://127.0.0.1:${port}/ws"),
    () => new WebSocket("ws://localhost:${port}/ws-localhost"),
    () => navigator.sendBeacon("${S}/beacon", "x"),
    () => new EventSource("${S}/eventsource"),
    () => { new Image().src = "${S}/new-image"; },
    () => import("${S}/dynamic-import.js"),
    () => new Worker("${S}/worker.js"),
    () => new Worker(URL.createObjectURL(new Blob(['fetch("${S}/from-worker")']))),
    () => window.open("${S}/window-open"),
    () => document.write('<img src="${S}/document-write">'),
    () => { const f = document.createElement("form"); f.action = "${S}/form-submit"; f.method = "post"; document.body.append(f); f.submit(); },
    () => { const i = document.createElement("iframe"); i.src = "${S}/js-iframe"; document.body.append(i); },
    () => { const l = document.createElement("link"); l.rel = "stylesheet"; l.href = "${S}/js-link"; document.head.append(l); },
    () => setTimeout(() => { location.href = "${S}/late-navigation"; }, 50),
    () => fetch("file:///etc/passwd").then(r => r.text()).then(t => { document.body.append(t); }),
  ];
  for (const t of tries) { try { Promise.resolve(t()).catch(() => {}); } catch (e) {} }
  </script><p>Fin</p></body>`;
}

describe('the sentinel', () => {
  it("counts, by its barrier, a connection attempted just before it (the tests' measuring instrument)", async () => {
    const early = connect(sentinel.port, '127.0.0.1'); // not awaited: still in flight when the barrier starts
    await sentinel.barrier();
    expect(sentinel.connections).toBe(1);
    early.destroy();
  });
});

describe('the renderer contains hostile HTML', () => {
  // A renderer per test, each ended (its browser's exit awaited) before the sentinel is read.
  beforeEach(() => {
    renderer = new Renderer({ onBlockedRequest: (url, by) => refuse(by, url) });
  });
  afterEach(async () => {
    await renderer.close();
  });

  it('markup and CSS: zero connections to the sentinel, no file read, no script run (PDF and PNG)', async () => {
    const S = `http://127.0.0.1:${sentinel.port}`;
    const html = hostileMarkup(S, sentinel.port);
    // What the CSP must be seen refusing, in each render (the frame is reported by its origin).
    const evidence = ['link-css', 'import', 'css-background', 'img', 'font', ''].map((p) => `csp ${S}/${p}`);
    const pdf = text(await renderer.renderPdf(html));
    expect(pdf).toContain('Documento hostil');
    expect(pdf).toContain('Fin del documento'); // still the document: the meta refresh did not take it away
    expect(pdf).not.toContain('SCRIPT-RAN');
    expect(pdf).not.toContain(PASSWD);
    expect(pdf).not.toContain('root:x:0:0');
    expect(pdf).not.toContain('SENTINEL-BODY');
    await untilRefused(evidence);
    refused = [];
    const png = await renderer.renderPng(html);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    await untilRefused(evidence);
    await endAndCount(endRenderer);
    expect(sentinel.seen).toEqual([]);
    expect(sentinel.connections).toBe(0);
  });

  it('scripts allowed (trusted-template mode): they run, yet fetch/XHR/WebSocket/beacon/workers/navigation reach nothing', async () => {
    const S = `http://127.0.0.1:${sentinel.port}`;
    const pdf = text(await renderer.renderPdf(hostileScripts(S, sentinel.port), { allowScripts: true }));
    expect(pdf).toContain('SCRIPT-RAN');
    expect(pdf).toContain('Plantilla con script');
    expect(pdf).not.toContain('root:x:0:0');
    // Refused by the CSP, and the late navigation (a 50 ms timer) by the request interception.
    await untilRefused([
      `csp ${S}/fetch`,
      `csp ${S}/xhr`,
      `csp ws://127.0.0.1:${sentinel.port}/ws`,
      `csp ${S}/new-image`,
      `interception ${S}/late-navigation`,
    ]);
    await endAndCount(endRenderer);
    expect(sentinel.seen).toEqual([]);
    expect(sentinel.connections).toBe(0);
  });

  it('the same scripts in caller mode (JavaScript off) do not run at all', async () => {
    const S = `http://127.0.0.1:${sentinel.port}`;
    const pdf = text(await renderer.renderPdf(hostileScripts(S, sentinel.port)));
    expect(pdf).toContain('Plantilla con script');
    // The script did not run, so none of its requests (timers included) is ever attempted: nothing to wait for.
    expect(pdf).not.toContain('SCRIPT-RAN');
    await endAndCount(endRenderer);
    expect(sentinel.connections).toBe(0);
  });

  it('header and footer templates reach nothing and read no file', async () => {
    const S = `http://127.0.0.1:${sentinel.port}`;
    const hostile =
      `<div style="font-size:9px;background:url(${S}/hdr-bg)">Cabecera <img src="${S}/hdr-img">` +
      `<img src="file:///etc/passwd"><iframe src="file:///etc/passwd"></iframe><iframe src="${S}/hdr-iframe"></iframe>` +
      `<object data="${S}/hdr-object"></object><svg><image href="${S}/hdr-svg"/></svg>` +
      `<script>document.write("SCRIPT-RAN"); fetch("${S}/hdr-fetch")</script>` +
      `<style>div { list-style-image: url(${S}/hdr-style-url) }</style></div>`;
    const pdf = text(await renderer.renderPdf('<p>Cuerpo</p>', { headerHtml: hostile, footerHtml: hostile }));
    // Header and footer are drawn while printing, which is over once renderPdf returns: what they could attempt,
    // they have attempted.
    expect(pdf).toContain('Cabecera');
    expect(pdf).not.toContain('SCRIPT-RAN');
    expect(pdf).not.toContain('root:x:0:0');
    await endAndCount(endRenderer);
    expect(sentinel.connections).toBe(0);
  });

  it('a meta refresh or a scripted navigation leaves the page on the document (no chrome-error page)', async () => {
    const S = `http://127.0.0.1:${sentinel.port}`;
    const refresh = `<meta http-equiv="refresh" content="0;url=${S}/r"><p>Sigo aquí</p>`;
    expect(text(await renderer.renderPdf(refresh))).toContain('Sigo aquí');
    const dataRefresh = `<meta http-equiv="refresh" content="0;url=data:text/html,<p>Otro</p>"><p>Sigo aquí</p>`;
    expect(text(await renderer.renderPdf(dataRefresh))).toContain('Sigo aquí');
    const scripted = `<p>Sigo aquí</p><script>location.href = "${S}/nav"</script>`;
    expect(text(await renderer.renderPdf(scripted, { allowScripts: true }))).toContain('Sigo aquí');
    await untilRefused([`interception ${S}/nav`]);
    await endAndCount(endRenderer);
    expect(sentinel.connections).toBe(0);
  });
});

describe('each containment layer alone blocks the network', () => {
  // Raw puppeteer with one layer at a time; the renderer's own pieces (args, CSP, request decision) are reused.
  let browser: Browser | undefined;
  afterEach(async () => {
    await endBrowser();
  });

  async function launch(args: string[]): Promise<Browser> {
    // Started as the renderer starts its browsers (a second start if the first exits as it starts): these tests
    // check what a running browser reaches, not its start.
    browser = await startBrowser({
      executablePath: await unpackedChromium(),
      headless: 'shell',
      pipe: true,
      args,
    });
    return browser;
  }
  /** Kills this test's browser and waits for its process to exit. */
  async function endBrowser(): Promise<void> {
    const proc = browser?.process() ?? null;
    browser = undefined;
    if (!proc) return;
    const gone = exited(proc);
    proc.kill('SIGKILL');
    await gone;
  }
  /** The page's own reports: `failed <url>` for each failed request, `csp <url>` for each CSP refusal. */
  function watch(page: Page): void {
    page.on('requestfailed', (req) => refuse('failed', req.url()));
    page.on('console', (m) => {
      const url = cspBlockedUrl(m.text());
      if (url) refuse('csp', url);
    });
  }
  // Chromium's own background traffic stays off in every variant; what is switched off is the refusing proxy, the
  // host-resolver rule (it also refuses IP literals, so it is a network layer of its own), the CSP and the request
  // blocking. The documents only name 127.0.0.1 and localhost, which Chromium resolves without DNS.
  const withoutContainment = () => [
    ...chromium.args.filter((a) => !(DROPPED_ARGS as readonly string[]).includes(a)),
    ...CONTAINMENT_ARGS.filter((a) => !a.startsWith('--proxy') && !a.startsWith('--host-resolver-rules')),
  ];
  const arrived = (expected: string[]) =>
    until(
      () => expected.every((e) => sentinel.seen.includes(e)),
      () =>
        `${expected.filter((e) => !sentinel.seen.includes(e)).join(', ')} (seen: ${sentinel.seen.join(', ')})`,
    );

  it('control: with no layer at all the same documents DO reach the sentinel (the payloads are live)', async () => {
    const b = await launch(withoutContainment());
    // A page per document: the first one's meta refresh navigates it away.
    await (await b.newPage()).setContent(hostileMarkup(`http://127.0.0.1:${sentinel.port}`, sentinel.port));
    await arrived(['GET /img', 'GET /import', 'GET /css-background', 'GET /meta-refresh']);
    await (await b.newPage()).setContent(hostileScripts(`http://127.0.0.1:${sentinel.port}`, sentinel.port));
    await arrived(['GET /fetch', 'GET /xhr', 'WS /ws']);
    if (process.env.SHOW_SENTINEL) console.log(sentinel.seen.join('\n'));
  });

  it.each([
    ['the refusing proxy', (a: string) => a.startsWith('--proxy')],
    ['the host-resolver rule', (a: string) => a.startsWith('--host-resolver-rules')],
  ])('browser flags only, %s: scripts on, no CSP, no interception', async (_name, pick) => {
    const S = `http://127.0.0.1:${sentinel.port}`;
    const b = await launch([...withoutContainment(), ...CONTAINMENT_ARGS.filter(pick)]);
    const page = await b.newPage();
    watch(page);
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    await page.setContent(hostileScripts(S, sentinel.port));
    expect(logged).toContain('SCRIPT-RAN'); // scripts did run
    // The navigation that surely starts is the form's submit (synchronous in the script); the 50 ms late navigation
    // may never start, when the failed submit has already replaced the document with an error page.
    await untilRefused([`failed ${S}/fetch`, `failed ${S}/xhr`, `failed ${S}/form-submit`]);
    // A fresh page for the markup: the first one is off to its (failed) late navigation's error page.
    const second = await b.newPage();
    watch(second);
    await second.setContent(hostileMarkup(S, sentinel.port));
    await untilRefused([`failed ${S}/img`, `failed ${S}/import`, `failed ${S}/css-background`]);
    await endAndCount(endBrowser);
    expect(sentinel.seen).toEqual([]);
    expect(sentinel.connections).toBe(0);
  });

  it('CSP only (scripts allowed by it, no proxy, no request blocking): every subresource and connection; top-level navigation is not its job', async () => {
    const S = `http://127.0.0.1:${sentinel.port}`;
    const b = await launch(withoutContainment());
    const page = await b.newPage();
    watch(page);
    await page.setRequestInterception(true);
    const docs = new Map<string, string>();
    page.on('request', (req) => {
      const body = docs.get(req.url());
      if (body !== undefined)
        void req.respond({
          status: 200,
          contentType: 'text/html; charset=utf-8',
          headers: { 'content-security-policy': contentSecurityPolicy({ allowScripts: true }) },
          body,
        });
      else void req.continue(); // this layer is off: everything else goes out
    });
    docs.set(`${DOCUMENT_ORIGIN}/a`, hostileScripts(S, sentinel.port));
    docs.set(`${DOCUMENT_ORIGIN}/b`, hostileMarkup(S, sentinel.port));
    await page.goto(`${DOCUMENT_ORIGIN}/a`);
    // The CSP refuses the script's requests; the late navigation is not its job and arrives (the script ran).
    await untilRefused([`csp ${S}/fetch`, `csp ${S}/xhr`, `csp ws://127.0.0.1:${sentinel.port}/ws`]);
    await arrived(['GET /late-navigation']);
    await page.goto(`${DOCUMENT_ORIGIN}/b`);
    await untilRefused([`csp ${S}/img`, `csp ${S}/import`, `csp ${S}/css-background`]);
    await arrived(['GET /meta-refresh']);
    await endAndCount(endBrowser);
    // CSP has no say over the page navigating itself (location.href; meta refresh once scripts are allowed in the
    // sandbox): request interception and the proxy stop those. Nothing else got through.
    expect(sentinel.seen.filter((r) => !/^GET \/(late-navigation|meta-refresh)$/.test(r))).toEqual([]);
  });

  it('request interception only (scripts on): every HTTP kind and navigation is aborted, WebSocket is not seen by it', async () => {
    const S = `http://127.0.0.1:${sentinel.port}`;
    const b = await launch(withoutContainment());
    const page = await b.newPage();
    watch(page);
    await page.setRequestInterception(true);
    const docs = new Map<string, string>([
      [`${DOCUMENT_ORIGIN}/a`, hostileScripts(S, sentinel.port)],
      [`${DOCUMENT_ORIGIN}/b`, hostileMarkup(S, sentinel.port)],
    ]);
    let documentUrl = '';
    page.on('request', (req) => {
      const decision = decideRequest({
        url: req.url(),
        isNavigation: req.isNavigationRequest(),
        isMainFrame: req.frame() === page.mainFrame(),
        documentUrl,
      });
      if (decision === 'serve-document')
        void req.respond({ status: 200, contentType: 'text/html', body: docs.get(req.url())! });
      else if (decision === 'continue') void req.continue();
      else void req.abort(req.isNavigationRequest() ? 'aborted' : 'blockedbyclient');
    });
    documentUrl = `${DOCUMENT_ORIGIN}/a`;
    await page.goto(documentUrl);
    await untilRefused([`failed ${S}/fetch`, `failed ${S}/xhr`, `failed ${S}/late-navigation`]);
    documentUrl = `${DOCUMENT_ORIGIN}/b`;
    await page.goto(documentUrl);
    await untilRefused([`failed ${S}/img`, `failed ${S}/import`, `failed ${S}/meta-refresh`]);
    await endAndCount(endBrowser);
    if (process.env.SHOW_SENTINEL) console.log(sentinel.seen.join('\n'));
    // DevTools request interception never sees WebSocket handshakes: the other layers stop those (docs/design-notes.md).
    expect(sentinel.seen.filter((r) => !r.startsWith('WS '))).toEqual([]);
  });
});
