// The embed player on a publisher's page (docs/feeds.md "The player on the article"): it finds the narration of the
// page it sits on through the page's feed, sends listen beacons (play, 25/50/75/100 %, seek) and the feed's owner
// reads the counts. Private by construction: no cookie, no visitor id, no address or user agent is stored; a
// beacon adds 1 to a counter of (feed, UTC day, article, event), and the caller's IP only meets the per-IP rate
// limit as a hash (`listen#ip#…` quota windows that expire with their hour).
import { NotFound, invalid } from '../../shared/errors';
import { chargePerIp } from '../../shared/growth/limits';
import { ipSubject } from '../../shared/auth/resolve-caller';
import type { Caller } from '../../shared/auth/resolve-caller';
import type { FeedDeps } from '../feed-deps';
import type { FeedEntryState, FeedRecord } from '../ports';
import { feedOwner } from './feeds';
import { processArticle } from './feed-article';

/** What a beacon may say: a play starts, a quarter of the audio is reached, the reader seeks. */
export const LISTEN_EVENTS = ['play', '25', '50', '75', '100', 'seek'] as const;
export type ListenEvent = (typeof LISTEN_EVENTS)[number];
/** Days a day of counters is kept (DynamoDB TTL), and the longest span one analytics read covers. */
export const LISTEN_KEEP_DAYS = 400;
export const MAX_LISTEN_DAYS = 90;

const FEED_ID = /^fd_[A-Za-z0-9_-]{16}$/;

async function publicFeed(deps: Pick<FeedDeps, 'feeds'>, feedId: string): Promise<FeedRecord> {
  const feed = FEED_ID.test(feedId) ? await deps.feeds.get(feedId) : undefined;
  if (!feed) throw new NotFound('Feed not found.');
  return feed;
}

/**
 * The form of an address two writers of the same page agree on: no fragment, no tracking parameters (utm_*, fbclid,
 * gclid), no trailing slash on the path, host in lower case, default port dropped (WHATWG URL does the last two).
 */
export function pageKey(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  u.hash = '';
  for (const name of [...u.searchParams.keys()])
    if (/^(utm_|fbclid$|gclid$|mc_)/i.test(name)) u.searchParams.delete(name);
  u.pathname = u.pathname.replace(/\/+$/, '') || '/';
  return u.href;
}

export interface PageNarration {
  /** null: a `first_play` feed's article not narrated yet (POST narrates it). */
  audio_id: string | null;
  article: string;
  url: string;
  title: string | null;
}

/**
 * The narration of the page at `url` in feed `feedId`: the entry the feed lists now whose link is that page. 404 when
 * the feed does not list it, or lists it without a narration (yet, or failed: the reason is in GET /v1/feeds/{id}).
 */
export async function findPageNarration(
  deps: Pick<FeedDeps, 'feeds'>,
  feedId: string,
  url: string,
): Promise<PageNarration & { feed: FeedRecord; entry: FeedEntryState }> {
  const wanted = pageKey(url);
  if (!wanted)
    throw invalid(['query', 'url'], 'url should be the http(s) address of the page.', 'url_parsing');
  const feed = await publicFeed(deps, feedId);
  const entry = feed.entries.find((e) => pageKey(e.url) === wanted);
  if (!entry) throw new NotFound('This page is not in the feed (yet): the next poll will find it.');
  const article = await deps.feeds.getArticle(feedId, entry.key);
  const narrated = article?.status === 'narrated' && article.audioId;
  // A first-play feed's article is offered (audio_id null) until a reader's press narrates it.
  if (!narrated && !(feed.mode === 'first_play' && article?.status !== 'failed'))
    throw new NotFound('This page has no narration yet.');
  return {
    audio_id: narrated ? article.audioId! : null,
    article: entry.key,
    url: entry.url,
    title: article?.title ?? entry.title ?? null,
    feed,
    entry,
  };
}

/**
 * A reader's press on a `first_play` feed's article (the embed player): narrated now as the feed's owner, once —
 * an article already narrated answers its audio, and processArticle never narrates an unchanged text again. Public,
 * so limited per IP (FIRST_PLAYS_PER_HOUR), and only for articles the feed lists.
 */
export async function narrateOnFirstPlay(
  deps: FeedDeps,
  clientIp: string,
  feedId: string,
  url: string,
): Promise<{ found: PageNarration; limits: Record<string, string> }> {
  const { feed, entry, ...found } = await findPageNarration(deps, feedId, url);
  if (found.audio_id) return { found, limits: {} };
  const limits = await chargePerIp(
    deps.quotas,
    `firstplay#${ipSubject(clientIp)}`,
    [{ period: 'hour', limit: deps.config.FIRST_PLAYS_PER_HOUR }],
    deps.now(),
    'first plays',
  );
  await processArticle(deps, feed.feedId, entry, { play: true });
  const article = await deps.feeds.getArticle(feed.feedId, entry.key);
  if (!article?.audioId || article.status !== 'narrated')
    throw new NotFound(article?.error ?? 'This page has no narration yet.');
  return { found: { ...found, audio_id: article.audioId, title: article.title ?? found.title }, limits };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * One beacon: rate-limited per IP (429 past LISTENS_PER_HOUR), then +1 on the day's counter of the article and
 * event. Only articles the feed recorded are counted (no counter can be made up): the check reads the article's own
 * small item, not the feed's record with its whole entry list (half a read unit instead of ~7: docs/operations/cost.md).
 */
export async function recordListen(
  deps: Pick<FeedDeps, 'feeds' | 'quotas' | 'config' | 'now'>,
  clientIp: string,
  input: { feed_id: string; article: string; event: ListenEvent },
): Promise<Record<string, string>> {
  const now = deps.now();
  const limits = await chargePerIp(
    deps.quotas,
    `listen#${ipSubject(clientIp)}`,
    [{ period: 'hour', limit: deps.config.LISTENS_PER_HOUR }],
    now,
    'listen beacons',
  );
  if (!FEED_ID.test(input.feed_id)) throw new NotFound('Feed not found.');
  if (!(await deps.feeds.hasArticle(input.feed_id, input.article)))
    throw new NotFound('The feed does not list this article.');
  await deps.feeds.countListen(
    input.feed_id,
    day(now),
    [`${input.article}_${input.event}`],
    Math.floor(now.getTime() / 1000) + LISTEN_KEEP_DAYS * 86_400,
  );
  return limits;
}

interface Counts {
  plays: number;
  q25: number;
  q50: number;
  q75: number;
  completions: number;
  seeks: number;
}
const zero = (): Counts => ({ plays: 0, q25: 0, q50: 0, q75: 0, completions: 0, seeks: 0 });
const FIELD: Record<ListenEvent, keyof Counts> = {
  play: 'plays',
  '25': 'q25',
  '50': 'q50',
  '75': 'q75',
  '100': 'completions',
  seek: 'seeks',
};
const through = (c: Counts) => (c.plays ? Math.round((c.completions / c.plays) * 1000) / 1000 : 0);

/** The owner's counts over the last `days` UTC days (today included): per day, and per article (most played first). */
export async function listenStats(
  deps: Pick<FeedDeps, 'feeds' | 'now'>,
  caller: Caller,
  feedId: string,
  days: number,
) {
  const { owner } = feedOwner(caller);
  const feed = FEED_ID.test(feedId) ? await deps.feeds.get(feedId) : undefined;
  if (!feed || feed.owner !== owner) throw new NotFound('Feed not found.');
  const today = deps.now().getTime();
  const dates = Array.from({ length: days }, (_, i) => day(new Date(today - (days - 1 - i) * 86_400_000)));
  const stored = await deps.feeds.listenDays(feedId, dates);
  const perArticle = new Map<string, Counts>();
  const perDay = dates.map((date) => {
    const total = zero();
    for (const [name, n] of Object.entries(stored.get(date) ?? {})) {
      const cut = name.lastIndexOf('_');
      const field = FIELD[name.slice(cut + 1) as ListenEvent];
      if (!field || typeof n !== 'number') continue;
      const key = name.slice(0, cut);
      const a = perArticle.get(key) ?? zero();
      a[field] += n;
      total[field] += n;
      perArticle.set(key, a);
    }
    return { date, ...total, listen_through: through(total) };
  });
  const listed = new Map(feed.entries.map((e) => [e.key, e]));
  const articles = await deps.feeds.articles(feedId, [...perArticle.keys()]);
  const known = new Map(articles.map((a) => [a.key, a]));
  return {
    feed_id: feedId,
    from: dates[0]!,
    to: dates[dates.length - 1]!,
    days: perDay,
    articles: [...perArticle.entries()]
      .map(([key, c]) => ({
        article: key,
        url: listed.get(key)?.url ?? known.get(key)?.url ?? null,
        title: listed.get(key)?.title ?? known.get(key)?.title ?? null,
        ...c,
        listen_through: through(c),
      }))
      .sort((a, b) => b.plays - a.plays || b.completions - a.completions),
  };
}
