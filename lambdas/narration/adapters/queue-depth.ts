// SQS QueueDepth: one GetQueueAttributes call (the only SQS action the dashboard's role has, on the DLQs).
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueueDepth } from '../ports';

export class SqsQueueDepth implements QueueDepth {
  constructor(private readonly sqs: SQSClient) {}

  async depth(queueUrl: string): Promise<{ visible: number; inFlight: number }> {
    const { Attributes: a = {} } = await this.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return {
      visible: Number(a.ApproximateNumberOfMessages ?? 0),
      inFlight: Number(a.ApproximateNumberOfMessagesNotVisible ?? 0),
    };
  }
}
