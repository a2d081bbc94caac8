// Publisher feeds (docs/feeds.md), the owner's side: a paid account registers an RSS/Atom feed or a sitemap, lists,
// pauses, polls now and deletes it (with or without its audio). The scheduler and the polls are feed-poll.ts's; each
// article's narration is feed-article.ts's. One message per feed and per article: no invocation loops over a
// publisher's whole site.
import { randomBytes } from 'node:crypto';
import type { Caller } from '../../shared/auth/resolve-caller';
import type { ApiKeyRecord } from '../../shared/auth/keys';
import { ownerOf } from '../../shared/auth/owner';
import { NotFound, Unauthenticated, invalid } from '../../shared/errors';
import { SafeFetchError, allowlistFrom, checkUrl } from '../../shared/net/safe-fetch';
import { findVoice } from '../core/voices';
import type { FeedDeps } from '../feed-deps';
import type { ArticleRecord, FeedMode, FeedRecord, PodcastInfo } from '../ports';
import type { AudioFormat } from '../core/formats';
import { withScheme } from './article-source';
import { speechRequest } from './speech-request';

export const PAID_ONLY_FEEDS =
  'Feeds are part of the paid plans: send "Authorization: Bearer <key>" with the key of a Pro, Lifetime or Scale plan.';

export interface RegisterFeedInput {
  url: string;
  voice?: string | undefined;
  fmt: AudioFormat;
  lexicons?: string[] | undefined;
  mode: FeedMode;
  podcast?: PodcastInfo | undefined;
}

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
