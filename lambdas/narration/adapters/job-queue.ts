// SQS implementation of JobQueue: paid plans' jobs go to the priority queue, free ones to the standard queue.
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { JobMessage, JobQueue } from '../ports';

export class SqsJobQueue implements JobQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly urls: { priority: string; standard: string },
  ) {}

  async enqueue(message: JobMessage, priority: boolean, delayS = 0): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: priority ? this.urls.priority : this.urls.standard,
        MessageBody: JSON.stringify(message),
        ...(delayS > 0 ? { DelaySeconds: Math.min(900, Math.ceil(delayS)) } : {}),
      }),
    );
  }
}
