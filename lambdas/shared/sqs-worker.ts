// The handler of an SQS-fed worker Lambda (event source with reportBatchItemFailures): a middy chain with the
// logger's Lambda context, tracing and metrics, and Powertools' BatchProcessor, so a failed record is reported on
// its own and SQS redelivers only it (after maxReceiveCount attempts, to the DLQ). Each record's body is parsed
// with the worker's zod schema (a malformed one fails its record); the message's fields are added to every log
// line written while the record is handled. Used by narration's worker and documents' render and delivery workers.
// A worker given a retry policy (the job workers: lambdas/shared/jobs/retry.ts) sets a failed record's visibility to
// the policy's backoff, so SQS redelivers it in seconds to minutes instead of after the queue's visibility timeout.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { logger } from './logger';
import { failedAttemptDelayS, type RetryPolicy } from './jobs/retry';
import { metricsMiddleware } from './observability/metrics';
import { tracingMiddleware } from './observability/tracing';

/** One record to handle: its parsed message, which delivery this is (1 = first) and the raw SQS record. */
export interface WorkerRecord<M> {
  message: M;
  attempt: number;
  record: SQSRecord;
  /** Milliseconds left before the invocation's timeout (Lambda's context; Infinity without one). */
  remainingMs: () => number;
}

/**
 * `handle` runs once per record; throwing marks that record failed. `Message` is an object of ids (strings):
 * they are the log keys of the record (e.g. `{ jobId }`).
 */
export function sqsWorker<M extends Record<string, string | boolean>>(
  Message: z.ZodType<M>,
  handle: (r: WorkerRecord<M>) => Promise<unknown>,
  /** Read when a record fails (deps are lazy); without it the queue's visibility timeout decides the retry. */
  retry?: () => RetryPolicy,
) {
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord, context?: Context) => {
    const message = Message.parse(JSON.parse(record.body));
    const attempt = Number(record.attributes?.ApproximateReceiveCount ?? '1') || 1;
    logger.appendKeys(message);
    try {
      const remainingMs = () => context?.getRemainingTimeInMillis() ?? Infinity;
      return await handle({ message, attempt, record, remainingMs });
    } catch (err) {
      if (retry) await scheduleRetry(retry, record, attempt, err);
      throw err;
    } finally {
      logger.removeKeys(Object.keys(message));
    }
  };
  return middy<SQSEvent, SQSBatchResponse>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(tracingMiddleware())
    .use(metricsMiddleware())
    .handler((event: SQSEvent, context: Context) =>
      processPartialResponse(event, recordHandler, processor, { context, throwOnFullBatchFailure: false }),
    );
}

/** Sets the failed record's visibility to its backoff; a failure to do so leaves the queue's timeout (logged). */
async function scheduleRetry(
  retry: () => RetryPolicy,
  record: SQSRecord,
  attempt: number,
  err: unknown,
): Promise<void> {
  try {
    const policy = retry();
    const delayS = failedAttemptDelayS(policy, attempt, err);
    await policy.visibility.retryAfter(
      { receiptHandle: record.receiptHandle, eventSourceARN: record.eventSourceARN },
      delayS,
    );
    logger.info('failed attempt: retry scheduled', { attempt, retryInS: delayS });
  } catch (e) {
    logger.warn("could not shorten the failed message's visibility; the queue timeout applies", {
      error: e as Error,
    });
  }
}
