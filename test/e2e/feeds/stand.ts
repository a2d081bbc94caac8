// The stand of test/e2e/feeds.test.ts: the publisher's site (an RSS feed and its article pages on loopback), the
// runtime, and the readers of the feeds API. The test file calls standUp(ctx) once; the bindings below are live, and
// what the case groups share and change (the feed under test, the player tag, the browser) is in the context object.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { XMLParser } from 'fast-xml-parser';
import type { Browser } from 'puppeteer-core';
import { dynamo } from '../../../lambdas/shared/aws/clients';
import { putApiKey } from '../../helpers/api-keys';
import { tempDir } from '../../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../../helpers/loopback-only';
import { startRuntime, type TestRuntime } from '../../helpers/runtime';

/** What the case groups share and change, in test order. */
export interface FeedsContext {
  /** The publish-mode feed registered first and deleted last. */
  feedId: string;
  /** Put into each article page once set: the embed player with only its feed attribute (no per-article wiring). */
  playerTag: (path: string) => string;
  browser: Browser | undefined;
}

export const KEY = 'key_feeds_' + 'b'.repeat(32);
export const auth = { authorization: `Bearer ${KEY}` };

/** A short Spanish article page with two headings (narrated inline: under SYNC_MAX_CHARS). */
export function articlePage(n: number, title: string, variant = ''): string {
  const p = (i: number) =>
    `<p>${variant}Párrafo ${i} del artículo ${n}. El ayuntamiento presentó el plan de movilidad para los próximos años, con nuevas líneas de autobús, carriles para bicicletas y más espacio para los peatones en el centro.</p>`;
  return `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>${title} | Diario</title></head>
<body><nav>Portada · Sociedad</nav><article><h1>${title}</h1><h2>Las propuestas</h2>${p(1)}${p(2)}<h2>Lo que sigue</h2>${p(3)}</article>
<footer>© Diario</footer></body></html>`;
}

export const pages: Record<string, string> = {};
/** A second feed, registered in first_play mode: one article. */
const feedB = `<?xml version="1.0"?><rss version="2.0"><channel><title>Estrenos</title>
<item><title>Noticia de estreno</title><link>/articulos/b1.html</link><pubDate>Fri, 27 Nov 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`;
let feedXml = '';
export let feedEtag = '';
export const requests: { path: string; ifNoneMatch?: string; status: number }[] = [];

export function setFeed(items: { n: number; title: string; date: string; description: string }[]): void {
  feedXml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
<title>Diario de Prueba</title><link>${site('/')}</link><description>Noticias</description><language>es-MX</language>
${items
  .map(
    (i) =>
      `<item><title>${i.title}</title><link>${site(`/articulos/${i.n}.html`)}</link><guid>${site(`/articulos/${i.n}.html`)}</guid><pubDate>${i.date}</pubDate><description>${i.description}</description></item>`,
  )
  .join('\n')}
</channel></rss>`;
  feedEtag = `"v${Buffer.from(feedXml).length}-${items.length}"`;
}

export let tripwire: Tripwire;
let server: Server;
let port: number;
export let rt: TestRuntime;
export const files = tempDir('feeds-');
export const site = (path: string) => `http://127.0.0.1:${port}${path}`;

export function standUp(ctx: FeedsContext): void {
  beforeAll(async () => {
    tripwire = installLoopbackTripwire();
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      const done = (status: number, body: string, type = 'text/html; charset=utf-8', extra = {}) => {
        requests.push({
          path,
          ...(req.headers['if-none-match'] ? { ifNoneMatch: String(req.headers['if-none-match']) } : {}),
          status,
        });
        res.writeHead(status, { 'content-type': type, ...extra });
        res.end(body);
      };
      if (path === '/feed.xml') {
        if (req.headers['if-none-match'] === feedEtag)
          return done(304, '', 'application/rss+xml', { etag: feedEtag });
        return done(200, feedXml, 'application/rss+xml; charset=utf-8', { etag: feedEtag });
      }
      if (path === '/roto.xml') return done(500, 'error interno', 'text/plain');
      if (path === '/no-es-feed.xml') return done(200, '<html><body>Hola</body></html>', 'text/html');
      if (path === '/feed-b.xml') return done(200, feedB, 'application/rss+xml');
      const page = pages[path.split('?')[0]!];
      if (page) return done(200, page.replace('</body>', `${ctx.playerTag(path)}</body>`));
      return done(404, '<p>No existe</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    rt = await startRuntime({
      URL_FETCH_ALLOWLIST: `127.0.0.1:${port}`,
      SYNC_MAX_CHARS: '3000',
      FEED_TICK_S: '0.2',
      LISTENS_PER_HOUR: '20',
    });
    await putApiKey(rt, KEY, 'pro', 'cus_feeds');
  });

  afterAll(async () => {
    await ctx.browser?.close();
    await rt?.stop();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    files.cleanup();
    tripwire?.uninstall();
  });
}

export interface Article {
  key: string;
  url: string;
  title: string | null;
  status: string;
  audio_id: string | null;
  narrations: number;
  error?: string;
}
export interface Feed {
  feed_id: string;
  status: string;
  podcast_url: string;
  consecutive_failures: number;
  last_poll: {
    at: string;
    outcome: string;
    http_status?: number;
    error?: string;
    entries?: number;
    queued?: number;
  } | null;
  entries: Article[];
}

export async function getFeed(id: string): Promise<Feed> {
  const res = await fetch(rt.url(`/v1/feeds/${id}`), { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as Feed;
}

/** Reads the feed until `done` holds (evidence), at most `ms`. */
export async function waitFeed(id: string, done: (f: Feed) => boolean, ms = 90_000): Promise<Feed> {
  const until = Date.now() + ms;
  for (;;) {
    const f = await getFeed(id);
    if (done(f)) return f;
    if (Date.now() > until)
      throw new Error(`feed ${id} never reached the expected state: ${JSON.stringify(f)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Conversion records in the audio table (not reuse pointers). */
export async function conversions(): Promise<string[]> {
  const out = await dynamo().send(new ScanCommand({ TableName: rt.emulators.tableNames.audio }));
  return (out.Items ?? [])
    .map((i) => i.audioId as string)
    .filter((id) => !id.includes('#'))
    .sort();
}

export const narratedAll = (n: number) => (f: Feed) =>
  f.entries.length === n && f.entries.every((e) => e.status === 'narrated' && e.audio_id);

/** An <item> as fast-xml-parser reads it (attributes as `@_name`, text as `#text` where there are attributes). */
export interface Item {
  title: string;
  guid: { '#text': string };
  enclosure: { '@_url': string; '@_length': string; '@_type': string };
  'itunes:duration': string;
  'podcast:transcript': { '@_url': string; '@_type': string };
  'podcast:chapters': { '@_url': string; '@_type': string };
}
export const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Values stay the text the feed carries ("false", "00:00:41"), as a podcast app reads them.
  parseTagValue: false,
  isArray: (name) => name === 'item',
});
