// FeedScheduler: invoked on a schedule (EventBridge Scheduler every few minutes in the cloud; a timer in `npm start`,
// lib/local/runtime.ts). Sends each active feed whose next poll has come to the poll queue, once
// (use-cases/feed-poll.ts scheduleDuePolls). The event's content is not read.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { logger } from '../../shared/logger';
import { metricsMiddleware } from '../../shared/observability/metrics';
import { tracingMiddleware } from '../../shared/observability/tracing';
import { awsFeedDeps, type FeedDeps } from '../feed-deps';
import { scheduleDuePolls } from '../use-cases/feed-poll';

export const makeHandler = (deps: FeedDeps) =>
  middy<unknown, { sent: number }>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(tracingMiddleware())
    .use(metricsMiddleware())
    .handler(async () => ({ sent: await scheduleDuePolls(deps) }));

export const handler = makeHandler(awsFeedDeps());
