// A/B over HTTP against the local runtime: deterministic assignment, the public rate-limited event route
// (dedupe per visitor, exact counts under parallel events, 429 + headers), the dashboard-token-guarded results
// (both headers, 401/503, hand-computed statistics), and attribution from waitlist `source` and checkout `ref`.
import type { Context } from 'aws-lambda';
import { apiEvent } from '../helpers/api-event';
import { awsDeps } from '../../lambdas/narration/deps';
import { makeHandler as makeResultsHandler } from '../../lambdas/narration/handlers/ab-results';
import { recordConversion, variantKey } from '../../lambdas/shared/growth/ab';
import { assignVariant, parseExperiments } from '../../lambdas/shared/growth/experiments';
import { spendWindow } from '../helpers/quota-window';
import { postForm, postJson } from '../helpers/runtime';
import { startGrowthRuntime, type GrowthRuntime } from '../helpers/growth-runtime';

jest.setTimeout(60_000);

const TOKEN = 'dash-token-0123456789abcdef';
const EXPERIMENTS_JSON = JSON.stringify({
  'landing-cta': { variants: { control: 1, b: 1 } },
  pricing: { variants: { a: 1, b: 1, c: 2 } },
  parallel: { variants: { a: 1, b: 1 } },
  'math-check': { variants: { control: 1, b: 1 } },
  attribution: { variants: { control: 1, b: 1 } },
});
const EXPERIMENTS = parseExperiments(EXPERIMENTS_JSON);

let g: GrowthRuntime;
beforeAll(async () => {
  g = await startGrowthRuntime(
    {
      AB_EXPERIMENTS: EXPERIMENTS_JSON,
      DASHBOARD_TOKEN: TOKEN,
      AB_EVENTS_PER_HOUR: '5',
      AB_EVENTS_PER_DAY: '5000',
    },
    { trustProxy: true, startWorker: false },
  );
});
afterAll(async () => g?.stop());

let ipSeq = 0;
const freshIp = () => ({ 'x-forwarded-for': `203.0.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}` });
const bearer = { authorization: `Bearer ${TOKEN}` };

type Item = { loc: (string | number)[]; msg: string; type: string };
async function detail(res: Response): Promise<Item[]> {
  expect(res.status).toBe(422);
  return ((await res.json()) as { detail: Item[] }).detail;
}

interface VariantResult {
  variant: string;
  exposures: number;
  conversions: number;
  conversions_by_channel: Record<string, number>;
  rate: number | null;
  uplift: number | null;
  z: number | null;
  p_value: number | null;
  significant: boolean | null;
}
async function results(experiment: string): Promise<{ method: string; variants: VariantResult[] }> {
  const res = await fetch(g.url(`/ab/results/${experiment}`), { headers: bearer });
  expect(res.status).toBe(200);
  return (await res.json()) as { method: string; variants: VariantResult[] };
}
const byVariant = (r: { variants: VariantResult[] }) =>
  Object.fromEntries(r.variants.map((v) => [v.variant, v]));

describe('GET /ab/assign/{experiment}', () => {
  test('the same visitor gets the same variant (cacheable) and a ref for waitlist source / checkout ref', async () => {
    const res = await fetch(g.url('/ab/assign/landing-cta?visitor=visitor-0001'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await res.json()).toEqual({
      experiment: 'landing-cta',
      visitor: 'visitor-0001',
      variant: 'b',
      ref: 'ab:landing-cta:b:visitor-0001',
    });
    const again = (await (await fetch(g.url('/ab/assign/landing-cta?visitor=visitor-0001'))).json()) as {
      variant: string;
    };
    expect(again.variant).toBe('b');
  });

  test('without a visitor a fresh id is minted (not cached) and assigned', async () => {
    const res = await fetch(g.url('/ab/assign/pricing'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { visitor: string; variant: string };
    expect(body.visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(body.variant).toBe(assignVariant(EXPERIMENTS.get('pricing')!, body.visitor));
  });

  test('bad names → 422 in the contract shape; unknown experiment → 404 naming the configured ones', async () => {
    expect(await detail(await fetch(g.url('/ab/assign/Bad_Name')))).toEqual([
      {
        loc: ['path', 'experiment'],
        msg: "String should match pattern '^[a-z][a-z0-9-]{0,31}$'",
        type: 'string_pattern_mismatch',
      },
    ]);
    expect(await detail(await fetch(g.url('/ab/assign/pricing?visitor=short')))).toEqual([
      {
        loc: ['query', 'visitor'],
        msg: "String should match pattern '^[A-Za-z0-9_-]{8,64}$'",
        type: 'string_pattern_mismatch',
      },
    ]);
    const missing = await fetch(g.url('/ab/assign/nope'));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(
      /Unknown experiment 'nope'.*pricing/,
    );
  });
});

describe('POST /ab/event', () => {
  test('exposure → recorded, a reload → duplicate; JSON and form bodies; the variant is the assigned one', async () => {
    const ip = freshIp();
    const first = await postJson(
      g.url('/ab/event'),
      { experiment: 'pricing', visitor: 'visitor-0003', type: 'exposure' },
      ip,
    );
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({
      status: 'recorded',
      experiment: 'pricing',
      variant: 'c',
      type: 'exposure',
    });
    const reload = await postForm(
      g.url('/ab/event'),
      { experiment: 'pricing', visitor: 'visitor-0003', type: 'exposure', variant: 'c' },
      ip,
    );
    expect(await reload.json()).toEqual({
      status: 'duplicate',
      experiment: 'pricing',
      variant: 'c',
      type: 'exposure',
    });
    expect(byVariant(await results('pricing')).c!.exposures).toBe(1);
  });

  test('validation: variant not the assigned one, unknown variant, type, missing visitor; unknown experiment 404', async () => {
    const ip = freshIp();
    const wrong = await detail(
      await postJson(
        g.url('/ab/event'),
        { experiment: 'pricing', visitor: 'visitor-0003', type: 'exposure', variant: 'a' },
        ip,
      ),
    );
    expect(wrong).toHaveLength(1);
    expect(wrong[0]).toMatchObject({ loc: ['body', 'variant'], type: 'value_error' });
    expect(wrong[0]!.msg).toMatch(/assigned variant 'c'.*GET \/ab\/assign\/pricing\?visitor=visitor-0003/);
    expect(
      await detail(
        await postJson(
          g.url('/ab/event'),
          { experiment: 'pricing', visitor: 'visitor-0003', type: 'exposure', variant: 'zz' },
          ip,
        ),
      ),
    ).toEqual([
      {
        loc: ['body', 'variant'],
        msg: "Input should be 'a', 'b', 'c' (the variants of 'pricing')",
        type: 'literal_error',
      },
    ]);
    expect(
      await detail(
        await postJson(
          g.url('/ab/event'),
          { experiment: 'pricing', visitor: 'visitor-0003', type: 'click' },
          ip,
        ),
      ),
    ).toEqual([
      { loc: ['body', 'type'], msg: "Input should be 'exposure' or 'conversion'", type: 'literal_error' },
    ]);
    expect(
      await detail(await postJson(g.url('/ab/event'), { experiment: 'pricing', type: 'exposure' }, ip)),
    ).toEqual([{ loc: ['body', 'visitor'], msg: 'Field required', type: 'missing' }]);
    const unknown = await postJson(
      g.url('/ab/event'),
      { experiment: 'nope', visitor: 'visitor-0003', type: 'exposure' },
      ip,
    );
    expect(unknown.status).toBe(404);
  });

  test('rate limit per IP: 5 events, then 429 with Retry-After and RateLimit headers; bad requests are free', async () => {
    const ip = freshIp();
    expect((await postJson(g.url('/ab/event'), { experiment: 'pricing', type: 'exposure' }, ip)).status).toBe(
      422,
    );
    // 5 an hour, then 429 (a turn of the hour between them starts a full window: spendWindow follows it).
    const { accepted, refused } = await spendWindow(5, (i) =>
      postJson(
        g.url('/ab/event'),
        { experiment: 'landing-cta', visitor: `limit-visitor-${i}`, type: 'exposure' },
        ip,
      ),
    );
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(refused.headers.get('ratelimit-limit')).toBe('5');
    expect(refused.headers.get('ratelimit-reset')).toBe(String(retry));
    expect(refused.headers.get('ratelimit-policy')).toBe('5;w=3600, 5000;w=86400');
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /Too many A\/B events: at most 5 per hour/,
    );
    // The refused event was not recorded: the same visitor from another address is still new.
    const other = await postJson(
      g.url('/ab/event'),
      { experiment: 'landing-cta', visitor: `limit-visitor-${accepted.length}`, type: 'exposure' },
      freshIp(),
    );
    expect(((await other.json()) as { status: string }).status).toBe('recorded');
  });

  test('parallel events (duplicates included) count exactly one exposure and one conversion per visitor', async () => {
    const exp = EXPERIMENTS.get('parallel')!;
    const visitors = Array.from({ length: 40 }, (_, i) => `par-visitor-${String(i).padStart(3, '0')}`);
    const converters = visitors.slice(0, 12);
    const events = [
      ...visitors.flatMap((v) => [
        { visitor: v, type: 'exposure' },
        { visitor: v, type: 'exposure' },
      ]),
      ...converters.flatMap((v) => [
        { visitor: v, type: 'conversion' },
        { visitor: v, type: 'conversion' },
      ]),
    ];
    // At most 4 events per address (the limit is 5 per hour).
    const ips = Array.from({ length: Math.ceil(events.length / 4) }, () => freshIp());
    const send = (i: number, ip = ips[Math.floor(i / 4)]) =>
      postJson(g.url('/ab/event'), { experiment: 'parallel', ...events[i]! }, ip);
    const responses = await Promise.all(events.map((_, i) => send(i)));
    // On a starved machine some of the 104 outlast the route's 5 s deadline: 503 + Retry-After, and a client sends
    // those again, as it says (an event counts once however often it is sent; from another address, so that the
    // retries stay within the per-address limit). Bounded: 5 rounds.
    let cut = responses.flatMap((r, i) => (r.status === 503 ? [i] : []));
    const wasCut = cut.length;
    for (let round = 0; round < 5 && cut.length; round++) {
      for (const i of cut) expect(responses[i]!.headers.get('retry-after')).toMatch(/^\d+$/);
      const after = Number(responses[cut[0]!]!.headers.get('retry-after'));
      await new Promise((r) => setTimeout(r, after * 1000));
      for (const i of cut) responses[i] = await send(i, freshIp());
      cut = cut.filter((i) => responses[i]!.status === 503);
    }
    expect(responses.map((r) => r.status)).toEqual(Array(events.length).fill(200));
    const statuses = (await Promise.all(responses.map((r) => r.json()))) as { status: string }[];
    // Each visitor's exposure and conversion recorded once: by a first answer, or (its 503'd request having still
    // written it) found a duplicate by the retry.
    const recorded = statuses.filter((s) => s.status === 'recorded').length;
    expect(recorded).toBeLessThanOrEqual(40 + 12);
    expect(recorded).toBeGreaterThanOrEqual(40 + 12 - wasCut);

    const expected = (list: string[], variant: string) =>
      list.filter((v) => assignVariant(exp, v) === variant).length;
    const r = byVariant(await results('parallel'));
    for (const variant of ['a', 'b']) {
      expect(r[variant]!.exposures).toBe(expected(visitors, variant));
      expect(r[variant]!.conversions).toBe(expected(converters, variant));
      expect(r[variant]!.conversions_by_channel.event).toBe(expected(converters, variant));
    }
    expect(r.a!.exposures + r.b!.exposures).toBe(40);
  });
});

describe('GET /ab/results/{experiment}: dashboard token', () => {
  test('missing, wrong or malformed token → 401 with WWW-Authenticate; unknown experiments stay hidden', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { 'x-dashboard-token': 'wrong-token-0123456789' },
      { authorization: TOKEN },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
    ] as Record<string, string>[]) {
      const res = await fetch(g.url('/ab/results/pricing'), { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(typeof ((await res.json()) as { detail: string }).detail).toBe('string');
    }
    expect((await fetch(g.url('/ab/results/no-such-experiment'))).status).toBe(401);
  });

  test('the right token in Authorization: Bearer or X-Dashboard-Token → 200, not cached', async () => {
    for (const headers of [bearer, { 'x-dashboard-token': TOKEN }]) {
      const res = await fetch(g.url('/ab/results/pricing'), { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as {
        experiment: string;
        control: string;
        variants: { variant: string }[];
      };
      expect(body.experiment).toBe('pricing');
      expect(body.control).toBe('a');
      expect(body.variants.map((v) => v.variant)).toEqual(['a', 'b', 'c']);
    }
  });

  test('with the token: bad name → 422, unknown experiment → 404', async () => {
    expect((await detail(await fetch(g.url('/ab/results/Bad!'), { headers: bearer })))[0]!.type).toBe(
      'string_pattern_mismatch',
    );
    expect((await fetch(g.url('/ab/results/no-such-experiment'), { headers: bearer })).status).toBe(404);
  });

  test('no DASHBOARD_TOKEN configured → 503 naming the variable, whatever is sent', async () => {
    const base = awsDeps();
    const deps = Object.create(base, {
      config: { value: { ...base.config, DASHBOARD_TOKEN: undefined } },
    }) as typeof base;
    const event = apiEvent('GET', '/ab/results/pricing', {
      headers: { authorization: `Bearer ${TOKEN}` },
      params: { experiment: 'pricing' },
      requestId: 'r-503',
      sourceIp: '127.0.0.1',
      routeKey: 'GET /ab/results/{experiment}',
    });
    const context = { awsRequestId: 'r-503', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
    const res = (await makeResultsHandler(deps)(event, context)) as { statusCode: number; body: string };
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body).detail).toMatch(/DASHBOARD_TOKEN/);
  });
});

test('results math over HTTP: control 100/1000 vs b 130/1000 → uplift 0.3, z 2.1027, p 0.0355', async () => {
  const growth = awsDeps().growth;
  await growth.add(variantKey('math-check', 'control'), {
    exposures: 1000,
    conversions: 100,
    conv_event: 100,
  });
  await growth.add(variantKey('math-check', 'b'), { exposures: 1000, conversions: 130, conv_event: 130 });
  const r = await results('math-check');
  expect(r.method).toBe('two-proportion z-test, pooled standard error, two-sided, each variant vs control');
  const { control, b } = byVariant(r);
  expect(control).toMatchObject({
    exposures: 1000,
    conversions: 100,
    rate: 0.1,
    uplift: null,
    p_value: null,
  });
  expect(b).toMatchObject({ exposures: 1000, conversions: 130, rate: 0.13, significant: true });
  expect(b!.uplift).toBeCloseTo(0.3, 10);
  expect(b!.z).toBeCloseTo(2.10274, 4);
  expect(b!.p_value).toBeCloseTo(0.0355, 4);
});

describe('attribution', () => {
  const exp = EXPERIMENTS.get('attribution')!;
  // Visitors assigned to b, found by the same deterministic hash the server uses.
  const inB = Array.from({ length: 50 }, (_, i) => `attr-visitor-${i}`).filter(
    (v) => assignVariant(exp, v) === 'b',
  );

  test('a waitlist source ab:<experiment>:<variant>:<visitor> counts one conversion (and the exposure)', async () => {
    const ref = `ab:attribution:b:${inB[0]}`;
    const signUp = await postJson(g.url('/waitlist'), { email: 'attr1@example.com', source: ref }, freshIp());
    expect(signUp.status).toBe(200);
    // The same email again, or another email of the same visitor: still one conversion.
    await postJson(g.url('/waitlist'), { email: 'ATTR1@example.com', source: ref }, freshIp());
    await postJson(g.url('/waitlist'), { email: 'attr1-other@example.com', source: ref }, freshIp());
    const b = byVariant(await results('attribution')).b!;
    expect(b).toMatchObject({ exposures: 1, conversions: 1 });
    expect(b.conversions_by_channel).toEqual({ event: 0, waitlist: 1, checkout: 0 });
    // A source claiming the other variant for that visitor is not believed.
    await postJson(
      g.url('/waitlist'),
      { email: 'attr2@example.com', source: `ab:attribution:control:${inB[1]}` },
      freshIp(),
    );
    expect(byVariant(await results('attribution')).control!.conversions).toBe(0);
  });

  test('a checkout ref, recorded the way billing calls recordConversion, counts once per session', async () => {
    const { growth, config } = awsDeps();
    const opts = {
      experiments: config.AB_EXPERIMENTS,
      channel: 'checkout' as const,
      dedupeKey: 'cs_test_attr_1',
    };
    expect(await recordConversion(growth, 'ab:attribution:b', opts)).toEqual({
      counted: true,
      experiment: 'attribution',
      variant: 'b',
    });
    expect(await recordConversion(growth, 'ab:attribution:b', opts)).toMatchObject({
      counted: false,
      reason: 'duplicate',
    });
    expect(await recordConversion(growth, 'newsletter-march', opts)).toEqual({
      counted: false,
      reason: 'no_ab_ref',
    });
    const b = byVariant(await results('attribution')).b!;
    expect(b.conversions_by_channel).toEqual({ event: 0, waitlist: 1, checkout: 1 });
    expect(b.conversions).toBe(2);
  });
});
