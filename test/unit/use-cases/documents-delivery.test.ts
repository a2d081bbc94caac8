// Webhook delivery scheduling (deliverEvent) against the in-memory fakes. The endpoint's name resolves (stub) to a
// loopback address outside the allowlist, so the SSRF policy refuses every attempt before any connection: what is
// tested is what the use case records and when it asks for the next try.
import { eventIdFor } from '../../../lambdas/documents/use-cases/jobs';
import { MAX_RECORDED_DELIVERIES, type DeliveryAttempt } from '../../../lambdas/documents/ports';
import { requeuePendingEvents } from '../../../lambdas/documents/use-cases/job-events';
import {
  DeliveryFailedError,
  deliverEvent,
  type DeliveryDeps,
} from '../../../lambdas/documents/use-cases/webhooks';
import { parseAllowlist, stubResolver } from '../../../lambdas/shared/net/safe-fetch';
import {
  FakeJobFiles,
  FakeJobRepository,
  FakeMessageQueue,
  FakeWebhookStore,
  jobRecord,
} from '../../fakes/documents';

const T0 = new Date('2026-03-01T12:00:00Z');
const SCHEDULE = [60, 300];

async function setup(opts: { endpoint?: boolean } = {}) {
  const jobs = new FakeJobRepository(() => T0);
  const webhooks = new FakeWebhookStore();
  const deliveryQueue = new FakeMessageQueue();
  const jobId = 'job_test0000000000000000002';
  const event = {
    id: eventIdFor(jobId, 'document.rendered'),
    type: 'document.rendered' as const,
    queued: true,
  };
  const job = jobRecord({ jobId, owner: 'acct:cus_d' }, T0);
  await jobs.create(job);
  await jobs.complete(jobId, {
    result: { key: 'k', filename: 'v.csv', contentType: 'text/csv', bytes: 3 },
    event,
    completedAt: T0.toISOString(),
  });
  if (opts.endpoint !== false)
    await webhooks.put({
      owner: job.owner,
      url: 'https://receiver.test/hook',
      events: ['document.rendered'],
      secret: 'whsec_unit',
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
      changedBy: 'k',
    });
  const deps: DeliveryDeps = {
    jobs,
    jobFiles: new FakeJobFiles(),
    webhooks,
    deliveryQueue,
    webhookPolicy: {
      allowlist: parseAllowlist(''),
      resolver: stubResolver({ 'receiver.test': ['127.0.0.1'] }),
      timeoutMs: 1000,
    },
    config: { WEBHOOK_RETRY_SCHEDULE_S: SCHEDULE, JOB_DOWNLOAD_TTL_S: 3600 },
    now: () => T0,
  };
  const message = { jobId, eventId: event.id };
  return { deps, jobs, deliveryQueue, message, jobId };
}

test('a failed attempt is recorded with its next attempt time and the message set to reappear then', async () => {
  const s = await setup();
  await expect(deliverEvent(s.deps, s.message, 1, 'rh-1')).rejects.toBeInstanceOf(DeliveryFailedError);
  await expect(deliverEvent(s.deps, s.message, 2, 'rh-2')).rejects.toBeInstanceOf(DeliveryFailedError);
  expect(s.deliveryQueue.retries).toEqual([
    { receiptHandle: 'rh-1', delayS: 60 },
    { receiptHandle: 'rh-2', delayS: 300 },
  ]);
  const deliveries = (await s.jobs.get(s.jobId))!.deliveries!;
  expect(deliveries.map((d) => [d.attempt, d.outcome, d.statusCode, d.nextAttemptAt])).toEqual([
    [1, 'refused', null, new Date(T0.getTime() + 60_000).toISOString()],
    [2, 'refused', null, new Date(T0.getTime() + 300_000).toISOString()],
  ]);
});

test('the last attempt records no next time and leaves the message to the DLQ at once', async () => {
  const s = await setup();
  await expect(deliverEvent(s.deps, s.message, SCHEDULE.length + 1, 'rh-3')).rejects.toThrow(/attempt 3\/3/);
  expect(s.deliveryQueue.retries).toEqual([{ receiptHandle: 'rh-3', delayS: 0 }]);
  expect((await s.jobs.get(s.jobId))!.deliveries![0]!.nextAttemptAt).toBeNull();
});

test('nothing is sent for an unknown event, nor once no endpoint is subscribed (recorded as skipped)', async () => {
  const s = await setup({ endpoint: false });
  expect(await deliverEvent(s.deps, { ...s.message, eventId: 'evt_other' }, 1, 'rh')).toBe('skipped');
  expect((await s.jobs.get(s.jobId))!.deliveries).toBeUndefined();
  expect(await deliverEvent(s.deps, s.message, 1, 'rh')).toBe('skipped');
  expect((await s.jobs.get(s.jobId))!.deliveries).toEqual([
    expect.objectContaining({ outcome: 'skipped', nextAttemptAt: null }),
  ]);
  expect(s.deliveryQueue.retries).toEqual([]);
});

test('a full delivery record stops retrying: the message goes to the DLQ', async () => {
  const s = await setup();
  for (let i = 0; i < MAX_RECORDED_DELIVERIES; i++)
    await s.jobs.addDelivery(s.jobId, {
      eventId: s.message.eventId,
      type: 'document.rendered',
      attempt: 1,
      at: T0.toISOString(),
      outcome: 'failed',
      statusCode: 500,
      durationMs: 1,
    });
  await expect(deliverEvent(s.deps, s.message, 1, 'rh')).rejects.toThrow(/too many recorded deliveries/);
  expect(s.deliveryQueue.retries).toEqual([{ receiptHandle: 'rh', delayS: 0 }]);
  expect((await s.jobs.get(s.jobId))!.deliveries).toHaveLength(MAX_RECORDED_DELIVERIES);
});

// The local runtime's queues live in memory: a restart loses every event message of the previous run. It queues
// again what was not delivered yet (lib/local/runtime.ts requeueDocumentJobs), from the jobs' own records.
test('after a restart: events not delivered yet are queued again (a retry when its schedule said), the rest not', async () => {
  const jobs = new FakeJobRepository(() => T0);
  const deliveryQueue = new FakeMessageQueue();
  const attempt = (id: string, outcome: DeliveryAttempt['outcome'], next: Date | null) => ({
    eventId: eventIdFor(id, 'document.rendered'),
    type: 'document.rendered' as const,
    attempt: 1,
    at: T0.toISOString(),
    outcome,
    statusCode: outcome === 'delivered' ? 200 : 500,
    durationMs: 5,
    nextAttemptAt: next ? next.toISOString() : null,
  });
  const made: Record<string, string> = {};
  const job = async (name: string, queued: boolean, deliveries: DeliveryAttempt[] = [], settle = true) => {
    const jobId = `job_restart${name.padEnd(13, '0')}`;
    made[name] = jobId;
    await jobs.create(jobRecord({ jobId }, T0));
    if (!settle) return;
    const event = { id: eventIdFor(jobId, 'document.rendered'), type: 'document.rendered' as const, queued };
    await jobs.complete(jobId, { event, completedAt: T0.toISOString() });
    for (const d of deliveries) await jobs.addDelivery(jobId, { ...d, eventId: event.id });
  };
  await job('lost', true); // queued, then the queue went with the process
  await job('unqueued', false); // killed between the outcome and its event
  await job('retrying', true, [attempt('x', 'failed', new Date(T0.getTime() + 60_000))]);
  await job('delivered', true, [attempt('x', 'delivered', null)]);
  await job('gaveup', true, [attempt('x', 'failed', null)]); // last attempt: on to the DLQ
  await job('unfinished', false, [], false); // its render is re-queued instead
  const queued = await requeuePendingEvents(
    { deliveryQueue, jobs },
    await jobs.listSettledWithEvents(100),
    T0,
  );
  expect(queued).toBe(3);
  expect(deliveryQueue.sent).toEqual([
    { message: { jobId: made.lost, eventId: eventIdFor(made.lost!, 'document.rendered') }, delayS: 0 },
    {
      message: { jobId: made.unqueued, eventId: eventIdFor(made.unqueued!, 'document.rendered') },
      delayS: 0,
    },
    {
      message: { jobId: made.retrying, eventId: eventIdFor(made.retrying!, 'document.rendered') },
      delayS: 60,
    },
  ]);
  expect((await jobs.get(made.unqueued!))!.event!.queued).toBe(true);
});
