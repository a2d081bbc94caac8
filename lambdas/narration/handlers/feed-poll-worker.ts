// FeedPollWorker: fed by the feedpolls queue (one message per feed: the scheduler's and "poll now"'s). Reads the feed
// politely and sends each new or changed article to the feedarticles queue (use-cases/feed-poll.ts pollFeed). A feed's
// own problems (unreachable, not a feed) are recorded on it with a backoff, not retried here; only our own backing
// services failing throw (SQS redelivers, then the DLQ).
import { z } from 'zod';
import type { SafeFetchOptions } from '../../shared/net/safe-fetch';
import { sqsWorker } from '../../shared/sqs-worker';
import { awsFeedDeps, type FeedDeps } from '../feed-deps';
import { pollFeed } from '../use-cases/feed-poll';

const Message = z.object({ feedId: z.string().min(1).max(64) });

export const makeHandler = (deps: FeedDeps, fetchOptions: SafeFetchOptions = {}) =>
  sqsWorker(Message, async ({ message: { feedId } }) => pollFeed(deps, feedId, fetchOptions));

export const handler = makeHandler(awsFeedDeps());
