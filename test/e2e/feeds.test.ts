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
import { putApiKey } from '../helpers/api-keys';
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
    const page = pages[path];
    if (page) return done(200, page);
    return done(404, '<p>No existe</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  rt = await startRuntime({
    URL_FETCH_ALLOWLIST: `127.0.0.1:${port}`,
    SYNC_MAX_CHARS: '3000',
    FEED_TICK_S: '0.2',
  });
  await putApiKey(rt, KEY, 'pro', 'cus_feeds');
});

afterAll(async () => {
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

  // first_play waits for the player's feed mode: refused rather than registering a feed that never narrates.
  const firstPlay = await postJson(rt.url('/v1/feeds'), { url: site('/feed.xml'), mode: 'first_play' }, auth);
  expect(firstPlay.status).toBe(422);
  expect(((await firstPlay.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
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
    podcast_url: `/feeds/${created.feed_id}/podcast.xml`,
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
  const res = await fetch(rt.url(`/feeds/${feedId}/podcast.xml`));
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
