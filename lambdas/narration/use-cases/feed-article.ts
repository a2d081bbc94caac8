// Publisher feeds (docs/feeds.md), one article: the article worker (and a reader's first play) reads the page through
// the same path as POST /convert/url (article-source.ts: the SSRF boundary unchanged) and narrates it as the feed's
// owner unless its text is the one already narrated.
import { createHash } from 'node:crypto';
import type { Caller } from '../../shared/auth/resolve-caller';
import type { ApiKeyRecord } from '../../shared/auth/keys';
import { InvalidInput } from '../../shared/errors';
import { logger } from '../../shared/logger';
import type { SafeFetchOptions } from '../../shared/net/safe-fetch';
import { findVoice } from '../core/voices';
import type { FeedDeps } from '../feed-deps';
import type { ArticleRecord, FeedEntryState, FeedRecord } from '../ports';
import { readArticle } from './article-source';
import { startConversion } from './conversion';
import { speechRequest } from './speech-request';

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
  /** The page or its text cannot be narrated (a 422 of the convert path): recorded with the reason, not retried. */
  const failed = async (err: InvalidInput): Promise<'failed'> => {
    const error = err.items.map((i) => i.msg).join(' ');
    await deps.feeds.putArticle({ ...base, status: 'failed', error });
    logger.warn('feed article not narrated', { feedId, key, error });
    return 'failed';
  };
  let source;
  try {
    source = await readArticle(entry.url, () => deps.config.URL_FETCH_ALLOWLIST, opts.fetchOptions ?? {}, [
      'feed',
      'article',
    ]);
  } catch (err) {
    if (err instanceof InvalidInput) return failed(err);
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
    if (err instanceof InvalidInput) return failed(err);
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
