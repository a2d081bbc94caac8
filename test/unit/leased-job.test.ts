// runLeasedJob, the one worker loop of every queue-fed job, on the in-memory store (whose behaviour the contract in
// test/integration/leased-job-store.test.ts pins to the DynamoDB adapter's).
import {
  JobBusyError,
  runLeasedJob,
  type LeasedJob,
  type LeasedJobPolicy,
} from '../../lambdas/shared/jobs/leased-job';
import { InMemoryMetrics, useMetrics } from '../../lambdas/shared/observability/metrics';
import { FakeLeasedJobStore } from '../fakes/leased-job-store';

interface Job extends LeasedJob {
  id: string;
}

const T0 = new Date('2026-11-21T10:00:00Z');
let clock: Date;
let store: FakeLeasedJobStore<Job>;
let settled: (Job | undefined)[];
let givenUp: { job: Job; err: unknown; attempt: number }[];

const policy: LeasedJobPolicy<Job, string> = {
  maxAttempts: 3,
  metric: { service: 'documents', kind: 'render' },
  onSettled: async (current) => void settled.push(current),
  giveUp: async (job, err, attempt) => {
    givenUp.push({ job, err, attempt });
    await store.fail(job.id, 'gave up');
    return 'failed';
  },
};

beforeEach(async () => {
  clock = T0;
  store = new FakeLeasedJobStore<Job>('id', 'processing', () => clock, 60);
  settled = [];
  givenUp = [];
  await store.create({ id: 'a', status: 'queued', progress: 0, updatedAt: T0.toISOString() });
});

test('claims the job and runs the work on the claimed record; the work settles it', async () => {
  const seen: Job[] = [];
  const outcome = await runLeasedJob(
    store,
    'a',
    1,
    async (job) => {
      seen.push(job);
      await store.complete(job.id, {});
      return 'done';
    },
    policy,
  );
  expect(outcome).toBe('done');
  expect(seen).toEqual([expect.objectContaining({ id: 'a', status: 'processing', attempts: 1 })]);
  expect((await store.get('a'))!.status).toBe('done');
});

test('a duplicate delivery of a settled job is acknowledged without work; so is a missing job', async () => {
  await store.fail('a', 'earlier');
  const work = jest.fn(async () => 'done');
  expect(await runLeasedJob(store, 'a', 2, work, policy)).toBe('skipped');
  expect(await runLeasedJob(store, 'gone', 1, work, policy)).toBe('skipped');
  expect(work).not.toHaveBeenCalled();
  expect(settled).toEqual([
    expect.objectContaining({ id: 'a', status: 'failed', error: 'earlier' }),
    undefined,
  ]);
});

test('a settled job still `ending` (its worker died before its end) is ended by the next delivery, once', async () => {
  const ended: Job[] = [];
  let failEnd = true;
  const ending: LeasedJobPolicy<Job, string> = {
    ...policy,
    end: async (current) => {
      ended.push(current);
      if (failEnd) throw new Error('quota table unavailable');
      await store.markEnded(current.id);
    },
  };
  await store.fail('a', 'earlier', { ending: true });
  const metrics = new InMemoryMetrics();
  const restore = useMetrics('documents', metrics);
  const work = jest.fn(async () => 'done');
  // An end that throws leaves the mark: the message is retried and the end runs again.
  await expect(runLeasedJob(store, 'a', 2, work, ending)).rejects.toThrow(/unavailable/);
  failEnd = false;
  expect(await runLeasedJob(store, 'a', 3, work, ending)).toBe('skipped');
  expect(await runLeasedJob(store, 'a', 4, work, ending)).toBe('skipped'); // ended: acknowledged as settled
  restore();
  // Each delivery that found it still `ending` counts (the alarm's metric); the one after its end does not.
  expect(metrics.points).toEqual([
    { name: 'JobsEndedLate', unit: 'Count', value: 1, detail: { kind: 'render' } },
    { name: 'JobsEndedLate', unit: 'Count', value: 1, detail: { kind: 'render' } },
  ]);
  expect(work).not.toHaveBeenCalled();
  expect(ended).toEqual([
    expect.objectContaining({ id: 'a', status: 'failed', ending: true }),
    expect.objectContaining({ id: 'a', status: 'failed', ending: true }),
  ]);
  expect(settled).toEqual([expect.objectContaining({ id: 'a', status: 'failed' })]);
  expect(await store.get('a')).not.toHaveProperty('ending');
});

test('a job another worker holds throws JobBusyError and is left alone; after its lease it is taken over', async () => {
  await store.claim('a', 1);
  const work = jest.fn(async () => 'done');
  await expect(runLeasedJob(store, 'a', 2, work, policy)).rejects.toBeInstanceOf(JobBusyError);
  expect(work).not.toHaveBeenCalled();
  expect(await store.get('a')).toMatchObject({ status: 'processing', attempts: 1 });
  clock = new Date(T0.getTime() + 61_000);
  expect(await runLeasedJob(store, 'a', 2, work, policy)).toBe('done');
  expect(work).toHaveBeenCalledWith(expect.objectContaining({ attempts: 2 }), expect.any(AbortSignal));
});

test('the lease is renewed while the work runs: a job longer than its lease is not taken over', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    let finish!: () => void;
    let lost: AbortSignal | undefined;
    const running = runLeasedJob(
      store,
      'a',
      1,
      (job, signal) => {
        lost = signal;
        return new Promise<string>((r) => (finish = () => r('done')));
      },
      policy,
    );
    await jest.advanceTimersByTimeAsync(0);
    const first = (await store.get('a'))!.leaseUntil!;
    // Five minutes of work against a 60 s lease, the clock moving with the timers.
    for (let s = 10; s <= 300; s += 10) {
      clock = new Date(T0.getTime() + s * 1000);
      await jest.advanceTimersByTimeAsync(10_000);
      await expect(runLeasedJob(store, 'a', 2, async () => 'stolen', policy)).rejects.toBeInstanceOf(
        JobBusyError,
      );
    }
    const held = (await store.get('a'))!;
    expect(held).toMatchObject({ status: 'processing', attempts: 1 });
    expect(held.leaseUntil).toBeGreaterThan(first + 200);
    expect(lost!.aborted).toBe(false);
    finish();
    expect(await running).toBe('done');
    // The heartbeat stopped with the work: no renewal keeps a finished delivery's job held.
    const after = (await store.get('a'))!.leaseUntil;
    clock = new Date(T0.getTime() + 400_000);
    await jest.advanceTimersByTimeAsync(60_000);
    expect((await store.get('a'))!.leaseUntil).toBe(after);
  } finally {
    jest.useRealTimers();
  }
});

test('without the heartbeat (a worker that stalls its timers) the job is taken over, and the stalled worker learns it lost the job', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    let lost: AbortSignal | undefined;
    let finish!: () => void;
    const running = runLeasedJob(
      store,
      'a',
      1,
      (job, signal) => {
        lost = signal;
        return new Promise<string>((r) => (finish = () => r('late')));
      },
      policy,
    );
    await jest.advanceTimersByTimeAsync(0);
    // No timer fires for 61 s of clock (an event loop blocked past the lease): the next delivery takes the job over.
    clock = new Date(T0.getTime() + 61_000);
    expect(await runLeasedJob(store, 'a', 2, async () => 'taken over', policy)).toBe('taken over');
    expect((await store.get('a'))!.attempts).toBe(2);
    await jest.advanceTimersByTimeAsync(20_000); // the stalled worker's next beat finds the job taken
    expect(lost!.aborted).toBe(true);
    finish();
    await running;
  } finally {
    jest.useRealTimers();
  }
});

test('a failed attempt before the last releases the job for the next delivery and rethrows', async () => {
  const boom = new Error('engine down');
  await expect(runLeasedJob(store, 'a', 2, () => Promise.reject(boom), policy)).rejects.toBe(boom);
  expect(await store.get('a')).toMatchObject({ status: 'queued', attempts: 2 });
  expect(givenUp).toEqual([]);
  // The next delivery claims it at once (no lease to wait for).
  expect(await store.claim('a', 3)).toBeDefined();
});

test('the last attempt hands the failure to giveUp, which settles the job and decides the outcome', async () => {
  const boom = new Error('engine down');
  expect(await runLeasedJob(store, 'a', 3, () => Promise.reject(boom), policy)).toBe('failed');
  expect(givenUp).toEqual([
    { job: expect.objectContaining({ id: 'a', attempts: 3 }), err: boom, attempt: 3 },
  ]);
  expect(await store.get('a')).toMatchObject({ status: 'failed', error: 'gave up' });

  // A policy may also let the message go on to the DLQ by throwing.
  await store.create({ id: 'b', status: 'queued', updatedAt: T0.toISOString() });
  const rethrow: LeasedJobPolicy<Job, string> = {
    maxAttempts: 1,
    metric: { service: 'narration', kind: 'narration' },
    giveUp: async (job, err) => {
      await store.fail(job.id, 'gave up');
      throw err;
    },
  };
  await expect(runLeasedJob(store, 'b', 1, () => Promise.reject(boom), rethrow)).rejects.toBe(boom);
  expect((await store.get('b'))!.status).toBe('failed');
});
