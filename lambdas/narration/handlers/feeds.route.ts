// /v1/feeds: publisher feeds (paid keys). The six routes' specs (one handler, feeds.ts) and the request bodies.
// use-cases/feeds.ts has the rules; docs/feeds.md the whole picture. routes.ts lists them.
import { z } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import type { RouteDoc } from '../../shared/http/route-doc';
import { CONVERSION_PREFIXES } from '../bucket';
import { LEXICON_ITEM_PREFIX } from '../adapters/item-prefixes';
import { common } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';
import { fmtField, lexiconsField, voiceField } from '../requests';
import { MAX_URL_CHARS } from './convert-url.route';
import { chars } from '../../shared/validation';

const handler = 'lambdas/narration/handlers/feeds.ts';

const httpUrl = z
  .string()
  .max(MAX_URL_CHARS)
  .refine((v) => /^https?:\/\//i.test(v), 'An http(s) address');

export const PodcastReq = z
  .object({
    title: chars(1, 200).optional(),
    author: chars(1, 200).optional(),
    category: chars(1, 100).optional(),
    language: z
      .string()
      .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'A language tag like "es" or "es-MX"')
      .optional(),
    image: httpUrl.optional(),
    description: chars(1, 4000).optional(),
    explicit: z.boolean().optional(),
  })
  .strict();

export const CreateFeedReq = z
  .object({
    url: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), chars(1, MAX_URL_CHARS)),
    voice: voiceField,
    fmt: fmtField,
    lexicons: lexiconsField,
    // `first_play`: a poll only records the article; the embed player's first press narrates it (docs/feeds.md).
    mode: z.enum(['publish', 'first_play']).default('publish'),
    podcast: PodcastReq.optional(),
  })
  .strict();

export const UpdateFeedReq = z.object({ status: z.enum(['active', 'paused']) }).strict();

const PollView = z.object({
  at: z.string(),
  outcome: z.enum(['ok', 'not_modified', 'error']),
  http_status: z.int().optional(),
  error: z.string().optional(),
  entries: z.int().optional(),
  queued: z.int().optional(),
});

export const FeedView = z.object({
  feed_id: z.string(),
  url: z.string(),
  kind: z.enum(['rss', 'atom', 'sitemap']).nullable(),
  title: z.string().nullable(),
  voice: z.string(),
  fmt: z.string(),
  lexicons: z.array(z.string()),
  mode: z.enum(['publish', 'first_play']),
  status: z.enum(['active', 'paused']),
  podcast: PodcastReq,
  podcast_url: z.string().meta({
    description:
      "The podcast RSS feed of this feed (public): an absolute URL on the API's public address (the " +
      'PUBLIC_BASE_URL setting, else the host the request came to), what a podcast app subscribes to',
  }),
  created_at: z.string(),
  poll_interval_s: z.int(),
  next_poll_at: z.string(),
  consecutive_failures: z.int(),
  last_poll: PollView.nullable(),
  articles: z.int().meta({ description: 'Entries the feed lists now' }),
});

export const ArticleView = z.object({
  key: z.string(),
  url: z.string(),
  title: z.string().nullable(),
  published: z.string().nullable(),
  status: z.enum(['waiting_play', 'narrated', 'failed']),
  audio_id: z.string().nullable(),
  narrations: z.int(),
  error: z.string().optional(),
  updated_at: z.string(),
});

const feedId = {
  name: 'feed_id',
  in: 'path' as const,
  description: 'The feed id (fd_…)',
  schema: { type: 'string' as const },
};
const notFound = { description: 'No such feed in this account', schema: ErrorDetail };

const base = {
  handler,
  memoryMb: 256,
  timeoutS: 10,
  access: {
    tables: { keys: 'r', feeds: 'r' },
  },
} as const;

/** What every route on one of the caller's feeds documents alike. */
const oneFeed: Pick<RouteDoc, 'tags' | 'bearer' | 'params'> = {
  tags: ['feeds'],
  bearer: 'required',
  params: [feedId],
};
const oneFeedErrors = { 401: common[401], 404: notFound, 422: common[422] };

export const feedCreateRoute = {
  ...base,
  id: 'FeedCreate',
  method: 'POST',
  path: '/v1/feeds',
  maxBodyBytes: 16 * 1024,
  access: {
    // accounts: the lexicons named are checked to exist
    tables: { keys: 'r', feeds: 'rw', accounts: 'r' },
    // byOwner: the account's feeds are counted against its limit
    queries: { feeds: ['byOwner'] },
    itemPrefixes: { accounts: [LEXICON_ITEM_PREFIX] },
    sendTo: ['feedpolls'],
  },
  docs: {
    summary: 'Register a feed (RSS, Atom or sitemap)',
    tags: ['feeds'],
    bearer: 'required',
    description:
      'Polls the feed (first poll at once, then every 15 min; ETag / If-Modified-Since; failures back off, doubling, ' +
      'up to a day) and narrates each new or changed article through the same path as POST /convert/url (public ' +
      'addresses only). `mode`: `publish` narrates when a poll finds the article; `first_play` only records it, and the ' +
      "embed player's first press on the article narrates it (docs/feeds.md). An unchanged article is never " +
      'narrated again. `podcast`: what ' +
      '/feeds/{feed_id}/podcast.xml says about the show. Paid keys only; at most 20 feeds per account.',
    body: {
      schema: CreateFeedReq,
      contentTypes: ['application/json'],
      example: {
        url: 'https://www.example.com/noticias/feed.xml',
        voice: 'es-MX-Mia',
        fmt: 'mp3',
        mode: 'publish',
        podcast: {
          title: 'Noticias del día, narradas',
          author: 'Redacción',
          category: 'News',
          language: 'es-MX',
        },
      },
    },
    responses: { 201: { description: 'Registered', schema: FeedView }, 401: common[401], 422: common[422] },
  },
} satisfies RouteSpec;

export const feedListRoute = {
  ...base,
  id: 'FeedList',
  method: 'GET',
  path: '/v1/feeds',
  access: { ...base.access, queries: { feeds: ['byOwner'] } },
  docs: {
    summary: "List the account's feeds",
    tags: ['feeds'],
    bearer: 'required',
    responses: {
      200: { description: 'Feeds, oldest first', schema: z.object({ feeds: z.array(FeedView) }) },
      401: common[401],
    },
  },
} satisfies RouteSpec;

export const feedGetRoute = {
  ...base,
  id: 'FeedGet',
  method: 'GET',
  path: '/v1/feeds/{feed_id}',
  docs: {
    summary: 'A feed, its last poll and its articles',
    tags: ['feeds'],
    bearer: 'required',
    params: [feedId],
    responses: {
      200: {
        description: 'The feed and the articles it lists now (status, audio, narrations)',
        schema: FeedView.extend({ entries: z.array(ArticleView) }),
      },
      401: common[401],
      404: notFound,
    },
  },
} satisfies RouteSpec;

export const feedUpdateRoute = {
  ...base,
  id: 'FeedUpdate',
  method: 'PATCH',
  path: '/v1/feeds/{feed_id}',
  maxBodyBytes: 1024,
  access: { tables: { keys: 'r', feeds: 'rw' } },
  docs: {
    ...oneFeed,
    summary: 'Pause or resume a feed',
    description:
      '`{"status": "paused"}` stops polling (audio and podcast stay); `"active"` resumes at the next tick.',
    body: { schema: UpdateFeedReq, contentTypes: ['application/json'], example: { status: 'paused' } },
    responses: { 200: { description: 'The feed', schema: FeedView }, ...oneFeedErrors },
  },
} satisfies RouteSpec;

export const feedPollRoute = {
  ...base,
  id: 'FeedPoll',
  method: 'POST',
  path: '/v1/feeds/{feed_id}/poll',
  maxBodyBytes: 1024,
  access: { tables: { keys: 'r', feeds: 'r' }, sendTo: ['feedpolls'] },
  docs: {
    ...oneFeed,
    summary: 'Poll a feed now',
    description:
      'Sends a poll at once (e.g. from the CMS right after publishing); the answer comes before it runs.',
    responses: { 202: { description: 'Poll queued', schema: FeedView }, ...oneFeedErrors },
  },
} satisfies RouteSpec;

export const feedDeleteRoute = {
  ...base,
  id: 'FeedDelete',
  method: 'DELETE',
  path: '/v1/feeds/{feed_id}',
  timeoutS: 29,
  // audio: the feed's narrations are deleted with ?audio=delete
  // byFeed: the feed's articles, whose audio may go with it
  access: {
    tables: { keys: 'r', feeds: 'rw', audio: 'rw' },
    queries: { feeds: ['byFeed'] },
    bucket: 'rw',
    bucketPrefixes: CONVERSION_PREFIXES,
  },
  docs: {
    ...oneFeed,
    summary: 'Delete a feed',
    description:
      'Stops polling and deletes the feed and its article records. `?audio=delete` also deletes the narrations ' +
      'the feed made (only the feed ever held them: docs/feeds.md); by default (`keep`) they stay until their ' +
      'retention ends, and every audio id handed out keeps working until then.',
    params: [
      feedId,
      {
        name: 'audio',
        in: 'query',
        description: '`keep` (default) or `delete`',
        schema: { type: 'string', enum: ['keep', 'delete'] },
      },
    ],
    responses: {
      200: {
        description: 'Deleted',
        schema: z.object({ deleted: z.literal(true), audio_deleted: z.int(), audio_kept: z.int() }),
      },
      ...oneFeedErrors,
    },
  },
} satisfies RouteSpec;

export const FEED_ROUTES = [
  feedCreateRoute,
  feedListRoute,
  feedGetRoute,
  feedUpdateRoute,
  feedPollRoute,
  feedDeleteRoute,
] as const;
