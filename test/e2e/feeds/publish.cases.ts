// Publishing cases of test/e2e/feeds.test.ts: registration, a changing feed, the podcast it makes, the scheduler's
// conditional GETs and feeds that fail.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebVTTParser } from 'webvtt-parser';
import { ffprobe, postJson } from '../../helpers/runtime';
import {
  articlePage,
  auth,
  conversions,
  type Feed,
  feedEtag,
  type FeedsContext,
  files,
  getFeed,
  type Item,
  narratedAll,
  pages,
  requests,
  rt,
  setFeed,
  site,
  waitFeed,
  xml,
} from './stand';

export function publishCases(ctx: FeedsContext): void {
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
    ctx.feedId = created.feed_id;
    const f = await waitFeed(ctx.feedId, narratedAll(3));
    expect(f.last_poll).toMatchObject({ outcome: 'ok', entries: 3, queued: 3 });
    expect(f.entries.map((e) => e.narrations)).toEqual([1, 1, 1]);
    expect((await conversions()).length - before.length).toBe(3);
    // Listed with the account's feeds.
    const list = (await (await fetch(rt.url('/v1/feeds'), { headers: auth })).json()) as { feeds: Feed[] };
    expect(list.feeds.map((x) => x.feed_id)).toEqual([ctx.feedId]);
  });

  test('the feed changes: 1 new, 1 changed, 1 unchanged → exactly 2 new narrations', async () => {
    const before = await getFeed(ctx.feedId);
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
    const poll = await fetch(rt.url(`/v1/feeds/${ctx.feedId}/poll`), { method: 'POST', headers: auth });
    expect(poll.status).toBe(202);
    const f = await waitFeed(
      ctx.feedId,
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
    const res = await fetch((await getFeed(ctx.feedId)).podcast_url); // absolute, as the API gives it
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect(
      (await fetch(rt.url(`/feeds/${ctx.feedId}/podcast.xml`), { headers: { 'if-none-match': etag } }))
        .status,
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
    const again = xml.parse(
      await (await fetch(rt.url(`/feeds/${ctx.feedId}/podcast.xml`))).text(),
    ) as typeof doc;
    expect(again.rss.channel.item.map((i) => i.guid['#text'])).toEqual(guids);
  });

  test('the scheduler timer polls a resumed feed politely: If-None-Match → 304, nothing narrated', async () => {
    const conv = await conversions();
    const paused = await fetch(rt.url(`/v1/feeds/${ctx.feedId}`), {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'paused' }),
    });
    expect(paused.status).toBe(200);
    expect(((await paused.json()) as Feed).status).toBe('paused');
    const seen = requests.length;
    const resumed = await fetch(rt.url(`/v1/feeds/${ctx.feedId}`), {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'active' }),
    });
    expect(resumed.status).toBe(200);
    // No "poll now": the local scheduler (FEED_TICK_S=0.2) finds the resumed feed due and sends it.
    const f = await waitFeed(ctx.feedId, (x) => x.last_poll?.outcome === 'not_modified', 30_000);
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
}
