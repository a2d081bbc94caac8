// The DynamoDB GrowthStore against the emulator (dynalite, real wire protocol), and the growth domain on top of
// it: dedupe markers and counters stay exact under parallel calls, waitlist positions are 1..N with no gaps,
// A/B events dedupe per visitor, public stats sum exactly, and a failing stats store never fails a conversion.
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoGrowthStore } from '../../lambdas/shared/aws/growth-store';
import { experimentResults, recordAbConversion, recordExposure } from '../../lambdas/shared/growth/ab';
import { parseExperiments } from '../../lambdas/shared/growth/experiments';
import {
  publicStats,
  recordConversionStats,
  recordConversionStatsSafely,
} from '../../lambdas/shared/growth/stats';
import { joinWaitlist, waitlistCounts } from '../../lambdas/shared/growth/waitlist';
import { withEmulators } from '../helpers/env';

let emu: Awaited<ReturnType<typeof withEmulators>>;
let store: DynamoGrowthStore;
beforeAll(async () => {
  emu = await withEmulators();
  store = new DynamoGrowthStore(dynamo(), emu.tableNames.growth);
});
afterAll(async () => {
  await emu.cleanup();
});

const now = new Date('2026-11-21T12:00:00Z');

describe('DynamoGrowthStore', () => {
  test('50 parallel putIfAbsent on one key: exactly one creates it, and its item is kept', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.putIfAbsent('test#marker', { writer: i })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    const item = (await store.getMany(['test#marker'])).get('test#marker')!;
    expect(item).toEqual({ pk: 'test#marker', writer: winner });
  });

  test('100 parallel adds: exact totals, every intermediate value returned once; setOnce keeps the first', async () => {
    const out = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        store.add('test#counter', { n: 1, 'odd-#chars': 2, seconds: 0.125 }, { first: `writer-${i}` }),
      ),
    );
    expect(out.map((o) => o.n).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const item = (await store.getMany(['test#counter'])).get('test#counter')!;
    expect(item.n).toBe(100);
    expect(item['odd-#chars']).toBe(200);
    expect(item.seconds).toBe(12.5);
    expect(item.first).toMatch(/^writer-\d+$/);
  });

  test('getMany reads more than one batch (150 keys, with duplicates and missing ones)', async () => {
    await Promise.all(Array.from({ length: 150 }, (_, i) => store.putIfAbsent(`test#many#${i}`, { i })));
    const keys = [...Array.from({ length: 150 }, (_, i) => `test#many#${i}`), 'test#many#0', 'test#absent'];
    const found = await store.getMany(keys);
    expect(found.size).toBe(150);
    expect(found.get('test#many#149')!.i).toBe(149);
    expect(found.has('test#absent')).toBe(false);
  });
});

describe('waitlist over DynamoDB', () => {
  test('100 parallel sign-ups of 60 distinct emails: count 60, positions exactly 1..60', async () => {
    const emails = Array.from({ length: 100 }, (_, i) => `persona${i % 60}@example.com`);
    const results = await Promise.all(
      emails.map((email) => joinWaitlist(store, { email, interest: 'pro' }, now, new Map())),
    );
    const registered = results.filter((r) => r.status === 'registered');
    expect(registered).toHaveLength(60);
    expect(results.filter((r) => r.status === 'already_registered')).toHaveLength(40);
    const positions = registered
      .map((r) => (r.status === 'registered' ? r.position : 0))
      .sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(await waitlistCounts(store)).toEqual({ count: 60, interest: { pro: 60, lifetime: 0 } });
  });
});

describe('A/B over DynamoDB', () => {
  const exp = parseExperiments('{"landing": {"variants": {"a": 1, "b": 1}}}').get('landing')!;

  test('parallel duplicate exposures and conversions count once per visitor', async () => {
    const visitors = Array.from({ length: 30 }, (_, i) => `visitor-${String(i).padStart(4, '0')}`);
    const variantOf = (v: string) => (Number(v.slice(-4)) % 2 ? 'b' : 'a'); // the test picks; the route assigns
    await Promise.all(
      visitors.flatMap((v) => [
        recordExposure(store, exp, variantOf(v), v, now),
        recordExposure(store, exp, variantOf(v), v, now),
        recordExposure(store, exp, variantOf(v), v, now),
        ...(Number(v.slice(-4)) < 10
          ? [
              recordAbConversion(store, exp, variantOf(v), 'event', { visitor: v }, now),
              recordAbConversion(store, exp, variantOf(v), 'waitlist', { visitor: v }, now),
            ]
          : []),
      ]),
    );
    const r = await experimentResults(store, exp, now);
    expect(r.variants.map((v) => [v.variant, v.exposures, v.conversions])).toEqual([
      ['a', 15, 5],
      ['b', 15, 5],
    ]);
    const byChannel = r.variants.map(
      (v) => v.conversions_by_channel.event + v.conversions_by_channel.waitlist,
    );
    expect(byChannel).toEqual([5, 5]);
  });
});

describe('public stats over DynamoDB', () => {
  test('40 parallel conversions sum exactly (decimals included); formats and voices are broken down', async () => {
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        recordConversionStats(
          store,
          {
            chars: 100 + i,
            durationS: 1.001,
            fmt: i % 2 ? 'mp3' : 'ogg',
            voice: i % 4 ? 'es-MX-Mia' : 'es-ES-Lucia',
          },
          new Date(now.getTime() + i * 1000),
        ),
      ),
    );
    const s = await publicStats(store, now);
    expect(s.conversions).toBe(40);
    expect(s.characters_narrated).toBe(40 * 100 + (39 * 40) / 2);
    expect(s.seconds_narrated).toBe(40.04);
    expect(s.by_format).toEqual({ mp3: 20, ogg: 20 });
    expect(s.by_voice).toEqual({ 'es-ES-Lucia': 10, 'es-MX-Mia': 30 });
    expect(s.waitlist).toBe(60); // from the waitlist test above, same table
    expect(s.since).toMatch(/^2026-11-21T12:00:[0-3]\d\.000Z$/);
  });

  test('recordConversionStatsSafely swallows every failure, even a store that cannot be built', async () => {
    await expect(
      recordConversionStatsSafely(
        () => {
          throw new Error('GROWTH_TABLE is not set');
        },
        { chars: 1, durationS: 1 },
      ),
    ).resolves.toBeUndefined();
    const missingTable = new DynamoGrowthStore(dynamo(), 'no-such-table');
    await expect(
      recordConversionStatsSafely(() => missingTable, { chars: 1, durationS: 1 }),
    ).resolves.toBeUndefined();
    expect((await publicStats(store)).conversions).toBe(40);
  });
});
