// The handler of an SQS-fed worker Lambda (event source with reportBatchItemFailures): a middy chain with the
// logger's Lambda context, tracing and metrics, and Powertools' BatchProcessor, so a failed record is reported on
// its own and SQS redelivers only it (after maxReceiveCount attempts, to the DLQ). Each record's body is parsed
// with the worker's zod schema (a malformed one fails its record); the message's fields are added to every log
// line written while the record is handled. Used by narration's worker and documents' render and delivery workers.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { logger } from './logger';
import { metricsMiddleware } from './observability/metrics';
import { tracingMiddleware } from './observability/tracing';

/** One record to handle: its parsed message, which delivery this is (1 = first) and the raw SQS record. */
export interface WorkerRecord<M> {
  message: M;
  attempt: number;
  record: SQSRecord;
}

/**
 * `handle` runs once per record; throwing marks that record failed. `Message` is an object of ids (strings):
 * they are the log keys of the record (e.g. `{ jobId }`).
 */
export function sqsWorker<M extends Record<string, string>>(
  Message: z.ZodType<M>,
  handle: (r: WorkerRecord<M>) => Promise<unknown>,
) {
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord) => {
    const message = Message.parse(JSON.parse(record.body));
    const attempt = Number(record.attributes?.ApproximateReceiveCount ?? '1') || 1;
    logger.appendKeys(message);
    try {
      return await handle({ message, attempt, record });
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
