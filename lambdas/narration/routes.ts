// The narration service's manifest, read by lib/narration-stack.ts and bin/local.ts. Each route is a spec next to its
// handler (handlers/<name>.route.ts, from which the handler reads its limits); this file lists them.
import type { ServiceManifest } from '../shared/manifest';
import {
  API_ROUTES,
  BILLING_ROUTES,
  SITE_ROUTES,
  WEBHOOK_ROUTES,
  NOT_FOUND_ROUTE,
  STATS_ROUTE,
} from './platform';
import { voicesRoute } from './handlers/voices.route';
import { convertTextRoute } from './handlers/convert-text.route';
import { convertPdfRoute } from './handlers/convert-pdf.route';
import { convertPdfUploadRoute } from './handlers/convert-pdf-upload.route';
import { convertUrlRoute } from './handlers/convert-url.route';
import { demoTryRoute } from './handlers/demo-try.route';
import { getAudioRoute } from './handlers/get-audio.route';
import { deleteAudioRoute } from './handlers/delete-audio.route';
import { getTimingsRoute } from './handlers/get-timings.route';
import { audioStreamRoute } from './handlers/audio-stream.route';
import { audioSegmentRoute } from './handlers/audio-segment.route';
import { waitlistRoute } from './handlers/waitlist.route';
import { waitlistCountRoute } from './handlers/waitlist-count.route';
import { abAssignRoute } from './handlers/ab-assign.route';
import { abEventRoute } from './handlers/ab-event.route';
import { abResultsRoute } from './handlers/ab-results.route';
import { dashboardSummaryRoute } from './handlers/dashboard-summary.route';
import { embedRoute } from './handlers/embed.route';
import { webhookDelivery } from '../shared/webhooks/routes';
import { WEBHOOK_ITEM_PREFIX } from '../shared/webhooks/item-prefix';
import {
  lexiconDeleteRoute,
  lexiconGetRoute,
  lexiconListRoute,
  lexiconPutRoute,
} from './handlers/lexicons.route';
import { CONVERSION_PREFIXES, narrationBucket } from './bucket';
import { FEED_ROUTES } from './handlers/feeds.route';
import { audioChaptersRoute, podcastRoute } from './handlers/podcast.route';
import { FEED_PLAYER_ROUTES } from './handlers/feed-player.route';
import { CONVERSION_ACCESS } from './conversion-access';

/** Completion webhook events (use-cases/webhooks.ts): the `webhooks` queue and the worker delivering them. */
const WEBHOOK_DELIVERY = webhookDelivery({
  queue: {
    id: 'webhooks',
    envVar: 'DELIVERY_QUEUE_URL',
    maxConcurrency: 5,
    description: 'Completion webhook events to deliver (one message per event; retries are redeliveries)',
  },
  worker: {
    description: 'Delivers signed audio.completed / audio.failed webhook events, with retries',
    handler: 'lambdas/narration/handlers/webhooks.ts',
    // The audio record is the event's subject (its data); accounts: the endpoint items only.
    access: { tables: { audio: 'r', accounts: 'r' } },
  },
});

export const narrationManifest: ServiceManifest = {
  service: 'narration',
  bucket: narrationBucket,
  throttle: { rate: 50, burst: 100 },
  routes: [
    voicesRoute,
    convertTextRoute,
    convertPdfRoute,
    convertPdfUploadRoute,
    convertUrlRoute,
    demoTryRoute,
    getAudioRoute,
    deleteAudioRoute,
    getTimingsRoute,
    audioStreamRoute,
    audioSegmentRoute,
    waitlistRoute,
    waitlistCountRoute,
    abAssignRoute,
    abEventRoute,
    abResultsRoute,
    dashboardSummaryRoute,
    STATS_ROUTE,
    ...BILLING_ROUTES,
    embedRoute,
    ...SITE_ROUTES,
    ...API_ROUTES,
    // ── Completion webhooks (paid plans): use-cases/webhooks.ts on the platform's lambdas/shared/webhooks. ──
    ...WEBHOOK_ROUTES,
    lexiconListRoute,
    lexiconGetRoute,
    lexiconPutRoute,
    lexiconDeleteRoute,
    // ── Publisher feeds (paid plans): use-cases/feeds.ts, docs/feeds.md. ──
    ...FEED_ROUTES,
    podcastRoute,
    audioChaptersRoute,
    ...FEED_PLAYER_ROUTES,
    NOT_FOUND_ROUTE,
  ],
  workers: [
    {
      id: 'Worker',
      description: 'Narrates queued long texts (priority and standard queues)',
      queues: ['priority', 'standard'],
      handler: 'lambdas/narration/handlers/worker.ts',
      memoryMb: 2048,
      // 100,000 characters ≈ 2 h of speech: synthesis + encoding fits well inside 15 min.
      timeoutS: 900,
      tmpMb: 2048,
      // accounts: reads webhook endpoints only (is one subscribed?); webhooks: queues completion events.
      access: {
        tables: { audio: 'rw', growth: 'rw', accounts: 'r' },
        itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] },
        bucket: 'rw',
        bucketPrefixes: CONVERSION_PREFIXES,
        speech: true,
        sendTo: ['webhooks'],
      },
    },
    WEBHOOK_DELIVERY.worker,
    {
      id: 'FeedPollWorker',
      description: 'Polls one publisher feed and queues its new or changed articles',
      queues: ['feedpolls'],
      handler: 'lambdas/narration/handlers/feed-poll-worker.ts',
      memoryMb: 512,
      // One feed fetch (15 s cap) plus parsing and one message per changed article.
      timeoutS: 60,
      tmpMb: 512,
      access: { tables: { feeds: 'rw' }, sendTo: ['feedarticles'] },
    },
    {
      id: 'FeedArticleWorker',
      description: 'Reads one feed article and narrates it unless its text is unchanged',
      queues: ['feedarticles'],
      handler: 'lambdas/narration/handlers/feed-article-worker.ts',
      // Short articles are narrated inline (as POST /convert/url does): memory buys CPU for the encoder.
      memoryMb: 1024,
      timeoutS: 120,
      tmpMb: 1024,
      // A conversion's access (./conversion-access.ts; long articles go to the narration worker), with the feeds
      // table and without the quotas one (a feed's articles are not charged per request).
      access: {
        ...CONVERSION_ACCESS,
        tables: { feeds: 'rw', audio: 'rw', keys: 'r', accounts: 'r', growth: 'rw' },
      },
    },
  ],
  schedules: [
    {
      id: 'FeedScheduler',
      description: 'Sends every active feed whose next poll has come to the poll queue',
      handler: 'lambdas/narration/handlers/feed-scheduler.ts',
      memoryMb: 256,
      timeoutS: 60,
      everyMinutes: 5,
      localEveryVar: 'FEED_TICK_S',
      // byPoll: the active feeds whose next poll has come
      access: { tables: { feeds: 'rw' }, queries: { feeds: ['byPoll'] }, sendTo: ['feedpolls'] },
    },
  ],
  // How paid plans get priority: each event source scales its pollers independently, and maxConcurrency caps how
  // many worker executions one may occupy. The standard (free-tier) queue gets a small cap, so a free backlog can
  // never take more than that many executions; the rest stays available to the priority queue (Pro/Lifetime jobs),
  // whose jobs therefore never wait behind free ones. Running jobs are not pre-empted. The caps also stop the
  // pollers from pulling messages Lambda would throttle (a throttled delivery still counts towards maxReceiveCount).
  queues: [
    {
      id: 'priority',
      envVar: 'PRIORITY_QUEUE_URL',
      maxReceiveCount: 3,
      maxConcurrency: 10,
      localPollers: 2,
      description: 'Long texts of paid plans (one message per job)',
    },
    {
      id: 'standard',
      envVar: 'STANDARD_QUEUE_URL',
      maxReceiveCount: 3,
      maxConcurrency: 3,
      description: 'Long texts of the free tier (one message per job)',
    },
    WEBHOOK_DELIVERY.queue,
    {
      id: 'feedpolls',
      envVar: 'FEED_POLL_QUEUE_URL',
      maxReceiveCount: 3,
      maxConcurrency: 5,
      description: 'Publisher feeds to poll (one message per feed)',
    },
    {
      id: 'feedarticles',
      envVar: 'FEED_ARTICLE_QUEUE_URL',
      maxReceiveCount: 3,
      maxConcurrency: 5,
      description: 'New or changed feed articles to narrate (one message per article)',
    },
  ],
};
