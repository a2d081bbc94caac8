// Feeds queued jobs to the worker handler locally, as the Lambda SQS event source does in the cloud:
// one SQS event per message (batch size 1), ApproximateReceiveCount passed through, and a message reported in
// batchItemFailures is left on the queue to reappear after its visibility timeout (then DLQ after 3 receives).
// The pollers read the worker's queues (its manifest entry's `queues`), each with its own number of pollers (the
// queue's `localPollers`): priority jobs get more than standard ones, like the event sources' maxConcurrency.
import { SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { Consumer } from 'sqs-consumer';
import type { QueueSpec, WorkerSpec } from '../../lambdas/shared/manifest';
import { documentsManifest } from '../../lambdas/documents/routes';
import { narrationManifest } from '../../lambdas/narration/routes';
import { lambdaContext } from './invocations';

const QUEUE_SPECS: QueueSpec[] = [...narrationManifest.queues, ...documentsManifest.queues];

export type WorkerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  worker: WorkerSpec;
  handler: WorkerHandler;
  /** Queue URLs by queue id (Emulators.queues): the poller reads those the worker names. */
  queues: Record<string, string>;
  endpoint: string;
  log?: (line: string) => void;
  /** Pollers per queue id. @default each queue's `localPollers`, else 1 */
  concurrency?: Record<string, number>;
  /** The queues' visibility timeout; the poller extends it while a job runs. @default 10 */
  visibilityS?: number;
}

function toEvent(message: Message, queueUrl: string): SQSEvent {
  const name = queueUrl.split('/').pop() ?? 'queue';
  return {
    Records: [
      {
        messageId: message.MessageId ?? '',
        receiptHandle: message.ReceiptHandle ?? '',
        body: message.Body ?? '',
        attributes: {
          ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
          SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp:
            message.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: message.MD5OfBody ?? '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${name}`,
        awsRegion: 'us-east-1',
      },
    ],
  };
}

export interface Poller {
  /** Stops polling and waits for jobs in progress. */
  stop(): Promise<void>;
  /** Stops at once, abandoning jobs in progress (as a crashed worker would): their messages reappear later. */
  kill(): void;
}

export function startPoller(options: PollerOptions): Poller {
  const log = options.log ?? (() => undefined);
  const sqs = new SQSClient({ endpoint: options.endpoint });
  const consumers: Consumer[] = [];
  const inflight = new Set<Promise<unknown>>();
  const vis = options.visibilityS ?? 10;
  const sources = options.worker.queues.map((name) => {
    const url = options.queues[name];
    if (!url) throw new Error(`Worker ${options.worker.id}: no URL for its queue ${name}.`);
    const pollers = QUEUE_SPECS.find((q) => q.id === name)?.localPollers ?? 1;
    return { name, url, concurrency: options.concurrency?.[name] ?? pollers };
  });
  for (const { name: kind, url, concurrency } of sources) {
    for (let i = 0; i < concurrency; i++) {
      const consumer = Consumer.create({
        queueUrl: url,
        sqs,
        useQueueUrlAsEndpoint: false,
        batchSize: 1,
        // Long polling as the Lambda event source's pollers do: 20 s, SQS's longest wait. fauxqs answers a waiting
        // receive as soon as a message is sent or becomes visible again (its timers run every 20 ms while someone
        // waits), so the wait adds no latency; an idle runtime sends 1/20 of the receives it sent with 1 s waits
        // (~10 consumers: its idle CPU went from ~32 to ~9 ms a second). Stopping aborts the waiting receives.
        // The next receive starts as soon as a message is handled (a pause here added up between a batch's parts).
        waitTimeSeconds: 20,
        pollingWaitTimeMs: 0,
        visibilityTimeout: vis,
        heartbeatInterval: Math.max(1, Math.floor(vis / 2)),
        attributeNames: ['All'],
        messageSystemAttributeNames: [
          'ApproximateReceiveCount',
          'SentTimestamp',
          'ApproximateFirstReceiveTimestamp',
        ],
        handleMessage: async (message: Message) => {
          const run = options.handler(
            toEvent(message, url),
            lambdaContext(options.worker, message.MessageId ?? 'local', options.worker.timeoutS),
          );
          inflight.add(run);
          try {
            const result = await run;
            if (result && result.batchItemFailures.length > 0) {
              log(
                `worker: ${kind} message ${message.MessageId} failed (receive ${message.Attributes?.ApproximateReceiveCount ?? '?'}), will retry`,
              );
              throw new Error('batch item failure');
            }
            return message;
          } finally {
            inflight.delete(run);
          }
        },
      });
      consumer.on('error', (err) => log(`worker poller (${kind}): ${err.message}`));
      consumer.on('processing_error', () => undefined);
      consumer.start();
      consumers.push(consumer);
    }
  }
  return {
    async stop() {
      for (const c of consumers) c.stop({ abort: true });
      await Promise.allSettled([...inflight]);
      sqs.destroy();
    },
    kill() {
      for (const c of consumers) c.stop({ abort: true });
      sqs.destroy();
    },
  };
}
