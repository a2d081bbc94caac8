// Retries with backoff (lambdas/shared/jobs/retry.ts) as the shared SQS worker applies them: a failed record's
// visibility becomes the schedule's delay for its attempt, the last attempt's message is made visible at once (so
// SQS moves it to the DLQ on its next receive), a job another worker holds waits at least for its lease, and a
// failure to change the visibility leaves the queue's timeout without changing the record's outcome.
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { JobBusyError } from '../../lambdas/shared/jobs/leased-job';
import {
  DEFAULT_JOB_RETRY_SCHEDULE_S,
  failedAttemptDelayS,
  jobRetryScheduleVar,
  retryDelayS,
  type MessageVisibility,
  type ReceivedMessage,
} from '../../lambdas/shared/jobs/retry';
import { sqsWorker } from '../../lambdas/shared/sqs-worker';
import { FakeMessageVisibility } from '../fakes/documents';

const ARN = 'arn:aws:sqs:us-east-1:000000000000:test-standard';

function event(receive: number, body = { jobId: 'j1' }): SQSEvent {
  const record = {
    messageId: `m${receive}`,
    receiptHandle: `rh-${receive}`,
    body: JSON.stringify(body),
    attributes: { ApproximateReceiveCount: String(receive) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: ARN,
    awsRegion: 'us-east-1',
  } as unknown as SQSRecord;
  return { Records: [record] };
}

const context = {
  functionName: 'test-worker',
  awsRequestId: 'req',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

const Message = z.object({ jobId: z.string() });

test('the default schedule grows from seconds to minutes; its last value repeats', () => {
  expect(DEFAULT_JOB_RETRY_SCHEDULE_S[0]).toBeLessThan(60);
  expect(DEFAULT_JOB_RETRY_SCHEDULE_S.at(-1)).toBeGreaterThanOrEqual(300);
  const s = [10, 60, 300];
  expect([1, 2, 3, 4, 9].map((a) => retryDelayS(s, a))).toEqual([10, 60, 300, 300, 300]);
  expect(jobRetryScheduleVar.parse(undefined)).toEqual([...DEFAULT_JOB_RETRY_SCHEDULE_S]);
  expect(jobRetryScheduleVar.parse('1, 2')).toEqual([1, 2]);
  expect(jobRetryScheduleVar.safeParse('1,x').success).toBe(false);
  expect(jobRetryScheduleVar.safeParse('50000').success).toBe(false);
});

test('a failed attempt is retried after the backoff for its attempt; the last one at once (to the DLQ)', () => {
  const policy = { maxAttempts: 3, schedule: [10, 60] };
  const err = new Error('throttled');
  expect(failedAttemptDelayS(policy, 1, err)).toBe(10);
  expect(failedAttemptDelayS(policy, 2, err)).toBe(60);
  expect(failedAttemptDelayS(policy, 3, err)).toBe(0);
  // A job another worker holds is not retried before that worker's lease runs out.
  expect(failedAttemptDelayS(policy, 1, new JobBusyError('busy', 95))).toBe(95);
  expect(failedAttemptDelayS(policy, 2, new JobBusyError('busy', 5))).toBe(60);
});

test('sqsWorker sets the failed record visibility to its delay and reports it failed; a success changes nothing', async () => {
  const visibility = new FakeMessageVisibility();
  let fail = true;
  const handler = sqsWorker(
    Message,
    async () => {
      if (fail) throw new Error('transient');
      return 'done';
    },
    () => ({ maxAttempts: 3, schedule: [7, 45], visibility }),
  );
  for (const receive of [1, 2, 3]) {
    const out = await handler(event(receive), context);
    expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: `m${receive}` }] });
  }
  expect(visibility.retries).toEqual([
    { message: { receiptHandle: 'rh-1', eventSourceARN: ARN }, delayS: 7 },
    { message: { receiptHandle: 'rh-2', eventSourceARN: ARN }, delayS: 45 },
    { message: { receiptHandle: 'rh-3', eventSourceARN: ARN }, delayS: 0 },
  ]);
  fail = false;
  expect(await handler(event(1), context)).toEqual({ batchItemFailures: [] });
  expect(visibility.retries).toHaveLength(3);
});

test("sqsWorker tells the record's handler the time left before the invocation's timeout, from Lambda's context", async () => {
  const seen: number[] = [];
  let left = 42_000;
  const handler = sqsWorker(Message, async ({ remainingMs }) => {
    seen.push(remainingMs());
    left -= 1_500;
    seen.push(remainingMs());
  });
  await handler(event(1), { ...context, getRemainingTimeInMillis: () => left } as Context);
  expect(seen).toEqual([42_000, 40_500]);
});

test('when the visibility cannot be changed, the record is still reported failed (the queue timeout applies)', async () => {
  const calls: ReceivedMessage[] = [];
  const broken: MessageVisibility = {
    retryAfter: async (m) => {
      calls.push(m);
      throw new Error('sqs unavailable');
    },
  };
  const handler = sqsWorker(
    Message,
    async () => {
      throw new Error('transient');
    },
    () => ({ maxAttempts: 3, schedule: [7], visibility: broken }),
  );
  expect(await handler(event(1), context)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  expect(calls).toEqual([{ receiptHandle: 'rh-1', eventSourceARN: ARN }]);
});
