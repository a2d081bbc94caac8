// Reader cases of test/e2e/feeds.test.ts: the embed player on an article page (found by the feed, highlighting,
// listen beacons), first_play narration on the first press, and the refusals of the listens endpoints.
import { join } from 'node:path';
import { WebVTTParser } from 'webvtt-parser';
import { launchChromium, loopbackPage } from '../../helpers/browser';
import { spendWindow } from '../../helpers/quota-window';
import { until } from '../../helpers/until';
import { postJson } from '../../helpers/runtime';
import {
  articlePage,
  auth,
  conversions,
  type Feed,
  type FeedsContext,
  files,
  getFeed,
  pages,
  rt,
  site,
  waitFeed,
} from './stand';

export function playerCases(ctx: FeedsContext): void {
  test('the player on an article page finds its narration by the feed, highlights it, and its beacons are counted', async () => {
    const f = await getFeed(ctx.feedId);
    const a1 = f.entries.find((e) => e.url === site('/articulos/1.html'))!;
    // The page as the publisher's template renders it: the embed script with the feed id, following the article.
    ctx.playerTag = () =>
      `<script src="${rt.url('/embed.js')}" data-feed="${ctx.feedId}" data-follow="article" async></script>`;
    const blocked: string[] = [];
    const beacons: string[] = [];
    ctx.browser = await launchChromium(join(files.path, 'profile'));
    {
      const page = await loopbackPage(ctx.browser, blocked, async (req) => {
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
        const res = await fetch(rt.url(`/v1/feeds/${ctx.feedId}/listens?days=7`), { headers: auth });
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
        feed_id: ctx.feedId,
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
    ctx.playerTag = () => `<script src="${rt.url('/embed.js')}" data-feed="${idB}" async></script>`;
    const blocked: string[] = [];
    const page = await loopbackPage(ctx.browser!, blocked);
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
    const before = await (
      await fetch(rt.url(`/v1/feeds/${ctx.feedId}/listens?days=1`), { headers: auth })
    ).json();
    const beacon = (body: Record<string, string>) =>
      fetch(rt.url('/listens'), { method: 'POST', body: new URLSearchParams(body) });
    const a1 = (await getFeed(ctx.feedId)).entries[0]!;
    // A page the feed does not list: 404 from the lookup; an article key it does not list: 404, not counted.
    const lookup = await fetch(
      rt.url(`/feeds/${ctx.feedId}/article?url=${encodeURIComponent(site('/articulos/9.html'))}`),
    );
    expect(lookup.status).toBe(404);
    expect((await beacon({ feed_id: ctx.feedId, article: 'f'.repeat(24), event: 'play' })).status).toBe(404);
    const bad = await beacon({ feed_id: ctx.feedId, article: a1.key, event: 'like' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['body', 'event']);
    expect(
      await (await fetch(rt.url(`/v1/feeds/${ctx.feedId}/listens?days=1`), { headers: auth })).json(),
    ).toEqual(before);
    // The analytics: the free tier 401, a bad span 422.
    expect((await fetch(rt.url(`/v1/feeds/${ctx.feedId}/listens`))).status).toBe(401);
    expect((await fetch(rt.url(`/v1/feeds/${ctx.feedId}/listens?days=91`), { headers: auth })).status).toBe(
      422,
    );
    // The per-IP limit (20 an hour here, whatever this address sent before): beacons past it are 429 with
    // Retry-After (spendWindow: across a turn of the hour too).
    const { refused } = await spendWindow(
      20,
      () => beacon({ feed_id: ctx.feedId, article: a1.key, event: 'seek' }),
      { status: 204, earlier: 'unknown' },
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
}
