// SQS MessageQueue: sends JSON messages (optionally delayed, at most SQS's 15 minutes) and sets when a received
// message reappears. The documents workers and both webhook delivery workers retry with it: a failed message is left on the queue (reported as a
// batch item failure) with its visibility set to the retry delay (SQS allows up to 12 hours), so each retry is a
// redelivery that counts towards the queue's maxReceiveCount and the last one ends in the DLQ.
import { ChangeMessageVisibilityCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { MessageQueue } from '../webhooks/delivery';

const MAX_DELAY_S = 900;
const MAX_VISIBILITY_S = 12 * 3600;

export class SqsMessageQueue implements MessageQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly url: string,
  ) {}

  async send(message: Record<string, unknown>, delayS = 0): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.url,
        MessageBody: JSON.stringify(message),
        ...(delayS > 0 ? { DelaySeconds: Math.min(MAX_DELAY_S, Math.ceil(delayS)) } : {}),
      }),
    );
  }

  async retryAfter(receiptHandle: string, delayS: number): Promise<void> {
    await this.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.url,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: Math.max(0, Math.min(MAX_VISIBILITY_S, Math.ceil(delayS))),
      }),
    );
  }
}
