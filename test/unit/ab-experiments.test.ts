// A/B experiments, pure parts: configuration, deterministic assignment, attribution refs, the z-test against
// hand-computed values, results and attribution over an in-memory GrowthStore, and the dashboard token check.
import { parseConfig, required } from '../../lambdas/narration/config';
import { ConfigError } from '../../lambdas/shared/config';
import { experimentResults, recordConversion, variantKey } from '../../lambdas/shared/growth/ab';
import { assertDashboardToken } from '../../lambdas/shared/growth/dashboard-auth';
import {
  assignVariant,
  formatAbRef,
  parseAbRef,
  parseExperiments,
} from '../../lambdas/shared/growth/experiments';
import type { GrowthItem, GrowthStore } from '../../lambdas/shared/growth/ports';
import { twoProportionZTest, twoSidedPValue } from '../../lambdas/shared/growth/statistics';
import { asHttp } from '../helpers/as-http';

/** The GrowthStore contract in memory (the DynamoDB adapter is tested against the emulator). */
class MemoryGrowthStore implements GrowthStore {
  readonly items = new Map<string, GrowthItem>();
  async putIfAbsent(pk: string, item: GrowthItem) {
    if (this.items.has(pk)) return false;
    this.items.set(pk, { ...item, pk });
    return true;
  }
  async add(pk: string, deltas: Record<string, number>, setOnce: GrowthItem = {}) {
    const item = this.items.get(pk) ?? { pk };
    const out: Record<string, number> = {};
    for (const [k, d] of Object.entries(deltas)) out[k] = item[k] = Number(item[k] ?? 0) + d;
    for (const [k, v] of Object.entries(setOnce)) if (!(k in item)) item[k] = v;
    this.items.set(pk, item);
    return out;
  }
  async getMany(pks: string[]) {
    return new Map(pks.filter((p) => this.items.has(p)).map((p) => [p, this.items.get(p)!]));
  }
}

const EXPERIMENTS = parseExperiments(
  JSON.stringify({
    'landing-cta': { variants: { control: 1, b: 1 } },
    pricing: { variants: { a: 1, b: 1, c: 2 } },
    'hero-copy': { variants: { long: 3, short: 1 }, control: 'short' },
  }),
);
const landing = EXPERIMENTS.get('landing-cta')!;
const pricing = EXPERIMENTS.get('pricing')!;
const now = new Date('2026-11-21T12:00:00Z');

describe('experiment configuration (AB_EXPERIMENTS)', () => {
  test('variants keep their order; control defaults to the first, or is named', () => {
    expect(landing).toEqual({
      name: 'landing-cta',
      control: 'control',
      variants: [
        { name: 'control', weight: 1 },
        { name: 'b', weight: 1 },
      ],
      totalWeight: 2,
    });
    expect(EXPERIMENTS.get('hero-copy')!.control).toBe('short');
    expect(parseExperiments('').size).toBe(0);
  });

  test.each([
    ['{not json', /not valid JSON/],
    ['{"x": {"variants": {"a": 1}}}', /at least 2 variants/],
    ['{"Bad_Name": {"variants": {"a": 1, "b": 1}}}', /experiment names must match/],
    ['{"x": {"variants": {"A": 1, "b": 1}}}', /variant names must match/],
    ['{"x": {"variants": {"a": 0, "b": 1}}}', /x\.variants\.a/],
    ['{"x": {"variants": {"a": 1, "b": 1}, "control": "z"}}', /control 'z' of experiment 'x'/],
    ['{"x": {"variants": {"a": 1, "b": 1}, "weights": 1}}', /weights/],
  ])('%s is refused, saying what to fix', (json, message) => {
    expect(() => parseExperiments(json)).toThrow(message);
    expect(() => parseConfig({ AB_EXPERIMENTS: json })).toThrow(ConfigError);
    expect(() => parseConfig({ AB_EXPERIMENTS: json })).toThrow(/AB_EXPERIMENTS/);
  });

  test('config parses experiments once; DASHBOARD_TOKEN must be long enough, empty means unset', () => {
    const cfg = parseConfig({ AB_EXPERIMENTS: '{"x": {"variants": {"a": 1, "b": 1}}}' });
    expect(cfg.AB_EXPERIMENTS.get('x')!.control).toBe('a');
    expect(cfg.DASHBOARD_TOKEN).toBeUndefined();
    expect(parseConfig({ DASHBOARD_TOKEN: '' }).DASHBOARD_TOKEN).toBeUndefined();
    expect(() => parseConfig({ DASHBOARD_TOKEN: 'short' })).toThrow(/DASHBOARD_TOKEN.*16 characters/);
    expect(parseConfig({ DASHBOARD_TOKEN: 'x'.repeat(16) }).DASHBOARD_TOKEN).toBe('x'.repeat(16));
  });
});

test('required() reads a resource variable (the platform’s and the service’s), fails naming an unset one; only resource variables compile', () => {
  const cfg = parseConfig({ AUDIO_TABLE: 'audio-t', QUOTAS_TABLE: 'quotas-t' });
  expect(required('AUDIO_TABLE', cfg)).toBe('audio-t');
  expect(required('QUOTAS_TABLE', cfg)).toBe('quotas-t');
  expect(() => required('FEEDS_TABLE', cfg)).toThrow(/FEEDS_TABLE is not set/);
  // @ts-expect-error FREE_PER_HOUR is a setting, not a resource the stack sets
  expect(() => required('FREE_PER_HOUR', cfg)).toThrow(/FREE_PER_HOUR is not set/);
});

describe('deterministic assignment', () => {
  test('matches SHA-256 values computed with sha256sum (u = first 48 bits / 2^48)', () => {
    // printf 'landing-cta:visitor-0001' | sha256sum → a3420bdff8c1… → u = 0.6377 ≥ 1/2 → b
    expect(assignVariant(landing, 'visitor-0001')).toBe('b');
    // 52206163900a… → u = 0.3208 < 1/2 → control
    expect(assignVariant(landing, 'visitor-0002')).toBe('control');
    // pricing a:1 b:1 c:2 — 8522c6088dbe… → u·4 = 2.08 → c; 11deb7728a12… → u·4 = 0.28 → a
    expect(assignVariant(pricing, 'visitor-0003')).toBe('c');
    expect(assignVariant(pricing, 'zzzzzzzz')).toBe('a');
  });

  test('the same visitor always gets the same variant', () => {
    for (let i = 0; i < 50; i++) {
      const v = `visitor-${i}-stable`;
      expect(assignVariant(pricing, v)).toBe(assignVariant(pricing, v));
    }
  });

  test('shares follow the weights (20,000 visitors, 1:1:2) and experiments are independent', () => {
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    const cross: Record<string, number> = {};
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const visitor = `v${i.toString(36).padStart(8, '0')}`;
      const p = assignVariant(pricing, visitor);
      counts[p]!++;
      const key = `${assignVariant(landing, visitor)}/${p}`;
      cross[key] = (cross[key] ?? 0) + 1;
    }
    expect(Math.abs(counts.a! / n - 0.25)).toBeLessThan(0.015);
    expect(Math.abs(counts.b! / n - 0.25)).toBeLessThan(0.015);
    expect(Math.abs(counts.c! / n - 0.5)).toBeLessThan(0.015);
    // Being in landing-cta's "b" says nothing about the pricing variant.
    expect(Math.abs(cross['b/c']! / (cross['b/a']! + cross['b/b']! + cross['b/c']!) - 0.5)).toBeLessThan(
      0.02,
    );
  });
});

describe('attribution refs ab:<experiment>:<variant>[:<visitor>]', () => {
  test('parse and format round-trip; the longest fits the 120-character waitlist source', () => {
    expect(parseAbRef('ab:landing-cta:b')).toEqual({ experiment: 'landing-cta', variant: 'b' });
    expect(parseAbRef(' ab:landing-cta:b:visitor-0001 ')).toEqual({
      experiment: 'landing-cta',
      variant: 'b',
      visitor: 'visitor-0001',
    });
    const longest = formatAbRef({
      experiment: 'e'.repeat(32),
      variant: 'v'.repeat(16),
      visitor: 'x'.repeat(64),
    });
    expect(longest).toHaveLength(117);
    expect(parseAbRef(longest)).toEqual({
      experiment: 'e'.repeat(32),
      variant: 'v'.repeat(16),
      visitor: 'x'.repeat(64),
    });
  });

  test.each([
    [undefined],
    [''],
    ['newsletter'],
    ['ab:landing-cta'],
    ['ab:Landing:b'],
    ['ab:landing-cta:b:short'],
    ['ab:landing-cta:b:visitor-0001:extra'],
    ['AB:landing-cta:b'],
    [`ab:landing-cta:b:${'x'.repeat(65)}`],
  ])('%p is not an A/B ref', (ref) => {
    expect(parseAbRef(ref)).toBeUndefined();
  });
});

describe('two-proportion z-test (hand-computed)', () => {
  test('control 100/1000 vs 130/1000: z = 2.1027, p = 0.0355', () => {
    // pooled p = 230/2000 = 0.115; se = √(0.115·0.885·(1/1000 + 1/1000)) = √0.00020355 = 0.0142671
    // z = (0.13 − 0.10)/0.0142671 = 2.10274; table: Φ(2.10) = 0.98214, Φ(2.11) = 0.98257 → p ≈ 2·(1 − 0.98226) = 0.0355
    const t = twoProportionZTest(100, 1000, 130, 1000)!;
    expect(t.z).toBeCloseTo(2.10274, 4);
    expect(t.pValue).toBeCloseTo(0.0355, 4);
  });

  test('control 200/1000 vs 250/1000: z = 2.6774, p = 0.0074', () => {
    // pooled 0.225; se = √(0.225·0.775·0.002) = 0.0186749; z = 0.05/0.0186749 = 2.67739; Φ(2.6774) ≈ 0.99629
    const t = twoProportionZTest(200, 1000, 250, 1000)!;
    expect(t.z).toBeCloseTo(2.67739, 4);
    expect(t.pValue).toBeCloseTo(0.00742, 4);
  });

  test('a worse variant gets a negative z and the same p as its mirror image', () => {
    const worse = twoProportionZTest(130, 1000, 100, 1000)!;
    expect(worse.z).toBeCloseTo(-2.10274, 4);
    expect(worse.pValue).toBeCloseTo(twoProportionZTest(100, 1000, 130, 1000)!.pValue, 12);
  });

  test('p-values are accurate in the tail: z = 1.959964 → 0.05, z = 10 → 1.5239706e-23', () => {
    expect(twoSidedPValue(1.959963984540054)).toBeCloseTo(0.05, 12);
    // 2·Q(10) with Q(10) = 7.619853024160527e-24 (standard tables)
    expect(twoSidedPValue(10) / 1.5239706048321054e-23).toBeCloseTo(1, 10);
  });

  test('no test without exposures or with more conversions than exposures; equal extreme rates → z 0, p 1', () => {
    expect(twoProportionZTest(0, 0, 5, 10)).toBeUndefined();
    expect(twoProportionZTest(11, 10, 5, 10)).toBeUndefined();
    expect(twoProportionZTest(0, 50, 0, 70)).toEqual({ z: 0, pValue: 1 });
    expect(twoProportionZTest(50, 50, 70, 70)).toEqual({ z: 0, pValue: 1 });
  });
});

describe('results over the counters', () => {
  test('per variant: counts, rate, uplift vs control, z, p-value, method named', async () => {
    const store = new MemoryGrowthStore();
    await store.add(variantKey('landing-cta', 'control'), {
      exposures: 1000,
      conversions: 100,
      conv_event: 100,
    });
    await store.add(variantKey('landing-cta', 'b'), {
      exposures: 1000,
      conversions: 130,
      conv_event: 100,
      conv_waitlist: 20,
      conv_checkout: 10,
    });
    const r = await experimentResults(store, landing, now);
    expect(r.experiment).toBe('landing-cta');
    expect(r.control).toBe('control');
    expect(r.method).toMatch(/two-proportion z-test/);
    expect(r.alpha).toBe(0.05);
    expect(r.generated_at).toBe(now.toISOString());
    const [c, b] = r.variants;
    expect(c).toEqual({
      variant: 'control',
      weight: 1,
      exposures: 1000,
      conversions: 100,
      conversions_by_channel: { event: 100, waitlist: 0, checkout: 0 },
      rate: 0.1,
      uplift: null,
      z: null,
      p_value: null,
      significant: null,
    });
    expect(b!.rate).toBe(0.13);
    expect(b!.uplift).toBeCloseTo(0.3, 12);
    expect(b!.z).toBeCloseTo(2.10274, 4);
    expect(b!.p_value).toBeCloseTo(0.0355, 4);
    expect(b!.significant).toBe(true);
    expect(b!.conversions_by_channel).toEqual({ event: 100, waitlist: 20, checkout: 10 });
    expect(r.notes).toEqual([]);
  });

  test('no data yet: zeros and nulls, and notes saying why', async () => {
    const r = await experimentResults(new MemoryGrowthStore(), landing, now);
    expect(r.variants.map((v) => [v.exposures, v.conversions, v.rate, v.uplift, v.p_value])).toEqual([
      [0, 0, null, null, null],
      [0, 0, null, null, null],
    ]);
    expect(r.notes.join(' ')).toMatch(/control has no exposures/);
  });

  test('a control without conversions: uplift undefined (null) but the test still runs', async () => {
    const store = new MemoryGrowthStore();
    await store.add(variantKey('landing-cta', 'control'), { exposures: 200 });
    await store.add(variantKey('landing-cta', 'b'), { exposures: 200, conversions: 10 });
    const r = await experimentResults(store, landing, now);
    expect(r.variants[1]!.uplift).toBeNull();
    expect(r.variants[1]!.p_value).toBeGreaterThan(0);
    expect(r.variants[1]!.p_value).toBeLessThan(0.01);
    expect(r.notes.join(' ')).toMatch(/control has no conversions/);
  });
});

describe('recordConversion (billing: checkout ref; waitlist: source)', () => {
  const opts = { experiments: EXPERIMENTS, now };
  const counters = async (store: MemoryGrowthStore, variant: string) =>
    (await store.getMany([variantKey('landing-cta', variant)])).get(variantKey('landing-cta', variant)) ?? {};

  test('ignores what is not an A/B ref of a configured experiment and variant', async () => {
    const store = new MemoryGrowthStore();
    expect(await recordConversion(store, undefined, opts)).toEqual({ counted: false, reason: 'no_ab_ref' });
    expect(await recordConversion(store, 'twitter', opts)).toEqual({ counted: false, reason: 'no_ab_ref' });
    expect((await recordConversion(store, 'ab:nope:b', opts)).counted).toBe(false);
    expect(await recordConversion(store, 'ab:nope:b', opts)).toMatchObject({ reason: 'unknown_experiment' });
    expect(await recordConversion(store, 'ab:landing-cta:zz', opts)).toMatchObject({
      reason: 'unknown_variant',
    });
    // visitor-0001 is assigned b: a ref claiming control for it is not believed.
    expect(await recordConversion(store, 'ab:landing-cta:control:visitor-0001', opts)).toMatchObject({
      reason: 'variant_mismatch',
    });
    expect(store.items.size).toBe(0);
  });

  test('counts once per dedupe key (checkout session) and per visitor across channels', async () => {
    const store = new MemoryGrowthStore();
    const checkout = { ...opts, channel: 'checkout' as const, dedupeKey: 'cs_test_1' };
    expect(await recordConversion(store, 'ab:landing-cta:b', checkout)).toEqual({
      counted: true,
      experiment: 'landing-cta',
      variant: 'b',
    });
    expect(await recordConversion(store, 'ab:landing-cta:b', checkout)).toMatchObject({
      reason: 'duplicate',
    });
    expect(await counters(store, 'b')).toMatchObject({ conversions: 1, conv_checkout: 1 });
    expect((await counters(store, 'b')).exposures).toBeUndefined();

    // With a visitor: its missing exposure is counted too, and a second channel does not count it again.
    const ref = 'ab:landing-cta:b:visitor-0001';
    expect(
      (await recordConversion(store, ref, { ...opts, channel: 'waitlist', dedupeKey: 'a@x.es' })).counted,
    ).toBe(true);
    expect(
      await recordConversion(store, ref, { ...opts, channel: 'checkout', dedupeKey: 'cs_2' }),
    ).toMatchObject({
      reason: 'duplicate',
    });
    expect(await counters(store, 'b')).toMatchObject({
      conversions: 2,
      exposures: 1,
      conv_checkout: 1,
      conv_waitlist: 1,
    });
  });

  test('never throws: a failing store is reported as store_error', async () => {
    const broken: GrowthStore = {
      putIfAbsent: () => Promise.reject(new Error('DynamoDB is down')),
      add: () => Promise.reject(new Error('DynamoDB is down')),
      getMany: () => Promise.reject(new Error('DynamoDB is down')),
    };
    await expect(
      recordConversion(broken, 'ab:landing-cta:b', { ...opts, dedupeKey: 'cs_3' }),
    ).resolves.toEqual({
      counted: false,
      reason: 'store_error',
      experiment: 'landing-cta',
      variant: 'b',
    });
  });
});

describe('dashboard token', () => {
  const TOKEN = 'dash-0123456789abcdef';
  const status = (headers: Record<string, string>, expected: string | null = TOKEN) => {
    try {
      assertDashboardToken(headers, expected ?? undefined);
      return 200;
    } catch (e) {
      return asHttp(e).statusCode;
    }
  };

  test('right token in either header passes; missing, wrong, malformed or other-length tokens get 401', () => {
    expect(status({ authorization: `Bearer ${TOKEN}` })).toBe(200);
    expect(status({ authorization: `bearer ${TOKEN}` })).toBe(200);
    expect(status({ 'x-dashboard-token': TOKEN })).toBe(200);
    expect(status({ authorization: 'Bearer wrong', 'x-dashboard-token': TOKEN })).toBe(200);
    expect(status({})).toBe(401);
    expect(status({ authorization: `Bearer ${TOKEN}x` })).toBe(401);
    expect(status({ authorization: 'Bearer d' })).toBe(401);
    expect(status({ authorization: TOKEN })).toBe(401);
    expect(status({ 'x-dashboard-token': TOKEN.toUpperCase() })).toBe(401);
  });

  test('401 carries WWW-Authenticate and says how to send the token; unset token → 503', () => {
    try {
      assertDashboardToken({}, TOKEN);
      throw new Error('not refused');
    } catch (e) {
      const err = asHttp(e);
      expect(err.statusCode).toBe(401);
      expect(err.headers['www-authenticate']).toBe('Bearer');
      expect(err.detail).toMatch(/X-Dashboard-Token/);
    }
    expect(status({ authorization: `Bearer ${TOKEN}` }, null)).toBe(503);
  });
});
