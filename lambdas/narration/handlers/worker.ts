// Worker: fed by the priority and standard job queues (SQS event source, reportBatchItemFailures).
// Each record names a queued job; runJob is idempotent. Failures are reported per record so SQS retries only
// those; after MAX_RECEIVE_COUNT attempts the job is marked failed and SQS moves the message to the DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { logger } from '../../shared/logger';
import { recordJobDone, recordJobFailure } from '../../shared/observability/events';
import { metricsMiddleware } from '../../shared/observability/metrics';
import { tracingMiddleware } from '../../shared/observability/tracing';
import { awsDeps, type NarrationDeps } from '../deps';
import { JobBusyError, runJob } from '../domain/conversion';
import { findVoice } from '../domain/voices';

const Message = z.object({ audioId: z.string().min(1).max(64) });

export const makeHandler = (deps: NarrationDeps) => {
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord) => {
    const { audioId } = Message.parse(JSON.parse(record.body));
    const attempt = Number(record.attributes?.ApproximateReceiveCount ?? '1') || 1;
    logger.appendKeys({ audioId });
    const started = performance.now();
    try {
      const outcome = await runJob(deps, audioId, attempt, findVoice);
      if (outcome === 'done') {
        const job = await deps.audio.get(audioId).catch(() => undefined);
        recordJobDone(performance.now() - started, job?.chars);
      }
      return outcome;
    } catch (err) {
      // Another worker holding the job's lease is not a failure.
      if (!(err instanceof JobBusyError)) recordJobFailure();
      throw err;
    } finally {
      logger.removeKeys(['audioId']);
    }
  };
  return middy<SQSEvent, SQSBatchResponse>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(tracingMiddleware())
    .use(metricsMiddleware())
    .handler((event: SQSEvent, context: Context) =>
      processPartialResponse(event, recordHandler, processor, { context, throwOnFullBatchFailure: false }),
    );
};

export const handler = makeHandler(awsDeps());
