// Publisher feeds (docs/feeds.md), the polls: the scheduler sends each due feed to the poll queue; a poll reads the
// feed politely (If-None-Match / If-Modified-Since, backoff on errors) and sends each new or changed entry to the
// article queue (feed-article.ts narrates it).
import { createHash } from 'node:crypto';
import { logger } from '../../shared/logger';
import { SafeFetchError, allowlistFrom, safeFetch, type SafeFetchOptions } from '../../shared/net/safe-fetch';
import { FeedParseError, decodeFeed, parseFeed } from '../core/feeds/parse';
import type { FeedDeps } from '../feed-deps';
import type { FeedEntryState, FeedRecord } from '../ports';
import { FETCH_LIMITS } from './article-source';

/**
 * What a feed fetch may cost: an article page's limits (feeds are small; a huge one is a mistake or an attack), with
 * more time (a poll runs in a worker, not inside a request).
 */
export const FEED_FETCH_LIMITS = { ...FETCH_LIMITS, totalTimeoutMs: 15_000 } as const;
/** The longest a failing feed waits between two polls. */
export const MAX_BACKOFF_S = 86_400;
/** Feeds the scheduler hands out per tick (the rest wait for the next tick). */
export const TICK_BATCH = 500;

export const articleKey = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 24);

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
