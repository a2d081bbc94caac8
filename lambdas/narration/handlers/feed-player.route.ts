// What the embed player calls on a publisher's page, and what its owner reads back (use-cases/listens.ts,
// docs/feeds.md "The player on the article"): the narration of the page the player sits on, listen beacons, and
// the feed's listen counts. Three routes, one handler (feed-player.ts), each its own Lambda. routes.ts lists them.
import { z } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import { common, notFound, publicPost } from '../api/doc-parts';
import type { ResponseDoc } from '../../shared/http/route-doc';
import { LISTEN_EVENTS, MAX_LISTEN_DAYS } from '../use-cases/listens';
import { MAX_URL_CHARS } from './convert-url.route';
import { LEXICON_ITEM_PREFIX } from '../adapters/item-prefixes';
import { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';
import { CONVERSION_PREFIXES } from '../bucket';

const handler = 'lambdas/narration/handlers/feed-player.ts';
const feedId = {
  name: 'feed_id',
  in: 'path' as const,
  required: true,
  description: 'The feed id (fd_…)',
  schema: { type: 'string' as const },
};

const pageUrl = {
  name: 'url',
  in: 'query' as const,
  required: true,
  description: 'The page address',
  schema: { type: 'string' as const, maxLength: MAX_URL_CHARS },
};

export const PageNarration = z.object({
  audio_id: z.string().nullable().meta({
    description:
      'Play it as data-audio-id would (GET /audio/{audio_id}); null: a first_play feed offers it (POST narrates it)',
  }),
  article: z.string().meta({ description: "The article's key within the feed (what beacons name)" }),
  url: z.string().meta({ description: 'The link the feed gives for the page' }),
  title: z.string().nullable(),
});

/** What both routes of /feeds/{feed_id}/article take, and answer besides their own limits. */
const articleDocs = (ok: string, orElse: string, limits: Record<number, ResponseDoc> = {}) => ({
  tags: ['feeds'],
  params: [feedId, pageUrl],
  responses: {
    200: { description: ok, schema: PageNarration },
    404: notFound(`No such feed, the feed does not list the page, or ${orElse}`),
    422: common[422],
    ...limits,
  },
});

export const feedPageAudioRoute = {
  id: 'FeedPageAudio' as const,
  method: 'GET',
  path: '/feeds/{feed_id}/article',
  handler,
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { feeds: 'r' } },
  docs: {
    summary: 'The narration of a page of a feed',
    description:
      'What the embed player with `data-feed` asks: the entry the feed lists now whose link is `url` (the page it ' +
      'sits on: its canonical address, else its address without the #fragment). Addresses match without ' +
      'fragment, tracking parameters (utm_*, fbclid, gclid) or trailing slash. Public (no key), cached 60 s.',
    ...articleDocs('Its narration', 'it has no narration yet'),
  },
} satisfies RouteSpec;

export const feedFirstPlayRoute = {
  id: 'FeedFirstPlay' as const,
  method: 'POST',
  path: '/feeds/{feed_id}/article',
  handler,
  // The article is read and, when short, narrated in this request (as FeedArticleWorker does); long ones queued.
  memoryMb: 1024,
  timeoutS: 29,
  access: {
    tables: { feeds: 'rw', quotas: 'rw', audio: 'rw', keys: 'r', accounts: 'r', growth: 'rw' },
    itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX, LEXICON_ITEM_PREFIX] },
    bucket: 'rw',
    bucketPrefixes: CONVERSION_PREFIXES,
    sendTo: ['priority', 'standard', 'webhooks'],
    speech: true,
  },
  docs: {
    summary: "A reader's first play: narrate a first_play feed's article",
    description:
      'What the embed player sends when the lookup offers the page (`audio_id` null, a feed registered with ' +
      "`mode: first_play`): the article is read and narrated now, as the feed's owner, once; then it answers as " +
      'the lookup does. An article already narrated answers its audio without narrating. No body (a CORS simple ' +
      'request). Public; at most 30 first plays per hour per IP address (429 after).',
    ...articleDocs(
      'Its narration (queued or done: GET /audio/{audio_id})',
      'the page could not be narrated',
      {
        429: common[429],
      },
    ),
  },
} satisfies RouteSpec;

export const ListenReq = z
  .object({
    feed_id: z.string().regex(/^fd_[A-Za-z0-9_-]{16}$/, 'A feed id (fd_…)'),
    article: z.string().regex(/^[0-9a-f]{24}$/, "An article key (from the player's lookup)"),
    event: z.enum(LISTEN_EVENTS).meta({
      description:
        '`play` (a play starts), `25`/`50`/`75`/`100` (that share of the audio was reached), `seek`',
    }),
  })
  .strict();

export const listenRoute = publicPost({
  id: 'Listen',
  path: '/listens',
  handler,
  maxBodyBytes: 1024,
  access: { tables: { feeds: 'rw', quotas: 'rw' } },
  docs: {
    summary: 'A listen beacon from the player',
    tags: ['feeds'],
    description:
      'Sent by the embed player with `navigator.sendBeacon` (form-encoded: a CORS simple request, no cookies). ' +
      'Adds 1 to the day counter of the article and event; nothing about the listener is stored (no cookie, id, ' +
      'address or user agent). Only articles the feed has recorded (found by its polls) are counted. Public; at ' +
      'most 600 beacons per hour ' +
      'per IP address (429 after).',
    body: {
      schema: ListenReq,
      formFirst: true,
      example: { feed_id: 'fd_Q2xhc2UgZGUgcHJ1', article: '3f2a9c0d1e4b5a6978c0d1e2', event: 'play' },
    },
    responses: {
      204: { description: 'Counted' },
      404: notFound('No such feed, or it does not list the article'),
    },
  },
});

const Counts = {
  plays: z.int(),
  q25: z.int(),
  q50: z.int(),
  q75: z.int(),
  completions: z.int().meta({ description: '100 % reached' }),
  seeks: z.int(),
  listen_through: z.number().meta({ description: 'completions / plays (0 without plays)' }),
};

export const ListenStats = z.object({
  feed_id: z.string(),
  from: z.string().meta({ description: 'First UTC day (YYYY-MM-DD)' }),
  to: z.string().meta({ description: 'Last UTC day (today)' }),
  days: z.array(z.object({ date: z.string(), ...Counts })),
  articles: z
    .array(
      z.object({ article: z.string(), url: z.string().nullable(), title: z.string().nullable(), ...Counts }),
    )
    .meta({ description: 'Articles with any beacon in the span, most played first' }),
});

export const feedListensRoute = {
  id: 'FeedListens' as const,
  method: 'GET',
  path: '/v1/feeds/{feed_id}/listens',
  handler,
  memoryMb: 256,
  timeoutS: 10,
  access: { tables: { keys: 'r', feeds: 'r' } },
  docs: {
    summary: "A feed's listens: plays and listen-through per day and per article",
    tags: ['feeds'],
    bearer: 'required',
    description:
      "Counted from the embed player's beacons (POST /listens), per UTC day. `?days=` the last N days, today " +
      `included (1–${MAX_LISTEN_DAYS}, default 30). Counters are kept 400 days.`,
    params: [
      feedId,
      {
        name: 'days',
        in: 'query',
        description: `1–${MAX_LISTEN_DAYS} (default 30)`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_LISTEN_DAYS },
      },
    ],
    responses: {
      200: { description: 'The counts', schema: ListenStats },
      401: common[401],
      404: notFound('No such feed in this account'),
      422: common[422],
    },
  },
} satisfies RouteSpec;

export const FEED_PLAYER_ROUTES = [
  feedPageAudioRoute,
  feedFirstPlayRoute,
  listenRoute,
  feedListensRoute,
] as const;
