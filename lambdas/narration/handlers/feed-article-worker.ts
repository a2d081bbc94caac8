// FeedArticleWorker: fed by the feedarticles queue (one message per new or changed article of a feed). Reads the page
// through the same path as POST /convert/url and narrates it unless its text is unchanged (use-cases/feed-article.ts
// processArticle): short articles inline, long ones on the priority queue for the narration worker.
import { z } from 'zod';
import type { SafeFetchOptions } from '../../shared/net/safe-fetch';
import { sqsWorker } from '../../shared/sqs-worker';
import { awsFeedDeps, type FeedDeps } from '../feed-deps';
import { processArticle } from '../use-cases/feed-article';

const Message = z.object({
  feedId: z.string().min(1).max(64),
  key: z.string().min(1).max(64),
  url: z.string().min(1).max(4096),
  signature: z.string().min(1).max(64),
  title: z.string().max(1000).optional(),
  published: z.string().max(64).optional(),
});

export const makeHandler = (deps: FeedDeps, fetchOptions: SafeFetchOptions = {}) =>
  sqsWorker(Message, async ({ message: { feedId, ...entry } }) =>
    processArticle(deps, feedId, entry, { fetchOptions }),
  );

export const handler = makeHandler(awsFeedDeps());
