// Screenshots of every page of both services (scripts/web-pages.ts), at a desktop (1280×800) and a phone (390×844)
// width, full length (at most MAX_HEIGHT px), into docs/screenshots/<service>-<page>-<width>.png. Runs the local runtime (emulators, no
// worker) and headless Chromium (@sparticuz/chromium); every non-loopback request is aborted and the run fails if
// any was tried. The dashboard is shown signed in, with a few real sign-ups and A/B events made through the API.
// Run: npm run screenshots
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { documentsManifest } from '../lambdas/documents/routes';
import { narrationManifest } from '../lambdas/narration/routes';
import { startLocal, type LocalRuntime } from '../lib/local/runtime';
import { launchChromium, loopbackPage } from '../test/helpers/browser';
import { tempDir } from '../test/helpers/env';
import { pageSlug, pagesOf } from './web-pages';

const OUT = join(__dirname, '..', 'docs', 'screenshots');
const TOKEN = 'screenshots-token-0123456789';
/** Pages longer than this are cut here (the top of the page). */
const MAX_HEIGHT = 4000;
const WIDTHS: [number, number][] = [
  [1280, 800],
  [390, 844],
];

async function post(url: string, body: unknown, ip: string): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
}

/** A few sign-ups and A/B events, so the dashboard has something to show. */
async function seed(base: string): Promise<void> {
  const people: [string, string, string | null][] = [
    ['ana@example.com', 'blog', 'pro'],
    ['beto@example.com', 'twitter', null],
    ['caro@example.com', 'twitter', 'lifetime'],
    ['dani@example.com', 'ab:precios:b:visitante-0001', 'pro'],
  ];
  let ip = 0;
  for (const [email, source, interest] of people)
    await post(`${base}/waitlist`, { email, source, interest }, `198.51.100.${++ip}`);
  for (let i = 0; i < 24; i++) {
    const visitor = `visitante-${String(i).padStart(4, '0')}`;
    await post(
      `${base}/ab/event`,
      { experiment: 'precios', visitor, type: 'exposure' },
      `198.51.100.${++ip}`,
    );
    if (i % 3 === 0)
      await post(
        `${base}/ab/event`,
        { experiment: 'precios', visitor, type: 'conversion' },
        `198.51.100.${ip}`,
      );
  }
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const data = tempDir('screenshots-');
  const profile = tempDir('screenshots-chrome-');
  let rt: LocalRuntime | undefined;
  const blocked: string[] = [];
  const browser = await launchChromium(profile.path);
  try {
    rt = await startLocal({
      dataDir: data.path,
      persist: false,
      startWorker: false,
      trustProxy: true,
      env: {
        DASHBOARD_TOKEN: TOKEN,
        AB_EXPERIMENTS: JSON.stringify({ precios: { variants: { a: 1, b: 1 } } }),
      },
    });
    await seed(rt.narrationUrl);
    const targets: [string, string, string][] = [
      ...pagesOf(narrationManifest).map(
        (p) => ['narration', p, rt!.narrationUrl + p] as [string, string, string],
      ),
      ...pagesOf(documentsManifest).map(
        (p) => ['documents', p, rt!.documentsUrl! + p] as [string, string, string],
      ),
    ];
    for (const [service, path, url] of targets) {
      for (const [width, height] of WIDTHS) {
        const page = await loopbackPage(browser, blocked);
        try {
          await page.setViewport({ width, height, deviceScaleFactor: 1 });
          if (path === '/panel')
            await page.evaluateOnNewDocument(
              `sessionStorage.setItem('voz-panel-token', ${JSON.stringify(TOKEN)})`,
            );
          const res = await page.goto(url, { waitUntil: 'networkidle0', timeout: 30_000 });
          if (!res || res.status() !== 200) throw new Error(`${url}: HTTP ${res?.status()}`);
          if (path === '/panel')
            await page.waitForFunction(`document.querySelector('#dashboard')?.hidden === false`, {
              timeout: 15_000,
            });
          const file = join(OUT, `${service}-${pageSlug(path)}-${width}.png`);
          // Full length up to MAX_HEIGHT (a long reference page would make a multi-megabyte PNG).
          const full = (await page.evaluate('document.documentElement.scrollHeight')) as number;
          await page.screenshot({
            path: file as `${string}.png`,
            captureBeyondViewport: true,
            clip: { x: 0, y: 0, width, height: Math.min(Math.max(full, height), MAX_HEIGHT) },
          });
          console.log(`${file.slice(OUT.length + 1)}  ${url}`);
        } finally {
          await page.close();
        }
      }
    }
    if (blocked.length) throw new Error(`pages asked for other hosts: ${blocked.join(', ')}`);
  } finally {
    await browser.close();
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
