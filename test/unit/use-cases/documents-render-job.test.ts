// The render worker's use case (runRenderJob) against the in-memory fakes: a job is rendered once, its outcome
// recorded and its webhook event queued once; the caller's own fault fails at once, ours is retried and the last
// attempt fails the job; a failed job's quota is given back exactly once (all its units, by its charge id). And an
// async render's idempotent retry (its first request died after queueing the job) continues that job, however it
// interleaves with the worker or with a first attempt still running: one job, one render, one charge. A worker killed
// between settling a job and ending it (a call that never returns) leaves it `ending`: the redelivery ends it, and a
// key's retry after its job failed is charged under an id of its own, which that job's late refund cannot give back.
import { acceptAsyncRender, eventIdFor } from '../../../lambdas/documents/use-cases/jobs';
import { parseRenderRequest } from '../../../lambdas/documents/use-cases/render-request';
import { runRenderJob, type RenderJobDeps } from '../../../lambdas/documents/use-cases/jobs-render';
import { JobBusyError } from '../../../lambdas/shared/jobs/leased-job';
import { FakeJobFiles, FakeJobRepository, FakeMessageQueue, jobRecord } from '../../fakes/documents';
import type { ApiKeyRecord } from '../../../lambdas/shared/auth/keys';
import { FakeQuotaStore } from '../../fakes/platform';
import { handlerCases } from './documents-render-job/handler.cases';

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
  const job = jobRecord({ charged: decision.charged }, T0);
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

/**
 * The process is killed when it calls `method` of `port`: the call never returns. `dead` resolves when it is
 * reached; `revive()` puts the method back for the next process (SQS's redelivery, a retry).
 */
function killAt<P extends object, K extends keyof P>(
  port: P,
  method: K,
): { dead: Promise<void>; revive(): void } {
  const original = port[method];
  let reached!: () => void;
  const dead = new Promise<void>((r) => (reached = r));
  port[method] = (() => {
    reached();
    return new Promise<never>(() => undefined);
  }) as P[K];
  return { dead, revive: () => void (port[method] = original) };
}

/** A caller's fault only rendering finds (a filter the template engine does not know): the job fails at once. */
const unrenderable = (n: number) => ({
  format: 'html',
  custom_html: '<p>{{ n | no_such_filter }}</p>',
  data: { n },
});

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
    body: { ...csv, format: 'pdf' },
    subscribed: false,
  });
  await expect(runRenderJob(s.deps, s.id, 1)).rejects.toThrow(/chromium crashed/);
  expect(await s.jobs.get(s.id)).toMatchObject({ status: 'queued', attempts: 1 });
  expect(await s.used()).toBe(1);
  await expect(runRenderJob(s.deps, s.id, 2)).rejects.toThrow(/chromium crashed/);
  await expect(runRenderJob(s.deps, s.id, 3)).rejects.toThrow(/chromium crashed/); // on to the DLQ
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

// POST /v1/render with options.async and an Idempotency-Key, whose first request died after queueing its job (its
// answer never reached the key's record): the retry that takes the key over is charged under the same id (not again)
// and must continue that job, not queue a second render of the same request. And whatever fails, a job gives back
// exactly what it was charged.
describe('an idempotent retry of an async render, and what a failed job gives back', () => {
  const KEY: ApiKeyRecord = {
    keyHash: 'h',
    keyPrefix: 'key_x',
    plan: 'scale',
    status: 'active',
    email: 'a@example.com',
    createdAt: T0.toISOString(),
    accountId: 'cus_1',
  };
  let requests = 0;
  /**
   * The acceptance of `body` as POST /v1/render makes it: charged and held under `id` if given (else the request's
   * id), accepted, then the charge committed before the 202.
   */
  async function accept(s: Awaited<ReturnType<typeof setup>>, body: unknown, id?: string, units = 1) {
    const charge = (chargeId: string, force = false) =>
      s.deps.quotas.consume('docs#s', MONTH, T0, {
        id: chargeId,
        ...(units > 1 ? { units } : {}),
        // Held while the test runs (the fake compares holds with the real clock).
        hold: { id: chargeId, untilS: Math.ceil(Date.now() / 1000) + 3600 },
        force,
      });
    const accepted = await acceptAsyncRender(s.deps, {
      body,
      request: parseRenderRequest(body),
      key: KEY,
      plan: 'scale',
      decision: await charge(id ?? `req-${++requests}`),
      now: T0,
      ...(id ? { keyed: { chargeId: id, recharge: (other) => charge(other, true) } } : {}),
    });
    await s.deps.quotas.commit(accepted.decision);
    return accepted;
  }
  /** Runs the render messages queued since the last drain, in order; their outcomes, sorted. */
  const drained = new WeakMap<object, number>();
  const drain = async (s: Awaited<ReturnType<typeof setup>>) => {
    const queue = s.deps.renderQueue as FakeMessageQueue;
    const outcomes: string[] = [];
    for (let i = drained.get(queue) ?? 0; i < queue.messages.length; i++) {
      drained.set(queue, i + 1);
      outcomes.push(await runRenderJob(s.deps, String(queue.messages[i]!.jobId), 1));
    }
    return outcomes.sort();
  };

  test('the retry continues the same job: one job, one render, one event, one charge', async () => {
    const s = await setup();
    const first = await accept(s, csv, 'idem-1');
    const retry = await accept(s, csv, 'idem-1');
    expect(retry).toMatchObject({ statusCode: 202, body: { id: first.body.id, status: 'queued' } });
    expect(s.jobs.items.size).toBe(2); // setup's own job, and this request's one
    expect(await drain(s)).toEqual(['done', 'skipped']);
    expect(s.rendered).toEqual(['csv']);
    expect(s.deliveryQueue.messages).toEqual([
      { jobId: first.body.id, eventId: eventIdFor(String(first.body.id), 'document.rendered') },
    ]);
    expect(await s.used()).toBe(2); // setup's job and this one
    // A later retry of the same key finds the job done: answered with it, nothing queued or charged.
    expect(await accept(s, csv, 'idem-1')).toMatchObject({ body: { id: first.body.id, status: 'done' } });
    expect(await drain(s)).toEqual([]);
    expect(await s.used()).toBe(2);
  });

  test("the retry arrives while the worker fails the job (the caller's fault): one failure, given back once", async () => {
    const s = await setup();
    // A caller's fault only rendering finds: a filter the template engine does not know.
    const body = { format: 'html', custom_html: '<p>{{ n | no_such_filter }}</p>', data: { n: 1 } };
    const first = await accept(s, body, 'idem-2');
    const getRequest = s.jobFiles.getRequest.bind(s.jobFiles);
    let retried: Awaited<ReturnType<typeof accept>> | undefined;
    s.jobFiles.getRequest = async (jobId) => {
      retried ??= await accept(s, body, 'idem-2'); // between the worker's claim and its outcome
      return getRequest(jobId);
    };
    expect(await runRenderJob(s.deps, String(first.body.id), 1)).toBe('failed');
    expect(retried).toMatchObject({ statusCode: 202, body: { id: first.body.id } });
    expect(await drain(s)).toEqual(['skipped', 'skipped']); // the first message (run above) and the retry's
    expect(await s.jobs.get(String(first.body.id))).toMatchObject({ status: 'failed' });
    expect(s.deliveryQueue.messages).toHaveLength(1); // one document.failed event
    expect(await s.used()).toBe(1); // setup's job only: this request's charge was given back, once
  });

  test('two attempts at once (the first still running when its key lapsed): one job, both answered with it', async () => {
    const s = await setup();
    const create = s.jobs.create.bind(s.jobs);
    let other: Promise<Awaited<ReturnType<typeof accept>>> | undefined;
    s.jobs.create = async (job) => {
      if (!other) {
        other = accept(s, csv, 'idem-3'); // the other attempt creates the job first
        await other;
      }
      return create(job);
    };
    const mine = await accept(s, csv, 'idem-3');
    expect(mine).toMatchObject({ statusCode: 202, body: { id: (await other!).body.id } });
    expect(s.jobs.items.size).toBe(2); // setup's and this request's
    expect(await drain(s)).toEqual(['done', 'skipped']);
    expect(await s.used()).toBe(2);
  });

  test('a job that could not be queued is retired before its charge is given back; its retry is a new job', async () => {
    const s = await setup();
    (s.deps.renderQueue as FakeMessageQueue).faults.fail('send');
    await expect(accept(s, csv, 'idem-4')).rejects.toThrow(/could not be queued/);
    const retired = [...s.jobs.items.values()].find((j) => j.jobId !== s.id)!;
    expect(retired).toMatchObject({ status: 'failed', error: expect.stringMatching(/could not be queued/) });
    expect(await s.used()).toBe(1); // setup's job only
    // A restart re-queuing unfinished jobs does not render it; the key's retry (charged anew) is a new job.
    const retry = await accept(s, csv, 'idem-4');
    expect(retry.body.id).not.toBe(retired.jobId);
    expect(await drain(s)).toEqual(['done']);
    expect(await s.used()).toBe(2);
  });

  // The settling write marks the job `ending`; its end (charge, event, counters) removes the mark last. Before,
  // the redelivery of a worker that died in between found the job settled and only re-queued its event: the
  // caller stayed charged for a failed render.
  test.each([
    ['giving its charge back', 'refund'],
    ['queueing its event', 'send'],
  ] as const)(
    'a worker that dies between failing the job and %s: the redelivery ends it (given back once, one event)',
    async (_when, step) => {
      const s = await setup();
      const id = String((await accept(s, unrenderable(1))).body.id);
      const kill = step === 'refund' ? killAt(s.deps.quotas, 'refund') : killAt(s.deliveryQueue, 'send');
      void runRenderJob(s.deps, id, 1);
      await kill.dead;
      expect(await s.jobs.get(id)).toMatchObject({ status: 'failed', ending: true });
      kill.revive();
      expect(await s.used()).toBe(step === 'refund' ? 2 : 1);
      expect(await runRenderJob(s.deps, id, 2)).toBe('skipped'); // SQS delivers the message again
      expect(await s.used()).toBe(1); // setup's job only
      expect(s.deliveryQueue.messages).toEqual([{ jobId: id, eventId: eventIdFor(id, 'document.failed') }]);
      expect((await s.jobs.get(id))!.ending).toBeUndefined();
      expect(await runRenderJob(s.deps, id, 3)).toBe('skipped'); // ended: nothing more
      expect(await s.used()).toBe(1);
      expect(s.deliveryQueue.messages).toHaveLength(1);
    },
    5000,
  );

  test('a failed merge gives back every document it was charged for', async () => {
    const s = await setup();
    const part = { template: 'ventas', data: csv.data };
    const merge = { format: 'pdf', documents: [part, part, part] };
    const accepted = await accept(s, merge, undefined, 3);
    expect(await s.used()).toBe(4);
    const id = String(accepted.body.id);
    await expect(runRenderJob(s.deps, id, 1)).rejects.toThrow(/chromium crashed/);
    await expect(runRenderJob(s.deps, id, 2)).rejects.toThrow(/chromium crashed/);
    await expect(runRenderJob(s.deps, id, 3)).rejects.toThrow(/chromium crashed/);
    expect(await s.jobs.get(id)).toMatchObject({ status: 'failed' });
    expect(await s.used()).toBe(1);
  });
});

/** A job queued by a request that died before its 202: its hold was given back, so its worker's commit charges it. */
async function jobOfADeadRequest(s: Awaited<ReturnType<typeof setup>>, id: string) {
  const quotas = s.deps.quotas as FakeQuotaStore;
  const decision = await quotas.consume('docs#s', MONTH, T0, { id, hold: { id, untilS: 0 } });
  const job = {
    ...jobRecord({ charged: decision.charged, chargeId: id, hold: id }, T0),
    jobId: `job_heldchargeofdead${id}`,
  };
  await s.jobs.create(job);
  await s.jobFiles.putRequest(job.jobId, JSON.stringify(csv));
  quotas.releaseHolds(decision.charged, true); // the dead request's hold, given back
  return job;
}

test('a job whose request died after queueing it, before its 202 (its hold given back): charged when its worker delivers, once', async () => {
  const s = await setup();
  const job = await jobOfADeadRequest(s, 'req-1');
  const before = await s.used();
  expect(await runRenderJob(s.deps, job.jobId, 1)).toBe('done');
  expect(await s.used()).toBe(before + 1);
  expect(await runRenderJob(s.deps, job.jobId, 2)).toBe('skipped');
  expect(await s.used()).toBe(before + 1);
});

test('a worker that dies between delivering a job and committing its charge: the redelivery commits it, counts it once', async () => {
  const s = await setup();
  const job = await jobOfADeadRequest(s, 'req-2');
  const before = await s.used();
  const kill = killAt(s.deps.quotas, 'commit');
  void runRenderJob(s.deps, job.jobId, 1);
  await kill.dead;
  expect(await s.jobs.get(job.jobId)).toMatchObject({ status: 'done', ending: true });
  kill.revive();
  expect(await runRenderJob(s.deps, job.jobId, 2)).toBe('skipped'); // SQS delivers the message again
  expect(await s.used()).toBe(before + 1);
  expect(s.rendered).toEqual(['csv']); // the render counted once (GET /stats)
  expect(s.deliveryQueue.messages).toEqual([
    { jobId: job.jobId, eventId: eventIdFor(job.jobId, 'document.rendered') },
  ]);
  expect(await runRenderJob(s.deps, job.jobId, 3)).toBe('skipped');
  expect(await s.used()).toBe(before + 1);
  expect(s.rendered).toEqual(['csv']);
}, 5000);

handlerCases({ T0, csv, killAt, unrenderable });
