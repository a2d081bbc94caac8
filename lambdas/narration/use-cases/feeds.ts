// Publisher feeds (docs/feeds.md): a paid account registers an RSS/Atom feed or a sitemap; the scheduler sends each
// due feed to the poll queue; a poll reads the feed politely (If-None-Match / If-Modified-Since, backoff on errors)
// and sends each new or changed entry to the article queue; the article worker reads the page through the same
// path as POST /convert/url (use-cases/article-source.ts: the SSRF boundary unchanged) and narrates it unless its
// text is unchanged. One message per feed and per article: no invocation loops over a publisher's whole site.
import { createHash, randomBytes } from 'node:crypto';
import type { Caller } from '../../shared/auth/resolve-caller';
import type { ApiKeyRecord } from '../../shared/auth/keys';
import { ownerOf } from '../../shared/auth/owner';
import { DomainError, InvalidInput, NotFound, Unauthenticated, invalid } from '../../shared/errors';
import { logger } from '../../shared/logger';
import {
  SafeFetchError,
  allowlistFrom,
  checkUrl,
  safeFetch,
  type SafeFetchOptions,
} from '../../shared/net/safe-fetch';
import { FeedParseError, decodeFeed, parseFeed } from '../core/feeds/parse';
import { findVoice } from '../core/voices';
import type { FeedDeps } from '../feed-deps';
import type { ArticleRecord, FeedEntryState, FeedMode, FeedRecord, PodcastInfo } from '../ports';
import type { AudioFormat } from '../core/formats';
import { readArticle, withScheme } from './article-source';
import { startConversion } from './conversion';
import { speechRequest } from './speech-request';

export const PAID_ONLY_FEEDS =
  'Feeds are part of the paid plans: send "Authorization: Bearer <key>" with the key of a Pro, Lifetime or Scale plan.';

/** What a feed fetch may cost (feeds are small; a huge one is a mistake or an attack). */
export const FEED_FETCH_LIMITS = {
  connectTimeoutMs: 5000,
  totalTimeoutMs: 15_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
} as const;
/** The longest a failing feed waits between two polls. */
export const MAX_BACKOFF_S = 86_400;
/** Feeds the scheduler hands out per tick (the rest wait for the next tick). */
export const TICK_BATCH = 500;

export interface RegisterFeedInput {
  url: string;
  voice?: string | undefined;
  fmt: AudioFormat;
  lexicons?: string[] | undefined;
  mode: FeedMode;
  podcast?: PodcastInfo | undefined;
}

export const articleKey = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 24);
const newFeedId = () => 'fd_' + randomBytes(12).toString('base64url');

/** The owner of the caller's feeds: its key's billing account (401 for the free tier). */
export function feedOwner(caller: Caller): { owner: string; key: ApiKeyRecord } {
  if (caller.kind !== 'key') throw new Unauthenticated(PAID_ONLY_FEEDS);
  return { owner: ownerOf(caller.key), key: caller.key };
}

/** The caller's feed, or 404 (someone else's feed is not confirmed to exist). */
async function ownFeed(deps: Pick<FeedDeps, 'feeds'>, caller: Caller, feedId: string): Promise<FeedRecord> {
  const { owner } = feedOwner(caller);
  const feed = /^fd_[A-Za-z0-9_-]{16}$/.test(feedId) ? await deps.feeds.get(feedId) : undefined;
  if (!feed || feed.owner !== owner) throw new NotFound('Feed not found.');
  return feed;
}

/**
 * The API's view of a feed (no key hash, no poll validators). `base`: the API's public address (publicBase: the
 * PUBLIC_BASE_URL setting, else the host the request came to), so `podcast_url` is what a podcast app subscribes to.
 */
export function feedView(feed: FeedRecord, base: string) {
  return {
    feed_id: feed.feedId,
    url: feed.url,
    kind: feed.kind ?? null,
    title: feed.title ?? null,
    voice: feed.voice,
    fmt: feed.fmt,
    lexicons: feed.lexicons ?? [],
    mode: feed.mode,
    status: feed.status,
    podcast: feed.podcast,
    podcast_url: `${base}/feeds/${feed.feedId}/podcast.xml`,
    created_at: feed.createdAt,
    poll_interval_s: feed.intervalS,
    next_poll_at: new Date(feed.nextPollAt * 1000).toISOString(),
    consecutive_failures: feed.failures,
    last_poll: feed.lastPoll
      ? {
          at: feed.lastPoll.at,
          outcome: feed.lastPoll.outcome,
          ...(feed.lastPoll.httpStatus !== undefined ? { http_status: feed.lastPoll.httpStatus } : {}),
          ...(feed.lastPoll.error !== undefined ? { error: feed.lastPoll.error } : {}),
          ...(feed.lastPoll.entries !== undefined ? { entries: feed.lastPoll.entries } : {}),
          ...(feed.lastPoll.queued !== undefined ? { queued: feed.lastPoll.queued } : {}),
        }
      : null,
    articles: feed.entries.length,
  };
}

export function articleView(a: ArticleRecord) {
  return {
    key: a.key,
    url: a.url,
    title: a.title ?? null,
    published: a.published ?? null,
    status: a.status,
    audio_id: a.audioId ?? null,
    narrations: a.narrations,
    ...(a.error ? { error: a.error } : {}),
    updated_at: a.updatedAt,
  };
}

export async function registerFeed(
  deps: FeedDeps,
  caller: Caller,
  input: RegisterFeedInput,
): Promise<FeedRecord> {
  const { owner, key } = feedOwner(caller);
  const voice = findVoice(input.voice ?? 'es-MX-Mia');
  if (!voice)
    throw invalid(['body', 'voice'], `Unknown voice '${input.voice}' (see GET /voices).`, 'value_error');
  const url = withScheme(input.url.trim());
  try {
    // The static part of the SSRF rules now (scheme, credentials, port, IP literals); every fetch re-checks all.
    checkUrl(url, allowlistFrom(deps.config.URL_FETCH_ALLOWLIST));
  } catch (err) {
    if (err instanceof SafeFetchError) throw invalid(['body', 'url'], err.message, `url_${err.code}`);
    throw err;
  }
  const mine = await deps.feeds.listByOwner(owner);
  if (mine.length >= deps.config.FEED_MAX_PER_ACCOUNT)
    throw invalid(
      ['body', 'url'],
      `An account may register at most ${deps.config.FEED_MAX_PER_ACCOUNT} feeds; delete one first.`,
      'feed_limit',
    );
  if (mine.some((f) => f.url === url))
    throw invalid(['body', 'url'], 'This feed is already registered for your account.', 'feed_exists');
  // Lexicon names are checked now (422 naming the unknown one), as a conversion would.
  if (input.lexicons?.length)
    await speechRequest(deps, caller, { text: 'a', lexicons: input.lexicons }, voice, {
      text: ['body', 'url'],
      lexicons: ['body', 'lexicons'],
    });
  const now = deps.now();
  const feed: FeedRecord = {
    feedId: newFeedId(),
    owner,
    keyHash: key.keyHash,
    ...(key.accountId ? { accountId: key.accountId } : {}),
    plan: key.plan,
    url,
    voice: voice.id,
    fmt: input.fmt,
    ...(input.lexicons?.length ? { lexicons: input.lexicons } : {}),
    mode: input.mode,
    podcast: input.podcast ?? {},
    status: 'active',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    intervalS: deps.config.FEED_POLL_INTERVAL_S,
    nextPollAt: Math.floor(now.getTime() / 1000) + deps.config.FEED_POLL_INTERVAL_S,
    failures: 0,
    entries: [],
  };
  await deps.feeds.create(feed);
  // The first poll now, not at the next tick.
  await deps.feedPolls.send({ feedId: feed.feedId });
  return feed;
}

export async function listFeeds(deps: Pick<FeedDeps, 'feeds'>, caller: Caller): Promise<FeedRecord[]> {
  const { owner } = feedOwner(caller);
  const feeds = await deps.feeds.listByOwner(owner);
  return feeds.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function getFeed(
  deps: Pick<FeedDeps, 'feeds'>,
  caller: Caller,
  feedId: string,
): Promise<{ feed: FeedRecord; articles: ArticleRecord[] }> {
  const feed = await ownFeed(deps, caller, feedId);
  const articles = await deps.feeds.articles(
    feedId,
    feed.entries.map((e) => e.key),
  );
  return { feed, articles };
}

/** Pause (no more polls; audio and podcast stay) or resume (polled at the next tick). */
export async function setFeedStatus(
  deps: Pick<FeedDeps, 'feeds' | 'now'>,
  caller: Caller,
  feedId: string,
  status: 'active' | 'paused',
): Promise<FeedRecord> {
  await ownFeed(deps, caller, feedId);
  const now = deps.now();
  const updated = await deps.feeds.update(feedId, {
    status,
    updatedAt: now.toISOString(),
    ...(status === 'active' ? { nextPollAt: Math.floor(now.getTime() / 1000), failures: 0 } : {}),
  });
  if (!updated) throw new NotFound('Feed not found.');
  return updated;
}

/** Sends a poll now (the publisher just published): 202. Paused feeds are resumed first by the caller. */
export async function pollNow(deps: FeedDeps, caller: Caller, feedId: string): Promise<FeedRecord> {
  const feed = await ownFeed(deps, caller, feedId);
  if (feed.status !== 'active')
    throw invalid(
      ['path', 'feed_id'],
      'The feed is paused: resume it first (PATCH {"status": "active"}).',
      'feed_paused',
    );
  await deps.feedPolls.send({ feedId });
  return feed;
}

/**
 * Deletes the feed and its article records. With `withAudio`, also the narrations it made. Those are the feed's own:
 * feed narrations are reused only within their feed (`reuseScope`, docs/reuse.md), so no convert request of the
 * account was ever answered with one, and deleting them breaks nobody else's audio. Without, the audio stays until
 * its retention ends (GET /audio/{id} keeps working for whoever holds an id).
 */
export async function deleteFeed(
  deps: FeedDeps,
  caller: Caller,
  feedId: string,
  withAudio: boolean,
): Promise<{ audioDeleted: number; audioKept: number }> {
  const feed = await ownFeed(deps, caller, feedId);
  // First stop it: a poll running now finds no feed and stops.
  await deps.feeds.remove(feedId);
  const articles = await deps.feeds.allArticles(feedId);
  let audioDeleted = 0;
  let audioKept = 0;
  for (const a of articles) {
    if (withAudio && a.audioId) {
      const record = await deps.audio.get(a.audioId);
      if (record && record.owner === feed.owner) {
        await deps.store.deleteAudio(record.audioId, record.fmt, record.segments?.length ?? 0);
        await deps.audio.remove(record.audioId);
        audioDeleted++;
      } else if (record) audioKept++;
    }
    await deps.feeds.removeArticle(feedId, a.key);
  }
  return { audioDeleted, audioKept };
}

/** The scheduler's tick: every active feed whose time has come goes to the poll queue once. */
export async function scheduleDuePolls(deps: FeedDeps): Promise<number> {
  const nowS = Math.floor(deps.now().getTime() / 1000);
  const due = await deps.feeds.due(nowS, TICK_BATCH);
  let sent = 0;
  for (const feed of due) {
    // Moved forward first: a slow poll is not sent again by the next tick (the poll sets the real next time).
    const claimed = await deps.feeds.update(feed.feedId, { nextPollAt: nowS + feed.intervalS });
    if (!claimed) continue;
    await deps.feedPolls.send({ feedId: feed.feedId });
    sent++;
  }
  if (sent) logger.info('feed polls scheduled', { sent });
  return sent;
}

const FEED_TYPES = null; // any media type: feeds are served as rss+xml, atom+xml, xml, text/xml or text/plain

/**
 * One poll of one feed (FeedPollWorker). 304 → nothing changed; 2xx → parse, then each entry that is new or whose
 * feed signature changed goes to the article queue; an error → backoff (the interval doubled per consecutive
 * failure, at most a day) and the error kept for GET /v1/feeds/{id}. Never throws for the feed's own problems.
 */
export async function pollFeed(
  deps: FeedDeps,
  feedId: string,
  fetchOptions: SafeFetchOptions = {},
): Promise<FeedRecord['lastPoll'] | undefined> {
  const feed = await deps.feeds.get(feedId);
  if (!feed || feed.status !== 'active') return undefined;
  const now = deps.now();
  const nowS = Math.floor(now.getTime() / 1000);
  const failed = async (error: string, httpStatus?: number) => {
    const failures = feed.failures + 1;
    const lastPoll = {
      at: now.toISOString(),
      outcome: 'error' as const,
      error,
      ...(httpStatus ? { httpStatus } : {}),
    };
    await deps.feeds.update(feedId, {
      failures,
      nextPollAt: nowS + Math.min(MAX_BACKOFF_S, feed.intervalS * 2 ** Math.min(failures, 16)),
      lastPoll,
    });
    logger.warn('feed poll failed', { feedId, failures, error });
    return lastPoll;
  };
  let page;
  try {
    page = await safeFetch(feed.url, {
      ...FEED_FETCH_LIMITS,
      ...fetchOptions,
      accept: FEED_TYPES,
      requireOk: false,
      headers: {
        ...(feed.etag ? { 'if-none-match': feed.etag } : {}),
        ...(feed.lastModified ? { 'if-modified-since': feed.lastModified } : {}),
      },
      allowlist: fetchOptions.allowlist ?? allowlistFrom(deps.config.URL_FETCH_ALLOWLIST),
    });
  } catch (err) {
    if (err instanceof SafeFetchError) return failed(err.message);
    throw err;
  }
  if (page.status === 304) {
    const lastPoll = { at: now.toISOString(), outcome: 'not_modified' as const, httpStatus: 304 };
    await deps.feeds.update(feedId, { failures: 0, nextPollAt: nowS + feed.intervalS, lastPoll });
    return lastPoll;
  }
  if (page.status < 200 || page.status >= 300)
    return failed(`The feed address answered ${page.status} instead of the feed.`, page.status);
  let parsed;
  try {
    parsed = parseFeed(decodeFeed(page.body, page.charset), page.url);
  } catch (err) {
    if (err instanceof FeedParseError) return failed(err.message, page.status);
    throw err;
  }
  const before = new Map(feed.entries.map((e) => [e.key, e.signature]));
  const entries: FeedEntryState[] = parsed.entries.map((e) => ({
    key: articleKey(e.url),
    url: e.url,
    ...(e.title ? { title: e.title } : {}),
    ...(e.published ? { published: e.published } : {}),
    signature: e.signature,
  }));
  const changed = entries.filter((e) => before.get(e.key) !== e.signature);
  // Messages first, each carrying its entry, then the feed's new state: a crash in between leaves the old
  // signatures, so the next poll sends those articles again — harmless, as an unchanged text is never narrated again.
  for (const e of changed) await deps.feedArticles.send(articleMessage(feedId, e));
  const lastPoll = {
    at: now.toISOString(),
    outcome: 'ok' as const,
    httpStatus: page.status,
    entries: entries.length,
    queued: changed.length,
  };
  const etag = page.headers.etag;
  const lastModified = page.headers['last-modified'];
  await deps.feeds.update(feedId, {
    entries,
    kind: parsed.kind,
    ...(parsed.title ? { title: parsed.title } : {}),
    ...(parsed.language ? { language: parsed.language } : {}),
    etag: typeof etag === 'string' ? etag : undefined,
    lastModified: typeof lastModified === 'string' ? lastModified : undefined,
    failures: 0,
    nextPollAt: nowS + feed.intervalS,
    lastPoll,
  });
  logger.info('feed polled', { feedId, entries: entries.length, queued: changed.length });
  return lastPoll;
}

/** The article queue's message: the entry as the poll read it (the worker does not depend on the feed's state). */
export function articleMessage(feedId: string, e: FeedEntryState): Record<string, string> {
  return {
    feedId,
    key: e.key,
    url: e.url,
    signature: e.signature,
    ...(e.title ? { title: e.title } : {}),
    ...(e.published ? { published: e.published } : {}),
  };
}

/** The caller a feed's narrations are made as: its registering key's account and plan. */
function feedCaller(feed: FeedRecord): Caller {
  const key: ApiKeyRecord = {
    keyHash: feed.keyHash,
    keyPrefix: '',
    plan: feed.plan === 'free' ? 'pro' : feed.plan,
    status: 'active',
    email: '',
    createdAt: feed.createdAt,
    ...(feed.accountId ? { accountId: feed.accountId } : {}),
  };
  return { kind: 'key', subject: `key#${feed.keyHash}`, key };
}

export type ArticleOutcome = 'narrated' | 'unchanged' | 'waiting_play' | 'failed' | 'gone';

/**
 * One article (FeedArticleWorker, and a reader's first play): read its page, and narrate it unless the text is the
 * one already narrated. In first-play mode a poll only records it (`play` narrates). A page that cannot be read is
 * recorded `failed` with the reason (not retried until the feed changes the entry); a backing-service outage throws
 * (the message is retried, then the DLQ).
 */
export async function processArticle(
  deps: FeedDeps,
  feedId: string,
  entry: FeedEntryState,
  opts: { play?: boolean; fetchOptions?: SafeFetchOptions } = {},
): Promise<ArticleOutcome> {
  const feed = await deps.feeds.get(feedId);
  // Deleted or paused meanwhile: nothing to do (a paused feed's reader can still ask: `play`).
  if (!feed || (feed.status !== 'active' && !opts.play)) return 'gone';
  const { key } = entry;
  const earlier = await deps.feeds.getArticle(feedId, key);
  const now = deps.now().toISOString();
  const base: ArticleRecord = {
    feedId,
    key,
    url: entry.url,
    ...(entry.title ? { title: entry.title } : {}),
    ...(entry.published ? { published: entry.published } : {}),
    signature: entry.signature,
    status: earlier?.status ?? 'waiting_play',
    narrations: earlier?.narrations ?? 0,
    ...(earlier?.contentHash ? { contentHash: earlier.contentHash } : {}),
    ...(earlier?.audioId ? { audioId: earlier.audioId } : {}),
    updatedAt: now,
  };
  if (feed.mode === 'first_play' && !opts.play && !earlier?.audioId) {
    await deps.feeds.putArticle({ ...base, status: 'waiting_play' });
    return 'waiting_play';
  }
  let source;
  try {
    source = await readArticle(entry.url, () => deps.config.URL_FETCH_ALLOWLIST, opts.fetchOptions ?? {}, [
      'feed',
      'article',
    ]);
  } catch (err) {
    if (err instanceof InvalidInput) {
      const error = err.items.map((i) => i.msg).join(' ');
      await deps.feeds.putArticle({ ...base, status: 'failed', error });
      logger.warn('feed article not readable', { feedId, key, error });
      return 'failed';
    }
    throw err;
  }
  const contentHash = createHash('sha256')
    .update(`${source.title}\u0000${source.narration.text}`)
    .digest('hex');
  if (earlier?.contentHash === contentHash && earlier.audioId) {
    const audio = await deps.audio.get(earlier.audioId);
    if (audio && audio.status !== 'failed') {
      await deps.feeds.putArticle({ ...base, status: 'narrated' });
      return 'unchanged';
    }
  }
  const voice = findVoice(feed.voice)!;
  const caller = feedCaller(feed);
  let out;
  try {
    const how = await speechRequest(
      deps,
      caller,
      { text: source.narration.text, lexicons: feed.lexicons },
      voice,
      {
        text: ['feed', 'article'],
        lexicons: ['feed', 'lexicons'],
      },
    );
    out = await startConversion(deps, {
      text: source.narration.text,
      voice,
      fmt: feed.fmt,
      caller,
      title: source.title,
      headings: source.narration.headings.map((h) => ({ text: h.text, offset: h.offset })),
      pauseS: how.breakS,
      // Long articles go to the priority queue and are not waited for: the podcast lists them once done.
      remainingMs: () => 0,
      // Reused only within this feed: deleting the feed with its audio then never breaks a convert request's audio.
      reuseScope: `feed#${feedId}`,
      ...(how.speech ? { speech: how.speech } : {}),
    });
  } catch (err) {
    if (err instanceof InvalidInput) {
      const error = err.items.map((i) => i.msg).join(' ');
      await deps.feeds.putArticle({ ...base, status: 'failed', error });
      return 'failed';
    }
    throw err;
  }
  const audioId = out.body.audio_id as string;
  const fresh = out.body.reused !== true || audioId !== earlier?.audioId;
  await deps.feeds.putArticle({
    ...base,
    title: source.title,
    status: 'narrated',
    contentHash,
    audioId,
    narrations: base.narrations + (fresh ? 1 : 0),
  });
  logger.info('feed article narrated', { feedId, key, audioId, reused: out.body.reused === true });
  return 'narrated';
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
