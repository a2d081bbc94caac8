// The render worker's use case (runRenderJob) against the in-memory fakes: a job is rendered once, its outcome
// recorded and its webhook event queued once; the caller's own fault fails at once, ours is retried and the last
// attempt fails the job; a failed job's quota is given back exactly once.
import { eventIdFor, type JobRecord } from '../../../lambdas/documents/use-cases/jobs';
import { runRenderJob, type RenderJobDeps } from '../../../lambdas/documents/use-cases/jobs-render';
import { JobBusyError } from '../../../lambdas/shared/jobs/leased-job';
import { FakeJobFiles, FakeJobRepository, FakeMessageQueue } from '../../fakes/documents';
import { FakeQuotaStore } from '../../fakes/platform';

const T0 = new Date('2026-03-01T12:00:00Z');
const MONTH = [{ period: 'month' as const, limit: 10 }];
const csv = {
  template: 'ventas',
  format: 'csv',
  data: { title: 'V', rows: [{ product: 'A', units: 1, revenue: 2 }] },
};

let clock: Date;
async function setup(over: { body?: unknown; subscribed?: boolean | Error } = {}) {
  clock = T0;
  const jobs = new FakeJobRepository(() => clock, 60);
  const jobFiles = new FakeJobFiles();
  const deliveryQueue = new FakeMessageQueue();
  const quotas = new FakeQuotaStore();
  const rendered: string[] = [];
  const decision = await quotas.consume('docs#s', MONTH, T0);
  const job: JobRecord = {
    jobId: 'job_test0000000000000000001',
    owner: 'acct:cus_1',
    plan: 'scale',
    status: 'queued',
    progress: 0,
    template: 'ventas',
    format: 'csv',
    createdAt: T0.toISOString(),
    updatedAt: T0.toISOString(),
    expiresAt: Math.floor(T0.getTime() / 1000) + 86400,
    charged: decision.charged,
  };
  await jobs.create(job);
  if (over.body !== undefined || !('body' in over))
    await jobFiles.putRequest(job.jobId, JSON.stringify('body' in over ? over.body : csv));
  const deps: RenderJobDeps = {
    jobs,
    jobFiles,
    renderQueue: new FakeMessageQueue(),
    deliveryQueue,
    quotas,
    subscribed: async () => {
      if (over.subscribed instanceof Error) throw over.subscribed;
      return over.subscribed ?? true;
    },
    renderer: async () => ({
      renderPdf: () => Promise.reject(new Error('chromium crashed')),
      renderPng: () => Promise.reject(new Error('chromium crashed')),
    }),
    recordRender: async (format) => void rendered.push(format),
    now: () => clock,
    maxAttempts: 3,
  };
  const used = async () => (await quotas.peek('docs#s', MONTH, T0))[0]!.used;
  return { deps, jobs, jobFiles, deliveryQueue, rendered, used, id: job.jobId };
}

test('done: the document is stored, the outcome recorded, the event queued once; a duplicate does nothing', async () => {
  const s = await setup();
  clock = new Date(T0.getTime() + 5000);
  expect(await runRenderJob(s.deps, s.id, 1)).toBe('done');
  const done = (await s.jobs.get(s.id))!;
  expect(done).toMatchObject({
    status: 'done',
    progress: 1,
    completedAt: clock.toISOString(),
    event: { id: eventIdFor(s.id, 'document.rendered'), type: 'document.rendered', queued: true },
  });
  expect(s.jobFiles.objects.get(done.result!.key)!.toString()).toContain('A');
  expect(s.jobFiles.objects.has(`jobs/${s.id}.json`)).toBe(false); // request cleaned up
  expect(s.deliveryQueue.messages).toEqual([{ jobId: s.id, eventId: eventIdFor(s.id, 'document.rendered') }]);
  expect(s.rendered).toEqual(['csv']);

  expect(await runRenderJob(s.deps, s.id, 2)).toBe('skipped');
  expect(s.deliveryQueue.messages).toHaveLength(1);
  expect(s.rendered).toEqual(['csv']);
  expect(await s.used()).toBe(1); // a delivered document counts
});

test('a duplicate delivery re-queues an event whose queueing was lost', async () => {
  const s = await setup();
  await s.jobs.complete(s.id, {
    result: { key: 'k', filename: 'v.csv', contentType: 'text/csv', bytes: 1 },
    event: { id: eventIdFor(s.id, 'document.rendered'), type: 'document.rendered', queued: false },
  });
  expect(await runRenderJob(s.deps, s.id, 2)).toBe('skipped');
  expect(s.deliveryQueue.messages).toEqual([{ jobId: s.id, eventId: eventIdFor(s.id, 'document.rendered') }]);
  expect((await s.jobs.get(s.id))!.event!.queued).toBe(true);
});

test("the caller's fault fails at once with problems, a document.failed event and the charge given back once", async () => {
  const s = await setup({ body: { template: 'ventas', format: 'csv', data: { title: 1 } } });
  expect(await runRenderJob(s.deps, s.id, 1)).toBe('failed');
  const failed = (await s.jobs.get(s.id))!;
  expect(failed).toMatchObject({ status: 'failed', event: { type: 'document.failed', queued: true } });
  expect(failed.problems![0]!.loc.slice(0, 2)).toEqual(['body', 'data']);
  expect(await s.used()).toBe(0);
  expect(await runRenderJob(s.deps, s.id, 2)).toBe('skipped');
  expect(await s.used()).toBe(0);
});

test('a fault on our side is retried (job released), and the last attempt fails the job and refunds', async () => {
  const s = await setup({
    body: { custom_html: '<p>{{ n }}</p>', format: 'pdf', data: { n: 1 } },
    subscribed: false,
  });
  await expect(runRenderJob(s.deps, s.id, 1)).rejects.toThrow(/chromium crashed/);
  expect(await s.jobs.get(s.id)).toMatchObject({ status: 'queued', attempts: 1 });
  expect(await s.used()).toBe(1);
  await expect(runRenderJob(s.deps, s.id, 2)).rejects.toThrow(/chromium crashed/);
  expect(await runRenderJob(s.deps, s.id, 3)).toBe('failed');
  const failed = (await s.jobs.get(s.id))!;
  expect(failed.error).toMatch(/on our side after 3 attempts/);
  expect(failed.event).toBeUndefined(); // nobody subscribed
  expect(s.deliveryQueue.messages).toEqual([]);
  expect(await s.used()).toBe(0);
});

test('a job another worker holds is busy until its lease runs out', async () => {
  const s = await setup();
  await s.jobs.claim(s.id, 1);
  await expect(runRenderJob(s.deps, s.id, 2)).rejects.toBeInstanceOf(JobBusyError);
  clock = new Date(T0.getTime() + 61_000);
  expect(await runRenderJob(s.deps, s.id, 2)).toBe('done');
});

test('a job whose request expired fails with a reason; a webhook lookup failure does not fail a render', async () => {
  const gone = await setup({ body: undefined });
  expect(await runRenderJob(gone.deps, gone.id, 1)).toBe('failed');
  expect((await gone.jobs.get(gone.id))!.error).toMatch(/expired/);
  expect(await gone.used()).toBe(0);

  const s = await setup({ subscribed: new Error('table unavailable') });
  expect(await runRenderJob(s.deps, s.id, 1)).toBe('done');
  expect((await s.jobs.get(s.id))!.event).toBeUndefined();
});
