// The documents render worker under a fault on our side, against the emulators and the real SQS redrive (as
// narration-worker-crash.test.ts does for narration): the job is accepted through acceptAsyncRender onto the real render queue,
// the worker's handler runs from the local poller, each failed attempt goes back to the queue by redelivery, the
// attempt the queue counts as the last fails the job and gives the quota back, and SQS moves the message to the
// render queue's DLQ. Then `npm run dlq -- redrive` (bin/dlq.ts's main, what the script runs) sends it back and the
// render worker, Chromium working again, produces its PDF.
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { main as dlqMain } from '../../bin/dlq';
import { awsDeps, sharedRenderer, type DocumentsDeps } from '../../lambdas/documents/deps';
import { acceptAsyncRender } from '../../lambdas/documents/use-cases/jobs';
import { parseRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { makeHandler } from '../../lambdas/documents/handlers/render-worker';
import { documentsManifest } from '../../lambdas/documents/routes';
import { sqsClient } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { startPoller, type Poller } from '../../lib/local/worker-poller';
import { withEmulators } from '../helpers/env';
import { receiveUntilRedriven } from '../helpers/sqs-redrive';
import { until } from '../helpers/until';

jest.setTimeout(120_000);

const MAX_RECEIVE_COUNT = documentsManifest.queues.find((q) => q.id === 'render')!.maxReceiveCount;

let emu: Awaited<ReturnType<typeof withEmulators>>;
const pollers: Poller[] = [];
beforeAll(async () => {
  emu = await withEmulators({ queueVisibilityS: 2 });
  Object.assign(process.env, { MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT) });
  resetConfig();
});
afterAll(async () => {
  for (const p of pollers) p.kill();
  await emu.cleanup();
});

test(`a render that always fails on our side: ${MAX_RECEIVE_COUNT} deliveries, failed + refunded, message in the DLQ`, async () => {
  const base = awsDeps();
  let renders = 0;
  let crashing = true;
  // Chromium crashing on every attempt: a fault on our side (retried), not the caller's; fixed before the redrive.
  const deps = Object.assign(Object.create(base) as DocumentsDeps, {
    renderer: async () => {
      if (!crashing) return sharedRenderer();
      return {
        renderPdf: async () => {
          renders += 1;
          throw new Error('chromium crashed');
        },
        renderPng: async () => Buffer.alloc(0),
      };
    },
  });
  const queue = { url: emu.queues.render!, dlq: emu.queues.renderDlq! };

  const now = new Date();
  const rules = [{ period: 'month' as const, limit: 10 }];
  const subject = 'docs#redrive';
  const decision = await base.quotas.consume(subject, rules, now);
  const body = { custom_html: '<p>{{ n }}</p>', format: 'pdf', data: { n: 1 } };
  const accepted = await acceptAsyncRender(base, {
    body,
    request: parseRenderRequest(body),
    key: {
      keyHash: 'f'.repeat(64),
      keyPrefix: 'key_redrive',
      plan: 'scale',
      status: 'active',
      email: 'ops@example.com',
      createdAt: now.toISOString(),
    },
    plan: 'scale',
    decision,
    now,
  });
  const jobId = accepted.body.id as string;
  expect((await base.quotas.peek(subject, rules, now))[0]!.used).toBe(1);

  const spec = documentsManifest.workers.find((w) => w.queues.includes('render'))!;
  pollers.push(
    startPoller({
      worker: spec,
      handler: makeHandler(deps),
      queues: emu.queues,
      endpoint: emu.env.AWS_ENDPOINT_URL_SQS!,
      visibilityS: 2,
      log: (l) => process.env.DEBUG_FAULTS && console.log(new Date().toISOString(), l),
    }),
  );
  const failed = await until(
    'the job to fail',
    async () => {
      const job = await base.jobs.get(jobId);
      return job?.status === 'failed' ? job : undefined;
    },
    60_000,
  );
  for (const p of pollers.splice(0)) p.kill();

  expect(failed.error).toMatch(new RegExp(`on our side after ${MAX_RECEIVE_COUNT} attempts`));
  expect(renders).toBe(MAX_RECEIVE_COUNT); // one render per delivery, no retry inside a delivery
  expect((await base.quotas.peek(subject, rules, now))[0]!.used).toBe(0); // the charge was given back

  // As in SQS, the move to the DLQ happens when the message would be received once more.
  const redriven = await receiveUntilRedriven(
    sqsClient(),
    queue.url,
    queue.dlq,
    (body) => (body as { jobId?: string }).jobId === jobId,
  );
  // Looked at with visibility 0: left in place for the redrive below.
  expect(redriven.received).toEqual([]);
  expect(redriven.dead.body).toEqual({ jobId });
  expect(Number(redriven.dead.Attributes!.ApproximateReceiveCount)).toBeGreaterThanOrEqual(MAX_RECEIVE_COUNT);
  // The operator fixes the cause and redrives: the job goes back to queued, its message to the render queue, and
  // the worker renders it from the request it kept.
  crashing = false;
  const out: string[] = [];
  expect(await dlqMain(['redrive', 'render-dlq'], (l) => out.push(l))).toBe(0);
  expect(out.join('\n')).toMatch(
    /moved 1 message\(s\) test-render-dlq → test-render; 1 failed job\(s\) set back to queued/,
  );
  const pollerLog: string[] = [];
  pollers.push(
    startPoller({
      worker: spec,
      handler: makeHandler(deps),
      queues: emu.queues,
      endpoint: emu.env.AWS_ENDPOINT_URL_SQS!,
      visibilityS: 2,
      log: (l) => pollerLog.push(`${new Date().toISOString()} ${l}`),
    }),
  );
  // If it times out, where the job and its message were (ci63 once timed out here with no line from the worker).
  const whereItWas = async () => {
    const job = await base.jobs.get(jobId);
    const counts = async (url: string) =>
      (
        await sqsClient().send(
          new GetQueueAttributesCommand({
            QueueUrl: url,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          }),
        )
      ).Attributes;
    return {
      job: { status: job?.status, error: job?.error },
      renders,
      renderQueue: await counts(queue.url),
      dlq: await counts(queue.dlq),
      pollerLog,
    };
  };
  const done = await until(
    'the redriven job to be rendered',
    async () => {
      const job = await base.jobs.get(jobId);
      return job?.status === 'done' ? job : undefined;
    },
    60_000,
    whereItWas,
  );
  for (const p of pollers.splice(0)) p.kill();
  const pdf = Buffer.from(
    await (await fetch(await base.jobFiles.presignResult(done.result!, 60))).arrayBuffer(),
  );
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(await base.jobFiles.getRequest(jobId)).toBeUndefined(); // settled: its request is gone
});
