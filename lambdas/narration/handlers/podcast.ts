// GET /feeds/{feed_id}/podcast.xml — a publisher feed as a podcast (core/feeds/podcast.ts builds the XML): every
// article the feed lists now whose narration is done, newest first. Public (podcast apps send no key). Cached:
// public, max-age=300 (a new episode reaches apps within five minutes of being narrated), weak ETag over the body,
// 304 on a matching If-None-Match.
import { createHash } from 'node:crypto';
import { NotFound } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { matchesEtag } from '../../shared/http/static-assets';
import { publicBase } from '../../shared/billing/web';
import { NARRATION_BILLING } from '../billing';
import { CONTENT_TYPE } from '../core/formats';
import { podcastXml, type PodcastEpisode } from '../core/feeds/podcast';
import { findVoice } from '../core/voices';
import { awsFeedDeps, type FeedDeps } from '../feed-deps';

export const CACHE_CONTROL = 'public, max-age=300';

export const makeHandler = (deps: Pick<FeedDeps, 'feeds' | 'audio' | 'config'>) =>
  apiHandler(async (req) => {
    const feedId = req.pathParams['feed_id'] ?? '';
    const feed = /^fd_[A-Za-z0-9_-]{16}$/.test(feedId) ? await deps.feeds.get(feedId) : undefined;
    if (!feed) throw new NotFound('Feed not found.');
    const base = publicBase(req, deps.config, NARRATION_BILLING);
    const articles = await deps.feeds.articles(
      feedId,
      feed.entries.map((e) => e.key),
    );
    const nowS = Date.now() / 1000;
    const episodes: PodcastEpisode[] = [];
    for (const a of articles) {
      if (a.status !== 'narrated' || !a.audioId) continue;
      const audio = await deps.audio.get(a.audioId);
      if (!audio || audio.status !== 'done' || audio.bytes === undefined || audio.expiresAt <= nowS) continue;
      const entry = feed.entries.find((e) => e.key === a.key);
      episodes.push({
        guid: `${feedId}-${a.key}`,
        title: a.title ?? audio.title ?? a.url,
        link: a.url,
        ...((entry?.published ?? a.published) ? { published: entry?.published ?? a.published } : {}),
        enclosure: {
          url: `${base}/audio/${audio.audioId}.${audio.fmt}`,
          bytes: audio.bytes,
          type: CONTENT_TYPE[audio.fmt],
        },
        durationS: audio.durationS ?? 0,
        ...(audio.timings
          ? {
              transcriptUrl: `${base}/audio/${audio.audioId}/timings?format=vtt`,
              chaptersUrl: `${base}/audio/${audio.audioId}/chapters.json`,
            }
          : {}),
      });
    }
    const p = feed.podcast;
    const body = podcastXml(
      {
        title: p.title ?? feed.title ?? new URL(feed.url).hostname,
        link: new URL(feed.url).origin,
        description:
          p.description ?? `Artículos de ${p.title ?? feed.title ?? new URL(feed.url).hostname}, narrados.`,
        language: p.language ?? feed.language ?? findVoice(feed.voice)?.lang ?? 'es',
        ...(p.author ? { author: p.author } : {}),
        ...(p.category ? { category: p.category } : {}),
        ...(p.image ? { image: p.image } : {}),
        explicit: p.explicit ?? false,
        selfUrl: `${base}/feeds/${feedId}/podcast.xml`,
        guid: feedId,
      },
      episodes,
    );
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    const headers = {
      'content-type': 'application/rss+xml; charset=utf-8',
      'cache-control': CACHE_CONTROL,
      etag,
      'access-control-allow-origin': '*',
    };
    if (matchesEtag(req.headers['if-none-match'], etag)) return { statusCode: 304, headers, body: '' };
    return { statusCode: 200, headers, body };
  });

export const handler = makeHandler(awsFeedDeps());
