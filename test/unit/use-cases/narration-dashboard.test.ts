// The dashboard summary (GET /dashboard/summary's use case) against the in-memory fakes: waitlist sources counted
// per label (A/B refs per variant, case-folded) with the listed cap, failed jobs counted by the worker's last
// attempt (total and per UTC day), DLQ depth per queue with one unreadable queue reported, not fatal.
import { dashboardSummary } from '../../../lambdas/narration/use-cases/dashboard';
import { runJob } from '../../../lambdas/narration/use-cases/narration-job';
import { findVoice, VOICES } from '../../../lambdas/narration/core/voices';
import type { QueueDepth } from '../../../lambdas/narration/ports';
import { parseExperiments } from '../../../lambdas/shared/growth/experiments';
import { joinWaitlist, MAX_LISTED_SOURCES, sourceLabel } from '../../../lambdas/shared/growth/waitlist';
import { FakeGrowthStore } from '../../fakes/platform';
import { fakeNarrationDeps } from '../../fakes/narration';

const NOW = new Date('2026-11-25T18:00:00Z');
const EXPERIMENTS = parseExperiments(JSON.stringify({ pricing: { variants: { a: 1, b: 1 } } }));

class FakeDepth implements QueueDepth {
  readonly asked: string[] = [];
  constructor(private readonly depths: Record<string, number | Error>) {}
  async depth(url: string) {
    this.asked.push(url);
    const d = this.depths[url];
    if (d instanceof Error) throw d;
    return { visible: d ?? 0, inFlight: 1 };
  }
}

const summaryOf = (
  growth: FakeGrowthStore,
  depth = new FakeDepth({}),
  dlqs = [] as { queue: string; url: string | undefined }[],
) => dashboardSummary({ growth, experiments: EXPERIMENTS, queueDepth: depth, dlqs, now: NOW });

test('sourceLabel: A/B refs lose the visitor, other sources are trimmed and lower-cased, none is undefined', () => {
  expect(sourceLabel('ab:pricing:b:visitor-0001')).toBe('ab:pricing:b');
  expect(sourceLabel('  Twitter ')).toBe('twitter');
  expect(sourceLabel('   ')).toBeUndefined();
  expect(sourceLabel(undefined)).toBeUndefined();
});

test('the waitlist by source: one count per sign-up, repeats not counted, most first', async () => {
  const growth = new FakeGrowthStore();
  const join = (email: string, source?: string, interest?: 'pro' | 'lifetime') =>
    joinWaitlist(
      growth,
      { email, ...(source ? { source } : {}), ...(interest ? { interest } : {}) },
      NOW,
      EXPERIMENTS,
    );
  await join('a@example.com', 'blog', 'pro');
  await join('b@example.com', 'Twitter');
  await join('c@example.com', 'twitter', 'lifetime');
  await join('c@example.com', 'twitter'); // already registered: not counted again
  await join('d@example.com', 'ab:pricing:b:visitor-0001');
  await join('e@example.com', 'ab:pricing:b:visitor-0002');
  await join('f@example.com');
  const s = await summaryOf(growth);
  expect(s.waitlist).toEqual({
    count: 6,
    interest: { pro: 1, lifetime: 1 },
    sources: [
      { source: 'ab:pricing:b', count: 2 },
      { source: 'twitter', count: 2 },
      { source: 'blog', count: 1 },
    ],
    distinct_sources: 3,
  });
  expect(s.experiments).toEqual(['pricing']);
  expect(s.stats.waitlist).toBe(6);
  expect(s.generated_at).toBe(NOW.toISOString());
});

test(`at most ${MAX_LISTED_SOURCES} sources are listed; the rest still count as distinct`, async () => {
  const growth = new FakeGrowthStore();
  for (let i = 0; i < MAX_LISTED_SOURCES + 3; i++)
    await joinWaitlist(growth, { email: `p${i}@example.com`, source: `src-${i}` }, NOW, EXPERIMENTS);
  const s = await summaryOf(growth);
  expect(s.waitlist.sources).toHaveLength(MAX_LISTED_SOURCES);
  expect(s.waitlist.distinct_sources).toBe(MAX_LISTED_SOURCES + 3);
  expect(s.waitlist.count).toBe(MAX_LISTED_SOURCES + 3);
});

test('a failing source tally never fails the sign-up', async () => {
  const growth = new FakeGrowthStore();
  await joinWaitlist(growth, { email: 'a@example.com', source: 'blog' }, NOW, EXPERIMENTS);
  // The next add() is the source's own counter (the sign-up's counter comes first, then this one).
  const original = growth.add.bind(growth);
  let calls = 0;
  growth.add = async (pk, deltas, setOnce) => {
    if (pk.startsWith('waitlist#source#') && calls++ === 0) throw new Error('throttled');
    return original(pk, deltas, setOnce);
  };
  await expect(
    joinWaitlist(growth, { email: 'b@example.com', source: 'blog' }, NOW, EXPERIMENTS),
  ).resolves.toMatchObject({ status: 'registered', position: 2 });
  const s = await summaryOf(growth);
  expect(s.waitlist.count).toBe(2);
  expect(s.waitlist.sources).toEqual([{ source: 'blog', count: 1 }]);
});

test("failed jobs: the worker's last attempt counts one, per UTC day over 7 days", async () => {
  let clock = new Date('2026-11-20T23:30:00Z');
  const f = fakeNarrationDeps({ now: () => clock, config: { MAX_RECEIVE_COUNT: 1 } });
  const queued = (audioId: string) =>
    f.audio.create({
      audioId,
      status: 'queued',
      voice: VOICES[0]!.id,
      fmt: 'mp3',
      chars: 10,
      plan: 'free',
      progress: 0,
      createdAt: clock.toISOString(),
      updatedAt: clock.toISOString(),
      expiresAt: Math.floor(clock.getTime() / 1000) + 86400,
    });
  // No job text: the job cannot be read back and ends failed at once (one count each).
  await queued('old');
  expect(await runJob(f.deps, 'old', 1, findVoice)).toBe('skipped');
  clock = new Date('2026-11-25T08:00:00Z');
  await queued('j1');
  await queued('j2');
  await runJob(f.deps, 'j1', 1, findVoice);
  await runJob(f.deps, 'j2', 1, findVoice);
  await runJob(f.deps, 'j2', 1, findVoice); // a redelivery of a failed job: acknowledged, not counted again
  // A synthesis failure on the last attempt also counts.
  await queued('j3');
  await f.store.putJobText('j3', 'Un texto.');
  f.synth.faults.fail('synthesize', new Error('engine down'), 10);
  await expect(runJob(f.deps, 'j3', 1, findVoice)).rejects.toThrow('engine down');

  const s = await summaryOf(f.growth as FakeGrowthStore);
  expect(s.failures.jobs.total).toBe(4);
  expect(s.failures.jobs.since).toBe('2026-11-20T23:30:00.000Z');
  expect(s.failures.jobs.by_day.map((d) => d.day)).toEqual([
    '2026-11-19',
    '2026-11-20',
    '2026-11-21',
    '2026-11-22',
    '2026-11-23',
    '2026-11-24',
    '2026-11-25',
  ]);
  expect(s.failures.jobs.by_day.map((d) => d.failed)).toEqual([0, 1, 0, 0, 0, 0, 3]);
  expect(s.failures.jobs.last_7_days).toBe(4);
});

test('DLQ depth per queue; an unreadable or unconfigured queue is reported, not fatal', async () => {
  const depth = new FakeDepth({
    'http://q/priority-dlq': 2,
    'http://q/standard-dlq': new Error('AccessDenied'),
  });
  const s = await summaryOf(new FakeGrowthStore(), depth, [
    { queue: 'priority', url: 'http://q/priority-dlq' },
    { queue: 'standard', url: 'http://q/standard-dlq' },
    { queue: 'webhooks', url: undefined },
  ]);
  expect(s.failures.dlqs).toEqual([
    { queue: 'priority', messages: 2, in_flight: 1 },
    { queue: 'standard', messages: null, in_flight: null, error: 'unavailable' },
    { queue: 'webhooks', messages: null, in_flight: null, error: 'not configured' },
  ]);
  expect(depth.asked).toEqual(['http://q/priority-dlq', 'http://q/standard-dlq']);
});
