// What the feed handlers and workers need on top of NarrationDeps: the feeds table and the two feed queues. Kept out
// of NarrationDeps so the conversion routes load none of it (and their tests build none of it).
import { required } from './config';
import { awsDeps, type NarrationDeps } from './deps';
import type { FeedStore } from './ports';
import type { MessageQueue } from '../shared/webhooks/delivery';

export interface FeedDeps extends NarrationDeps {
  readonly feeds: FeedStore;
  /** One message per feed to poll ({feedId}): the scheduler and "poll now" send, FeedPollWorker reads. */
  readonly feedPolls: MessageQueue;
  /** One message per new or changed article ({feedId, key}): polls send, FeedArticleWorker narrates. */
  readonly feedArticles: MessageQueue;
}

/* eslint-disable @typescript-eslint/no-require-imports -- lazy, as in deps.ts: loaded on first use only */
const modules = {
  clients: () => require('../shared/aws/clients') as typeof import('../shared/aws/clients'),
  feedStore: () => require('./adapters/feed-store') as typeof import('./adapters/feed-store'),
  messageQueue: () => require('../shared/aws/message-queue') as typeof import('../shared/aws/message-queue'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export function awsFeedDeps(): FeedDeps {
  const base = awsDeps();
  const queue = (envVar: 'FEED_POLL_QUEUE_URL' | 'FEED_ARTICLE_QUEUE_URL') =>
    new (modules.messageQueue().SqsMessageQueue)(modules.clients().sqsClient(), required(envVar));
  // Getters, like awsDeps: each resource is only required where the route uses it.
  return Object.defineProperties(base as FeedDeps, {
    feeds: {
      get: () =>
        new (modules.feedStore().DynamoFeedStore)(modules.clients().dynamo(), required('FEEDS_TABLE')),
    },
    feedPolls: { get: () => queue('FEED_POLL_QUEUE_URL') },
    feedArticles: { get: () => queue('FEED_ARTICLE_QUEUE_URL') },
  });
}
