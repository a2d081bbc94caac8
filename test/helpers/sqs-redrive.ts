// Waiting for SQS's redrive by its event, not a fixed wait: a message past its maxReceiveCount moves to the DLQ when
// it would be received once more, so this receives from the queue until the DLQ holds THE message the test is about
// (matched by its body): another test's message that reaches the same DLQ first neither ends the wait nor is taken.
import { ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { NarrationDeps } from '../../lambdas/narration/deps';
import type { JobQueue } from '../../lambdas/narration/ports';

/**
 * Receives from `queueUrl` until a message whose body `isOurs` is in `dlqUrl` (bounded). Returns what the queue gave
 * meanwhile and that DLQ message (with its attributes: ApproximateReceiveCount, …); DLQ messages that are not ours are
 * left visible.
 */
export async function receiveUntilRedriven(
  sqs: SQSClient,
  queueUrl: string,
  dlqUrl: string,
  isOurs: (body: unknown) => boolean,
  timeoutMs = 30_000,
): Promise<{ received: unknown[]; dead: Message & { body: unknown } }> {
  const received: unknown[] = [];
  const others = new Set<string>();
  for (const deadline = Date.now() + timeoutMs; ;) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1 }));
    received.push(...(out.Messages ?? []).map((m) => JSON.parse(m.Body!) as unknown));
    const dlq = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlqUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 0, // looking does not hide other tests' messages
        AttributeNames: ['All'],
      }),
    );
    for (const m of dlq.Messages ?? []) {
      const body = JSON.parse(m.Body!) as unknown;
      if (isOurs(body)) return { received, dead: { ...m, body } };
      others.add(m.Body!);
    }
    if (Date.now() > deadline)
      throw new Error(
        `our message did not reach the DLQ; the queue gave ${JSON.stringify(received)}; the DLQ held ${JSON.stringify([...others])}`,
      );
  }
}

/**
 * Narration deps whose queue leaves out a free job's backstop (queueBackstop: a second message for the same job, 35 s
 * later), for the tests of one job message's deliveries, receives and redrive: on a slow machine the backstop would
 * show up among the messages they count. The backstop itself is tested in the use case's unit tests and, through the
 * local runtime, by test/e2e/crash-charges.test.ts.
 */
export function withoutBackstop(deps: NarrationDeps): NarrationDeps {
  const queue: JobQueue = {
    enqueue: (message, priority, delayS) =>
      message.backstop ? Promise.resolve() : deps.queue.enqueue(message, priority, delayS),
  };
  return Object.create(deps, { queue: { value: queue } }) as NarrationDeps;
}
