// Waiting for SQS's redrive by its event, not a fixed wait: a message past its maxReceiveCount moves to the DLQ when
// it would be received once more, so this receives from the queue until the DLQ holds a message.
import { GetQueueAttributesCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** Receives from `queueUrl` until `dlqUrl` holds a message (bounded); returns what the queue gave meanwhile. */
export async function receiveUntilRedriven(
  sqs: SQSClient,
  queueUrl: string,
  dlqUrl: string,
  timeoutMs = 30_000,
): Promise<unknown[]> {
  const received: unknown[] = [];
  for (const deadline = Date.now() + timeoutMs; ;) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }));
    received.push(...(out.Messages ?? []).map((m) => JSON.parse(m.Body!) as unknown));
    const { Attributes: a = {} } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
    );
    if (Number(a.ApproximateNumberOfMessages) > 0) return received;
    if (Date.now() > deadline)
      throw new Error(`nothing reached the DLQ; the queue gave ${JSON.stringify(received)}`);
  }
}
