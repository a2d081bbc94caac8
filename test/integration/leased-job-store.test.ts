// One contract for every LeasedJobStore: the DynamoDB adapter against the emulator (dynalite), in both item shapes
// the services use (keyed by the record's id like narration's audio table; a prefixed `pk` in a shared table like
// documents' jobs), and the in-memory fake the use-case unit tests run on. What one does, the others do.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoLeasedJobStore } from '../../lambdas/shared/jobs/dynamo-leased-job-store';
import type { LeasedJob, LeasedJobStore } from '../../lambdas/shared/jobs/leased-job';
import { FakeLeasedJobStore } from '../fakes/leased-job-store';
import { withEmulators } from '../helpers/env';

jest.setTimeout(60_000);

interface TestJob extends LeasedJob {
  jobId: string;
  audioId: string;
  kind: string;
  bytes?: number;
  completedAt?: string;
}

let emu: Awaited<ReturnType<typeof withEmulators>>;
beforeAll(async () => {
  emu = await withEmulators();
});
afterAll(async () => {
  await emu?.cleanup();
});

const T0 = new Date('2026-11-21T10:00:00Z');
const LEASE_S = 60;
let clock = T0;
const now = () => clock;
const later = (s: number) => new Date(T0.getTime() + s * 1000);
const queuedJob = (id: string, extra: Partial<TestJob> = {}): TestJob => ({
  jobId: id,
  audioId: id,
  kind: 'test',
  status: 'queued',
  progress: 0,
  updatedAt: T0.toISOString(),
  ...extra,
});

interface Subject {
  store: LeasedJobStore<TestJob>;
  /** The stored item as the table holds it (undefined for the fake). */
  raw?(id: string): Promise<Record<string, unknown> | undefined>;
}

const subjects: [string, () => Subject][] = [
  ['in-memory fake', () => ({ store: new FakeLeasedJobStore<TestJob>('jobId', 'working', now, LEASE_S) })],
  [
    'DynamoDB, keyed by the id field (audio table)',
    () => {
      const shape = { table: emu.tableNames.audio, idField: 'audioId' as const, activeStatus: 'working' };
      return {
        store: new DynamoLeasedJobStore<TestJob>(dynamo(), shape, now, LEASE_S),
        raw: async (id) =>
          (await dynamo().send(new GetCommand({ TableName: shape.table, Key: { audioId: id } }))).Item,
      };
    },
  ],
  [
    'DynamoDB, prefixed pk (accounts table)',
    () => {
      const shape = {
        table: emu.tableNames.accounts,
        idField: 'jobId' as const,
        keyAttribute: 'pk',
        keyPrefix: 'leasetest#',
        activeStatus: 'working',
      };
      return {
        store: new DynamoLeasedJobStore<TestJob>(dynamo(), shape, now, LEASE_S),
        raw: async (id) =>
          (await dynamo().send(new GetCommand({ TableName: shape.table, Key: { pk: `leasetest#${id}` } })))
            .Item,
      };
    },
  ],
];

describe.each(subjects)('LeasedJobStore contract: %s', (_name, make) => {
  let subject: Subject;
  let store: LeasedJobStore<TestJob>;
  let seq = 0;
  beforeAll(() => {
    subject = make();
    store = subject.store;
  });
  beforeEach(() => {
    clock = T0;
  });

  async function newJob(extra: Partial<TestJob> = {}): Promise<TestJob> {
    const job = queuedJob(`j${process.pid}-${_name.length}-${++seq}`, extra);
    await store.create(job);
    return job;
  }

  test('create once; get answers the record as created, undefined for an unknown id', async () => {
    const job = await newJob();
    await expect(store.create({ ...job, kind: 'other' })).rejects.toThrow();
    expect(await store.get(job.jobId)).toEqual(job);
    expect(await store.get('nope')).toBeUndefined();
  });

  test('claim is exclusive until the lease runs out; release gives the job back', async () => {
    const job = await newJob();
    const claims = await Promise.all([1, 2, 3].map(() => store.claim(job.jobId, 1)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claims.find(Boolean)).toMatchObject({
      status: 'working',
      attempts: 1,
      leaseUntil: Math.floor(T0.getTime() / 1000) + LEASE_S,
      kind: 'test',
    });
    clock = later(LEASE_S - 1);
    expect(await store.claim(job.jobId, 2)).toBeUndefined(); // lease held
    clock = later(LEASE_S + 1);
    expect(await store.claim(job.jobId, 2)).toMatchObject({ status: 'working', attempts: 2 });
    await store.release(job.jobId);
    const released = await store.get(job.jobId);
    expect(released).toMatchObject({ status: 'queued', updatedAt: later(LEASE_S + 1).toISOString() });
    expect(released!.leaseUntil).toBeUndefined();
    await store.release(job.jobId); // not held: nothing to release
    expect((await store.get(job.jobId))!.status).toBe('queued');
    await store.release('nope');
  });

  test("renew extends the holder's lease (never shortens it); a worker that lost the job cannot renew", async () => {
    const job = await newJob();
    const first = (await store.claim(job.jobId, 1))!.leaseUntil!;
    clock = later(LEASE_S - 1);
    const renewed = await store.renew(job.jobId, first);
    expect(renewed).toBe(Math.floor(clock.getTime() / 1000) + LEASE_S);
    expect(await store.get(job.jobId)).toMatchObject({ leaseUntil: renewed, updatedAt: T0.toISOString() });
    clock = later(LEASE_S + 1); // past the first lease, inside the renewed one: still held
    expect(await store.claim(job.jobId, 2)).toBeUndefined();
    expect(await store.renew(job.jobId, first)).toBeUndefined(); // a stale token renews nothing
    clock = later(2 * LEASE_S + 1); // the renewed lease ran out: another delivery takes the job over
    const taken = (await store.claim(job.jobId, 2))!;
    expect(taken.attempts).toBe(2);
    expect(await store.renew(job.jobId, renewed!)).toBeUndefined(); // the first worker lost it
    expect((await store.get(job.jobId))!.leaseUntil).toBe(taken.leaseUntil);
    clock = T0; // a renewal never moves a lease back
    expect(await store.renew(job.jobId, taken.leaseUntil!)).toBe(taken.leaseUntil);
    await store.complete(job.jobId, {});
    expect(await store.renew(job.jobId, taken.leaseUntil!)).toBeUndefined(); // settled
    expect(await store.renew('nope', 1)).toBeUndefined();
  });

  test('progress is recorded only while a worker holds the job', async () => {
    const job = await newJob();
    await store.setProgress(job.jobId, 0.3);
    expect((await store.get(job.jobId))!.progress).toBe(0);
    await store.claim(job.jobId, 1);
    await store.setProgress(job.jobId, 0.5);
    expect((await store.get(job.jobId))!.progress).toBe(0.5);
    await store.setProgress('nope', 0.5);
  });

  test('complete settles once with its fields; a done job cannot fail, be claimed or progress', async () => {
    const job = await newJob();
    await store.claim(job.jobId, 1);
    clock = later(5);
    expect(
      await store.complete(job.jobId, { bytes: 10, completedAt: clock.toISOString(), error: undefined }),
    ).toBe(true);
    const done = await store.get(job.jobId);
    expect(done).toMatchObject({ status: 'done', progress: 1, bytes: 10, updatedAt: clock.toISOString() });
    expect(done!.leaseUntil).toBeUndefined();
    expect(await store.complete(job.jobId, { bytes: 20 })).toBe(false);
    expect(await store.fail(job.jobId, 'late')).toBe(false);
    expect(await store.claim(job.jobId, 2)).toBeUndefined();
    await store.setProgress(job.jobId, 0.2);
    expect(await store.get(job.jobId)).toMatchObject({ status: 'done', progress: 1, bytes: 10 });
    expect(await store.complete('nope', {})).toBe(false);
  });

  test('fail settles once (from queued or held); a failed job cannot complete', async () => {
    const queued = await newJob();
    expect(await store.fail(queued.jobId, 'why', { bytes: 0 })).toBe(true);
    expect(await store.fail(queued.jobId, 'again')).toBe(false);
    expect(await store.complete(queued.jobId, { bytes: 1 })).toBe(false);
    expect(await store.get(queued.jobId)).toMatchObject({ status: 'failed', error: 'why', bytes: 0 });

    const held = await newJob();
    await store.claim(held.jobId, 3);
    expect(await store.fail(held.jobId, 'gave up')).toBe(true);
    const failed = await store.get(held.jobId);
    expect(failed).toMatchObject({ status: 'failed', error: 'gave up', attempts: 3 });
    expect(failed!.leaseUntil).toBeUndefined();
    expect(await store.fail('nope', 'x')).toBe(false);
  });

  test('requeueFailed sets a failed job back to queued once; restoreFailed undoes it while nobody took the job', async () => {
    const job = await newJob();
    await store.claim(job.jobId, 3);
    await store.setProgress(job.jobId, 0.7);
    await store.fail(job.jobId, 'engine down');
    expect(await store.requeueFailed(job.jobId)).toEqual({ requeued: true, error: 'engine down' });
    const requeued = await store.get(job.jobId);
    expect(requeued).toMatchObject({ status: 'queued', progress: 0 });
    expect(requeued!.error).toBeUndefined();
    expect(await store.requeueFailed(job.jobId)).toEqual({ requeued: false, status: 'queued' });
    expect(await store.requeueFailed('nope')).toEqual({ requeued: false, status: 'missing' });

    expect(await store.restoreFailed(job.jobId, 'engine down')).toBe(true);
    expect(await store.get(job.jobId)).toMatchObject({ status: 'failed', error: 'engine down' });
    await store.requeueFailed(job.jobId);
    await store.claim(job.jobId, 1); // a worker took it meanwhile
    expect(await store.restoreFailed(job.jobId, 'engine down')).toBe(false);
    expect((await store.get(job.jobId))!.status).toBe('working');
  });

  test("markEnded removes a settled job's `ending` mark once, keeping its outcome's time", async () => {
    const job = await newJob();
    expect(await store.markEnded(job.jobId)).toBe(false); // negative control: nothing to end yet
    clock = later(5);
    expect(await store.fail(job.jobId, 'x', { ending: true })).toBe(true);
    const settled = await store.get(job.jobId);
    expect(settled).toMatchObject({ status: 'failed', ending: true });
    clock = later(9);
    const ends = await Promise.all([1, 2, 3].map(() => store.markEnded(job.jobId)));
    expect(ends.filter(Boolean)).toHaveLength(1); // one conditional write: the end's counters add once
    const ended = await store.get(job.jobId);
    expect(ended).not.toHaveProperty('ending');
    expect(ended).toMatchObject({ status: 'failed', updatedAt: settled!.updatedAt });
    expect(await store.markEnded('nope')).toBe(false);
  });

  test('listUnfinished answers queued and held jobs, and settled ones not ended yet', async () => {
    const q = await newJob();
    const w = await newJob();
    await store.claim(w.jobId, 1);
    const d = await newJob();
    await store.complete(d.jobId, {});
    const f = await newJob();
    await store.fail(f.jobId, 'x');
    const e = await newJob(); // its worker died between settling it and ending it
    await store.fail(e.jobId, 'x', { ending: true });
    const mine = [q, w, d, f, e].map((j) => j.jobId);
    const unfinished = async () => (await store.listUnfinished(10_000)).filter((j) => mine.includes(j.jobId));
    expect((await unfinished()).map((j) => j.jobId).sort()).toEqual([q.jobId, w.jobId, e.jobId].sort());
    expect((await unfinished()).every((j) => !('pk' in j))).toBe(true);
    await store.markEnded(e.jobId);
    expect((await unfinished()).map((j) => j.jobId).sort()).toEqual([q.jobId, w.jobId].sort());
  });
});

// The adapters' items as the tables hold them (the fake stores records, not items: nothing to read raw).
describe.each(subjects.filter(([name]) => name.startsWith('DynamoDB')))('stored items: %s', (_name, make) => {
  test('the stored item keeps the record field names (data written before stays readable)', async () => {
    clock = T0;
    const { store, raw } = make();
    const job = queuedJob(`raw${process.pid}-${_name.length}`);
    await store.create(job);
    await store.claim(job.jobId, 2);
    await store.fail(job.jobId, 'boom', { bytes: 3 });
    const item = await raw!(job.jobId);
    expect(item).toMatchObject({
      jobId: job.jobId,
      audioId: job.audioId,
      status: 'failed',
      error: 'boom',
      attempts: 2,
      bytes: 3,
      progress: 0,
      kind: 'test',
    });
  });
});
