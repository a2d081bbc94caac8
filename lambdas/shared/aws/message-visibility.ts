// SQS MessageVisibility: ChangeMessageVisibility on the queue a record came from. A worker knows its own queues'
// URLs (the stack sets them on the worker: manifest-service.ts; locally the emulators' env), and the record names
// its queue by ARN, whose last part is the queue name — the last path segment of its URL. The event source mapping's
// grantConsumeMessages already allows sqs:ChangeMessageVisibility on those queues.
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { MessageVisibility, ReceivedMessage } from '../jobs/retry';

export class SqsMessageVisibility implements MessageVisibility {
  constructor(
    private readonly sqs: SQSClient,
    /** The worker's queue URLs (unset ones are skipped). */
    private readonly urls: (string | undefined)[],
  ) {}

  /** The URL of the queue the ARN names, or undefined when it is not one of the worker's. */
  urlFor(eventSourceARN: string): string | undefined {
    const name = eventSourceARN.split(':').pop();
    return this.urls.find(
      (u): u is string => !!u && !!name && u.replace(/\/+$/, '').split('/').pop() === name,
    );
  }

  async retryAfter(message: ReceivedMessage, delayS: number): Promise<void> {
    const url = this.urlFor(message.eventSourceARN);
    if (!url) throw new Error(`no queue URL known for ${message.eventSourceARN}`);
    await this.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: url,
        ReceiptHandle: message.receiptHandle,
        VisibilityTimeout: Math.max(0, Math.round(delayS)),
      }),
    );
  }
}
