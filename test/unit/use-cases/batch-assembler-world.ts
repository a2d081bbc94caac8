// The batch assembler's handler (the split and the assembly of CFDI batches) on fakes, one SQS delivery at a time:
// a batch job in a FakeBatchRepository, the quota fake, the queues; the batch's files are the test's. Used by
// documents-batch-split.test.ts and documents-batch-assemble.test.ts.
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { DocumentsDeps } from '../../../lambdas/documents/deps';
import { makeHandler } from '../../../lambdas/documents/handlers/batch-assembler';
import { monthlyRules } from '../../../lambdas/documents/core/plans';
import type { BatchFiles, JobRecord } from '../../../lambdas/documents/ports';
import { FakeBatchRepository, FakeMessageQueue, FakeMessageVisibility } from '../../fakes/documents';
import { FakeQuotaStore } from '../../fakes/platform';

/** The assemble queue's maxReceiveCount here: the third delivery is the last. */
export const MAX_RECEIVE_COUNT = 3;

const context = {
  functionName: 'test-batch-assembler',
  awsRequestId: 'req',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

export async function assemblerWorld(job: JobRecord, batchFiles: Partial<BatchFiles>, clock: () => Date) {
  const batches = new FakeBatchRepository(clock);
  await batches.create(job);
  const quotas = new FakeQuotaStore();
  const deliveryQueue = new FakeMessageQueue();
  const deps = {
    config: { MAX_RECEIVE_COUNT, JOB_RETRY_SCHEDULE_S: [1, 2] },
    batches,
    batchFiles,
    quotas,
    deliveryQueue,
    assembleQueue: new FakeMessageQueue(),
    batchQueue: new FakeMessageQueue(),
    assembleRedelivery: new FakeMessageVisibility(),
    webhooks: { get: async () => ({ events: ['document.rendered', 'document.failed'] }) },
    now: clock,
  } as unknown as DocumentsDeps;
  const handler = makeHandler(deps);
  let delivery = 0;
  /** Delivers `body` as its `attempt`-th receive; true when the handler acknowledged it. */
  const deliver = async (body: Record<string, unknown>, attempt: number) => {
    const record = {
      messageId: `m${++delivery}`,
      receiptHandle: `rh-${delivery}`,
      body: JSON.stringify(body),
      attributes: { ApproximateReceiveCount: String(attempt) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test-assemble',
      awsRegion: 'us-east-1',
    } as unknown as SQSRecord;
    const out = await handler({ Records: [record] } as SQSEvent, context);
    return out.batchItemFailures.length === 0;
  };
  /** What the batch's account used in the month of `at`. */
  const used = async (at: string) =>
    (await quotas.peek(job.batch!.quotaSubject, monthlyRules(job.plan), new Date(at)))[0]!.used;
  /** The delivery queue's webhook events of the job. */
  const events = () => deliveryQueue.messages.filter((m) => m.jobId === job.jobId);
  return { deps, batches, quotas, deliver, used, events };
}
