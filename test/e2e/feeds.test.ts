// Publisher feeds end to end against the local runtime (real espeak-ng, dynalite, s3rver, fauxqs; the feed poll and
// article workers as SQS pollers, the scheduler as a timer): an RSS feed and its article pages served from loopback
// (allow-listed through URL_FETCH_ALLOWLIST for this server only, as convert-url's tests do). Register a feed of 3 →
// 3 narrations; the feed changes (1 new, 1 changed, 1 unchanged) → exactly 2 new narrations; the podcast feed lists
// them, parsed with an XML parser: each enclosure's bytes and ffprobe duration match `length` and itunes:duration,
// transcripts parse as WebVTT, chapters as JSON. Then the scheduler timer, conditional GETs, errors and deletion.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { XMLParser } from 'fast-xml-parser';
import { WebVTTParser } from 'webvtt-parser';
import { dynamo } from '../../lambdas/shared/aws/clients';
import type { Browser } from 'puppeteer-core';
import { putApiKey } from '../helpers/api-keys';
import { launchChromium, loopbackPage } from '../helpers/browser';
import { until } from '../helpers/until';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { ffprobe, postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(180_000);

const KEY = 'key_feeds_' + 'b'.repeat(32);
const auth = { authorization: `Bearer ${KEY}` };

/** A short Spanish article page with two headings (narrated inline: under SYNC_MAX_CHARS). */
function articlePage(n: number, title: string, variant = ''): string {
  const p = (i: number) =>
    `<p>${variant}Párrafo ${i} del artículo ${n}. El ayuntamiento presentó el plan de movilidad para los próximos años, con nuevas líneas de autobús, carriles para bicicletas y más espacio para los peatones en el centro.</p>`;
  return `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>${title} | Diario</title></head>
<body><nav>Portada · Sociedad</nav><article><h1>${title}</h1><h2>Las propuestas</h2>${p(1)}${p(2)}<h2>Lo que sigue</h2>${p(3)}</article>
<footer>© Diario</footer></body></html>`;
}

const pages: Record<string, string> = {};
/** Put into each article page once set: the embed player with only its feed attribute (no per-article wiring). */
let playerTag = (_path: string) => '';
/** A second feed, registered in first_play mode: one article. */
const feedB = `<?xml version="1.0"?><rss version="2.0"><channel><title>Estrenos</title>
<item><title>Noticia de estreno</title><link>/articulos/b1.html</link><pubDate>Fri, 27 Nov 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`;
let browser: Browser | undefined;
let feedXml = '';
let feedEtag = '';
const requests: { path: string; ifNoneMatch?: string; status: number }[] = [];

function setFeed(items: { n: number; title: string; date: string; description: string }[]): void {
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

let tripwire: Tripwire;
let server: Server;
let port: number;
let rt: TestRuntime;
const files = tempDir('feeds-');
const site = (path: string) => `http://127.0.0.1:${port}${path}`;

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
    if (page) return done(200, page.replace('</body>', `${playerTag(path)}</body>`));
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
  await browser?.close();
  await rt?.stop();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  files.cleanup();
  tripwire?.uninstall();
});

interface Article {
  key: string;
  url: string;
  title: string | null;
  status: string;
  audio_id: string | null;
  narrations: number;
  error?: string;
}
interface Feed {
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

async function getFeed(id: string): Promise<Feed> {
  const res = await fetch(rt.url(`/v1/feeds/${id}`), { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as Feed;
}

/** Reads the feed until `done` holds (evidence), at most `ms`. */
async function waitFeed(id: string, done: (f: Feed) => boolean, ms = 90_000): Promise<Feed> {
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
async function conversions(): Promise<string[]> {
  const out = await dynamo().send(new ScanCommand({ TableName: rt.emulators.tableNames.audio }));
  return (out.Items ?? [])
    .map((i) => i.audioId as string)
    .filter((id) => !id.includes('#'))
    .sort();
}

const narratedAll = (n: number) => (f: Feed) =>
  f.entries.length === n && f.entries.every((e) => e.status === 'narrated' && e.audio_id);

let feedId = '';
/** An <item> as fast-xml-parser reads it (attributes as `@_name`, text as `#text` where there are attributes). */
interface Item {
  title: string;
  guid: { '#text': string };
  enclosure: { '@_url': string; '@_length': string; '@_type': string };
  'itunes:duration': string;
  'podcast:transcript': { '@_url': string; '@_type': string };
  'podcast:chapters': { '@_url': string; '@_type': string };
}
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Values stay the text the feed carries ("false", "00:00:41"), as a podcast app reads them.
  parseTagValue: false,
  isArray: (name) => name === 'item',
});

test('registration: free tier 401, a private address 422 without connecting, then a feed of 3 → 3 narrations', async () => {
  for (const n of [1, 2, 3]) pages[`/articulos/${n}.html`] = articlePage(n, `Noticia número ${n}`);
  setFeed([
    { n: 3, title: 'Noticia número 3', date: 'Wed, 25 Nov 2026 10:00:00 GMT', description: 'Tercera' },
    { n: 2, title: 'Noticia número 2', date: 'Tue, 24 Nov 2026 10:00:00 GMT', description: 'Segunda' },
    { n: 1, title: 'Noticia número 1', date: 'Mon, 23 Nov 2026 10:00:00 GMT', description: 'Primera' },
  ]);
  expect((await postJson(rt.url('/v1/feeds'), { url: site('/feed.xml') })).status).toBe(401);
  const privateAddr = await postJson(rt.url('/v1/feeds'), { url: 'http://10.0.0.7/feed.xml' }, auth);
  expect(privateAddr.status).toBe(422);
  expect(((await privateAddr.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
    'body',
    'url',
  ]);

  const unknownMode = await postJson(rt.url('/v1/feeds'), { url: site('/feed.xml'), mode: 'nunca' }, auth);
  expect(unknownMode.status).toBe(422);
  expect(((await unknownMode.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
    'body',
    'mode',
  ]);

  const before = await conversions();
  const res = await postJson(
    rt.url('/v1/feeds'),
    {
      url: site('/feed.xml'),
      voice: 'es-MX-Mia',
      podcast: {
        title: 'El Diario en audio',
        author: 'Diario de Prueba',
        category: 'News',
        language: 'es-MX',
        image: 'https://diario.example/portada.png',
      },
    },
    auth,
  );
  expect(res.status).toBe(201);
  const created = (await res.json()) as Feed & { mode: string };
  expect(created).toMatchObject({
    status: 'active',
    mode: 'publish',
    podcast_url: rt.url(`/feeds/${created.feed_id}/podcast.xml`),
  });
  feedId = created.feed_id;
  const f = await waitFeed(feedId, narratedAll(3));
  expect(f.last_poll).toMatchObject({ outcome: 'ok', entries: 3, queued: 3 });
  expect(f.entries.map((e) => e.narrations)).toEqual([1, 1, 1]);
  expect((await conversions()).length - before.length).toBe(3);
  // Listed with the account's feeds.
  const list = (await (await fetch(rt.url('/v1/feeds'), { headers: auth })).json()) as { feeds: Feed[] };
  expect(list.feeds.map((x) => x.feed_id)).toEqual([feedId]);
});

test('the feed changes: 1 new, 1 changed, 1 unchanged → exactly 2 new narrations', async () => {
  const before = await getFeed(feedId);
  const byUrl = (f: Feed, n: number) => f.entries.find((e) => e.url === site(`/articulos/${n}.html`))!;
  const conv = await conversions();
  pages['/articulos/2.html'] = articlePage(2, 'Noticia número 2', 'Actualizado: ');
  pages['/articulos/4.html'] = articlePage(4, 'Noticia número 4');
  setFeed([
    { n: 4, title: 'Noticia número 4', date: 'Thu, 26 Nov 2026 10:00:00 GMT', description: 'Cuarta' },
    {
      n: 2,
      title: 'Noticia número 2',
      date: 'Thu, 26 Nov 2026 09:00:00 GMT',
      description: 'Segunda, actualizada',
    },
    { n: 1, title: 'Noticia número 1', date: 'Mon, 23 Nov 2026 10:00:00 GMT', description: 'Primera' },
  ]);
  const poll = await fetch(rt.url(`/v1/feeds/${feedId}/poll`), { method: 'POST', headers: auth });
  expect(poll.status).toBe(202);
  const f = await waitFeed(
    feedId,
    (x) => narratedAll(3)(x) && byUrl(x, 2)?.narrations === 2 && !!byUrl(x, 4)?.audio_id,
  );
  expect(f.last_poll).toMatchObject({ outcome: 'ok', entries: 3, queued: 2 });
  const after = await conversions();
  expect(after.length - conv.length).toBe(2);
  expect(byUrl(f, 1)).toEqual(byUrl(before, 1)); // unchanged: same audio, same record
  expect(byUrl(f, 2).audio_id).not.toBe(byUrl(before, 2).audio_id);
  expect(byUrl(f, 4).narrations).toBe(1);
});

test('the podcast: RSS 2.0 + itunes + podcast namespaces; enclosures, durations, transcripts and chapters check out', async () => {
  const res = await fetch((await getFeed(feedId)).podcast_url); // absolute, as the API gives it
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  const etag = res.headers.get('etag')!;
  expect(etag).toMatch(/^W\/"/);
  expect(
    (await fetch(rt.url(`/feeds/${feedId}/podcast.xml`), { headers: { 'if-none-match': etag } })).status,
  ).toBe(304);
  const body = await res.text();
  const doc = xml.parse(body) as {
    rss: {
      '@_version': string;
      '@_xmlns:itunes': string;
      '@_xmlns:podcast': string;
      channel: Record<string, unknown> & { item: Item[] };
    };
  };
  expect(doc.rss['@_version']).toBe('2.0');
  expect(doc.rss['@_xmlns:itunes']).toBe('http://www.itunes.com/dtds/podcast-1.0.dtd');
  expect(doc.rss['@_xmlns:podcast']).toBe('https://podcastindex.org/namespace/1.0');
  const ch = doc.rss.channel;
  expect(ch).toMatchObject({
    title: 'El Diario en audio',
    language: 'es-MX',
    'itunes:author': 'Diario de Prueba',
    'itunes:category': { '@_text': 'News' },
    'itunes:image': { '@_href': 'https://diario.example/portada.png' },
    'itunes:explicit': 'false',
  });
  const items = ch.item;
  expect(items.map((i) => i.title)).toEqual(['Noticia número 4', 'Noticia número 2', 'Noticia número 1']);
  const guids = items.map((i) => i.guid['#text']);
  expect(new Set(guids).size).toBe(3);
  for (const item of items) {
    const enc = item.enclosure;
    expect(enc['@_type']).toBe('audio/mpeg');
    const audio = await fetch(enc['@_url']);
    expect(audio.status).toBe(200);
    const bytes = Buffer.from(await audio.arrayBuffer());
    expect(bytes.length).toBe(Number(enc['@_length']));
    const path = join(files.path, `${item.guid['#text']}.mp3`);
    writeFileSync(path, bytes);
    const probed = ffprobe(path);
    expect(probed.codec).toBe('mp3');
    const [h, m, s] = item['itunes:duration'].split(':').map(Number) as [number, number, number];
    expect(h * 3600 + m * 60 + s).toBe(Math.round(probed.duration));
    expect(probed.duration).toBeGreaterThan(10);

    const transcript = item['podcast:transcript'];
    expect(transcript['@_type']).toBe('text/vtt');
    const vtt = await (await fetch(transcript['@_url'])).text();
    const parsed = new WebVTTParser().parse(vtt, 'metadata');
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.length).toBeGreaterThan(2);
    expect(parsed.cues.map((c) => c.text).join(' ')).toContain(
      'El ayuntamiento presentó el plan de movilidad',
    );
    expect(parsed.cues.at(-1)!.endTime).toBeLessThanOrEqual(probed.duration + 0.5);

    const chaptersRef = item['podcast:chapters'];
    expect(chaptersRef['@_type']).toBe('application/json+chapters');
    const chapters = JSON.parse(await (await fetch(chaptersRef['@_url'])).text()) as {
      version: string;
      chapters: { startTime: number; title: string }[];
    };
    expect(chapters.version).toBe('1.2.0');
    expect(chapters.chapters.map((c) => c.title)).toEqual(['Las propuestas', 'Lo que sigue']);
    const [a, b] = chapters.chapters;
    expect(a!.startTime).toBeLessThan(b!.startTime);
    expect(b!.startTime).toBeLessThan(probed.duration);
  }
  // Stable GUIDs: the same article keeps its guid across polls and re-narrations.
  const again = xml.parse(await (await fetch(rt.url(`/feeds/${feedId}/podcast.xml`))).text()) as typeof doc;
  expect(again.rss.channel.item.map((i) => i.guid['#text'])).toEqual(guids);
});

test('the scheduler timer polls a resumed feed politely: If-None-Match → 304, nothing narrated', async () => {
  const conv = await conversions();
  const paused = await fetch(rt.url(`/v1/feeds/${feedId}`), {
    method: 'PATCH',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'paused' }),
  });
  expect(paused.status).toBe(200);
  expect(((await paused.json()) as Feed).status).toBe('paused');
  const seen = requests.length;
  const resumed = await fetch(rt.url(`/v1/feeds/${feedId}`), {
    method: 'PATCH',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'active' }),
  });
  expect(resumed.status).toBe(200);
  // No "poll now": the local scheduler (FEED_TICK_S=0.2) finds the resumed feed due and sends it.
  const f = await waitFeed(feedId, (x) => x.last_poll?.outcome === 'not_modified', 30_000);
  expect(f.last_poll).toMatchObject({ http_status: 304 });
  const polls = requests.slice(seen).filter((r) => r.path === '/feed.xml');
  expect(polls[0]).toEqual({ path: '/feed.xml', ifNoneMatch: feedEtag, status: 304 });
  expect(await conversions()).toEqual(conv);
});

test('feeds that fail: an HTTP 500 and a page that is no feed are recorded with their reason and a backoff', async () => {
  for (const [path, reason] of [
    ['/roto.xml', /answered 500/],
    ['/no-es-feed.xml', /not an RSS 2.0 or Atom feed or a sitemap/],
  ] as const) {
    const res = await postJson(rt.url('/v1/feeds'), { url: site(path) }, auth);
    expect(res.status).toBe(201);
    const id = ((await res.json()) as Feed).feed_id;
    const f = await waitFeed(id, (x) => x.last_poll?.outcome === 'error', 30_000);
    expect(f.last_poll!.error).toMatch(reason);
    expect(f.consecutive_failures).toBe(1);
    const next = (f as unknown as { next_poll_at: string }).next_poll_at;
    // Backoff: twice the interval (900 s) after one failure.
    expect(Math.abs(Date.parse(next) - Date.parse(f.last_poll!.at) - 1800_000)).toBeLessThan(1000);
    expect((await fetch(rt.url(`/v1/feeds/${id}`), { method: 'DELETE', headers: auth })).status).toBe(200);
  }
});

test('the player on an article page finds its narration by the feed, highlights it, and its beacons are counted', async () => {
  const f = await getFeed(feedId);
  const a1 = f.entries.find((e) => e.url === site('/articulos/1.html'))!;
  // The page as the publisher's template renders it: the embed script with the feed id, following the article.
  playerTag = () =>
    `<script src="${rt.url('/embed.js')}" data-feed="${feedId}" data-follow="article" async></script>`;
  const blocked: string[] = [];
  const beacons: string[] = [];
  browser = await launchChromium(join(files.path, 'profile'));
  {
    const page = await loopbackPage(browser, blocked, async (req) => {
      if (req.url().endsWith('/listens')) beacons.push(req.postData() ?? '');
      return false;
    });
    // Reached from a newsletter: tracking parameters and a fragment do not hide the page from its feed entry.
    await page.goto(site('/articulos/1.html?utm_source=boletin#comentarios'));
    await (await page.waitForSelector('voz-player >>> [part=boton]'))!.click();
    const ROOT = `document.querySelector('voz-player').shadowRoot`;
    const NOW = `(() => { const a = ${ROOT}.querySelector('audio'); const h = CSS.highlights.get('voz-frase');
      return { src: a.currentSrc, t: a.currentTime, d: a.duration, paused: a.paused, error: a.error ? a.error.code : null,
        ended: a.ended, hl: h ? [...h][0].toString() : null, title: ${ROOT}.querySelector('[part=titulo]').textContent }; })()`;
    type Now = {
      src: string;
      t: number;
      d: number;
      paused: boolean;
      error: number | null;
      ended: boolean;
      hl: string | null;
      title: string;
    };
    await page.waitForFunction(
      `(() => { const n = ${NOW}; return !n.paused && !n.error && n.t > 0.5 && n.hl; })()`,
      {
        timeout: 30_000,
        polling: 100,
      },
    );
    await (await page.$('voz-player >>> [part=boton]'))!.click();
    await page.waitForFunction(`${NOW}.paused`);
    const n = (await page.evaluate(NOW)) as Now;
    // Its own article's audio, with the article's title.
    expect(n.src).toContain(a1.audio_id!);
    expect(n.title).toBe('Noticia número 1');
    // The sentence under the playhead is highlighted in the page's article, although the narrated text differs
    // from the page's (blank lines between blocks, headings ending in a full stop): letters and digits match.
    const vtt = new WebVTTParser().parse(
      await (await fetch(rt.url(`/audio/${a1.audio_id}/timings?format=vtt`))).text(),
      'metadata',
    );
    const cue = vtt.cues.find((c) => c.startTime <= n.t && n.t < c.endTime)!;
    const letters = (x: string) => x.replace(/[^\p{L}\p{N}]/gu, '');
    expect(letters(n.hl!)).toBe(letters(cue.text));
    expect(letters(n.hl!).length).toBeGreaterThan(10);

    // To the end: the reader drags the slider near the end and plays on.
    await page.evaluate(`(() => { const s = ${ROOT}.querySelector('[part=posicion]');
      s.value = String(Math.floor(${n.d}) - 2); s.dispatchEvent(new Event('input')); })()`);
    await (await page.$('voz-player >>> [part=boton]'))!.click();
    await page.waitForFunction(`${NOW}.ended`, { timeout: 20_000, polling: 100 });

    // The analytics count one play and one 100 % listen of that article (beacons arrive asynchronously: evidence).
    type Stats = {
      days: { date: string; plays: number; completions: number }[];
      articles: {
        article: string;
        url: string;
        plays: number;
        q25: number;
        q50: number;
        q75: number;
        completions: number;
        seeks: number;
        listen_through: number;
      }[];
    };
    const stats = async () => {
      const res = await fetch(rt.url(`/v1/feeds/${feedId}/listens?days=7`), { headers: auth });
      expect(res.status).toBe(200);
      return (await res.json()) as Stats;
    };
    let s = await stats();
    s = await until(
      'one completed listen counted',
      async () => ((s = await stats()).articles[0]?.completions === 1 ? s : undefined),
      15_000,
      async () => s,
    );
    expect(s.articles).toEqual([
      {
        article: a1.key,
        url: a1.url,
        title: 'Noticia número 1',
        plays: 1,
        q25: 1,
        q50: 1,
        q75: 1,
        completions: 1,
        seeks: 1,
        listen_through: 1,
      },
    ]);
    expect(s.days).toHaveLength(7);
    expect(s.days.at(-1)).toMatchObject({
      date: new Date().toISOString().slice(0, 10),
      plays: 1,
      completions: 1,
    });
    // sendBeacon, form-encoded, nothing but the feed, the article and the event.
    expect(beacons.map((b) => Object.fromEntries(new URLSearchParams(b)))).toContainEqual({
      feed_id: feedId,
      article: a1.key,
      event: '100',
    });
    expect(blocked).toEqual([]);
    await page.close();
  }
});

test('first_play: a poll only records the article; the first press in the player narrates it, once', async () => {
  const res = await postJson(rt.url('/v1/feeds'), { url: site('/feed-b.xml'), mode: 'first_play' }, auth);
  expect(res.status).toBe(201);
  const idB = ((await res.json()) as Feed).feed_id;
  pages['/articulos/b1.html'] = articlePage(5, 'Noticia de estreno');
  const before = await conversions();
  const waiting = await waitFeed(
    idB,
    (x) => x.entries.length === 1 && x.entries[0]!.status === 'waiting_play',
  );
  expect(waiting.entries[0]).toMatchObject({ narrations: 0, audio_id: null });
  expect(await conversions()).toEqual(before);
  const lookupUrl = rt.url(`/feeds/${idB}/article?url=${encodeURIComponent(site('/articulos/b1.html'))}`);
  const offered = await fetch(lookupUrl);
  expect(offered.status).toBe(200);
  expect(offered.headers.get('cache-control')).toBe('no-store');
  expect(await offered.json()).toMatchObject({ audio_id: null, article: waiting.entries[0]!.key });

  // The reader presses play on the article: the player asks, is offered the page, and its POST narrates it.
  playerTag = () => `<script src="${rt.url('/embed.js')}" data-feed="${idB}" async></script>`;
  const blocked: string[] = [];
  const page = await loopbackPage(browser!, blocked);
  await page.goto(site('/articulos/b1.html'));
  await (await page.waitForSelector('voz-player >>> [part=boton]'))!.click();
  const NOW = `(() => { const a = document.querySelector('voz-player').shadowRoot.querySelector('audio');
    return { src: a.currentSrc, t: a.currentTime, paused: a.paused, error: a.error ? a.error.code : null }; })()`;
  await page.waitForFunction(`(() => { const n = ${NOW}; return !n.paused && !n.error && n.t > 0.5; })()`, {
    timeout: 60_000,
    polling: 100,
  });
  const played = ((await page.evaluate(NOW)) as { src: string }).src;
  const narrated = await waitFeed(idB, (x) => x.entries[0]!.status === 'narrated');
  expect(narrated.entries[0]!.narrations).toBe(1);
  expect(played).toContain(narrated.entries[0]!.audio_id!);
  const after = await conversions();
  expect(after.length - before.length).toBe(1);
  // Pressed again (another reader): the same audio, nothing narrated.
  const again = await fetch(lookupUrl, { method: 'POST' });
  expect(again.status).toBe(200);
  expect(((await again.json()) as { audio_id: string }).audio_id).toBe(narrated.entries[0]!.audio_id);
  expect(await conversions()).toEqual(after);
  expect(blocked).toEqual([]);
  await page.close();
  expect(
    (await fetch(rt.url(`/v1/feeds/${idB}?audio=delete`), { method: 'DELETE', headers: auth })).status,
  ).toBe(200);
});

test("listens: refusals are clear and count nothing; the analytics are the owner's", async () => {
  const before = await (await fetch(rt.url(`/v1/feeds/${feedId}/listens?days=1`), { headers: auth })).json();
  const beacon = (body: Record<string, string>) =>
    fetch(rt.url('/listens'), { method: 'POST', body: new URLSearchParams(body) });
  const a1 = (await getFeed(feedId)).entries[0]!;
  // A page the feed does not list: 404 from the lookup; an article key it does not list: 404, not counted.
  const lookup = await fetch(
    rt.url(`/feeds/${feedId}/article?url=${encodeURIComponent(site('/articulos/9.html'))}`),
  );
  expect(lookup.status).toBe(404);
  expect((await beacon({ feed_id: feedId, article: 'f'.repeat(24), event: 'play' })).status).toBe(404);
  const bad = await beacon({ feed_id: feedId, article: a1.key, event: 'like' });
  expect(bad.status).toBe(422);
  expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['body', 'event']);
  expect(await (await fetch(rt.url(`/v1/feeds/${feedId}/listens?days=1`), { headers: auth })).json()).toEqual(
    before,
  );
  // The analytics: the free tier 401, a bad span 422.
  expect((await fetch(rt.url(`/v1/feeds/${feedId}/listens`))).status).toBe(401);
  expect((await fetch(rt.url(`/v1/feeds/${feedId}/listens?days=91`), { headers: auth })).status).toBe(422);
  // The per-IP limit (20 an hour here): beacons past it are 429 with Retry-After.
  let last = 0;
  for (let i = 0; i < 25 && last !== 429; i++)
    last = (await beacon({ feed_id: feedId, article: a1.key, event: 'seek' })).status;
  expect(last).toBe(429);
});

test('delete with its audio: every narration the feed made is gone; another account sees 404', async () => {
  const other = await fetch(rt.url(`/v1/feeds/${feedId}`), {
    headers: { authorization: `Bearer key_other_${'c'.repeat(32)}` },
  });
  expect(other.status).toBe(401); // an unknown key
  const f = await getFeed(feedId);
  const ids = f.entries.map((e) => e.audio_id!);
  const res = await fetch(rt.url(`/v1/feeds/${feedId}?audio=delete`), { method: 'DELETE', headers: auth });
  expect(res.status).toBe(200);
  // a1, a2 (its second narration), a3 (no longer listed) and a4
  expect(await res.json()).toEqual({ deleted: true, audio_deleted: 4, audio_kept: 0 });
  for (const id of ids)
    expect((await fetch(rt.url(`/audio/${id}`), { redirect: 'manual' })).status).toBe(404);
  expect((await fetch(rt.url(`/v1/feeds/${feedId}`), { headers: auth })).status).toBe(404);
  expect((await fetch(rt.url(`/feeds/${feedId}/podcast.xml`))).status).toBe(404);
});

test('network rule: this process connected to loopback only', () => {
  expect(tripwire.attempts).toEqual([]);
});
