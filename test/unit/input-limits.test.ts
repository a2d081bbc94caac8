// Abuse limits at the edge: JSON nested past MAX_JSON_DEPTH is refused with the path to the first too-deep value
// (the route's invalid-input status: narration 422, documents 400), before anything walks it recursively; wrong
// dashboard tokens are throttled per address (429 with Retry-After once the hour's allowance is spent, even for the
// right token), other addresses unaffected.
import { makeHandler as abResults } from '../../lambdas/narration/handlers/ab-results';
import {
  authorizeDashboard,
  DASHBOARD_FAILURES_PER_HOUR,
  type DashboardAuthDeps,
} from '../../lambdas/shared/growth/dashboard-auth';
import { apiHandler } from '../../lambdas/shared/http/api-handler';
import { MAX_JSON_DEPTH, tooDeepAt } from '../../lambdas/shared/http/request';
import { json } from '../../lambdas/shared/http/response';
import { fakeNarrationDeps } from '../fakes/narration';
import { FakeQuotaStore } from '../fakes/platform';
import { apiEvent, callHandler, untouchedDeps } from '../helpers/api-event';
import { asHttp } from '../helpers/as-http';

const deep = (n: number, open = '{"a":', close = '}') => open.repeat(n) + '1' + close.repeat(n);

/** A route that walks its body recursively, as zod, the sandbox's copy and the metadata echo do. */
const walker = (invalidStatus?: 400 | 422) =>
  apiHandler(
    async (req) => {
      const count = (v: unknown): number =>
        v && typeof v === 'object' ? 1 + Object.values(v).reduce<number>((n, x) => n + count(x), 0) : 0;
      return json(200, { nodes: count(req.body()) });
    },
    invalidStatus ? { invalidStatus } : {},
  );

const post = (body: string) =>
  apiEvent('POST', '/x', { headers: { 'content-type': 'application/json' }, body });

test('tooDeepAt: the path to the first value past the limit, or undefined; no recursion', () => {
  expect(tooDeepAt(JSON.parse(deep(MAX_JSON_DEPTH)))).toBeUndefined();
  expect(tooDeepAt(JSON.parse(deep(MAX_JSON_DEPTH + 1)))).toEqual(Array(MAX_JSON_DEPTH).fill('a'));
  expect(tooDeepAt({ ok: [1, 2], bad: [[[[1]]]] }, 3)).toEqual(['bad', 0, 0]);
  expect(tooDeepAt(JSON.parse(deep(100_000, '[', ']')))).toHaveLength(MAX_JSON_DEPTH);
  expect(tooDeepAt({ wide: Array.from({ length: 100_000 }, (_, i) => ({ i })) })).toBeUndefined();
});

test.each<[string, 400 | 422 | undefined, number]>([
  ['narration', undefined, 422],
  ['documents', 400, 400],
])('%s: a body nested 5,000 deep answers %s with the path, never 500', async (_service, status, expected) => {
  const body = `{"text":"hola","metadata":${deep(5000)}}`;
  const res = await callHandler(walker(status), post(body));
  expect(res.statusCode).toBe(expected);
  const [item] = res.json.detail as { loc: (string | number)[]; msg: string; type: string }[];
  expect(item!.type).toBe('json_too_deep');
  expect(item!.loc.slice(0, 3)).toEqual(['body', 'metadata', 'a']);
  expect(item!.loc).toHaveLength(1 + MAX_JSON_DEPTH);
  expect(item!.msg).toMatch(new RegExp(`${MAX_JSON_DEPTH} levels`));
  // Within the limit the walk runs as before.
  expect((await callHandler(walker(status), post(`{"m":${deep(20)}}`))).statusCode).toBe(200);
});

describe('dashboard token guesses', () => {
  const TOKEN = 'dash-0123456789abcdef';
  const NOW = new Date('2026-11-25T18:20:00Z');
  const attempt = (quotas: FakeQuotaStore, token: string, ip = '203.0.113.7') =>
    authorizeDashboard(
      { headers: { 'x-dashboard-token': token }, clientIp: ip },
      { config: { DASHBOARD_TOKEN: TOKEN }, quotas, now: () => NOW },
    ).then(
      () => ({ statusCode: 200, headers: {} as Record<string, string> }),
      (e: unknown) => {
        const http = asHttp(e);
        return { statusCode: http.statusCode ?? 0, headers: http.headers as Record<string, string> };
      },
    );

  test('30 wrong tokens from one address: 401 up to the limit, then 429 with Retry-After, even for the right one', async () => {
    const quotas = new FakeQuotaStore();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await attempt(quotas, `guess-${i}-xxxxxxxxxxxx`)).statusCode);
    expect(statuses).toEqual([
      ...Array(DASHBOARD_FAILURES_PER_HOUR).fill(401),
      ...Array(30 - DASHBOARD_FAILURES_PER_HOUR).fill(429),
    ]);
    const refused = await attempt(quotas, TOKEN);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(40 * 60)); // the hour's window ends at 19:00
    // Another address is not affected; a missing token is not a guess.
    expect((await attempt(quotas, TOKEN, '198.51.100.4')).statusCode).toBe(200);
  });

  test('no configured token: 503 before the store is even read (deps.quotas untouched)', async () => {
    const deps = untouchedDeps<DashboardAuthDeps>({ config: {} });
    const err = await authorizeDashboard(
      { headers: { 'x-dashboard-token': TOKEN }, clientIp: '203.0.113.7' },
      deps,
    ).then(
      () => undefined,
      (e: unknown) => asHttp(e),
    );
    expect(err?.statusCode).toBe(503);
    expect(err?.detail).toMatch(/DASHBOARD_TOKEN/);
  });

  test('the route: GET /ab/results answers 429 to a throttled address', async () => {
    const { deps } = fakeNarrationDeps({
      config: { DASHBOARD_TOKEN: TOKEN, AB_EXPERIMENTS: {} } as never,
    });
    const handler = abResults(deps);
    const get = (token: string) =>
      callHandler(
        handler,
        apiEvent('GET', '/ab/results/precios', {
          params: { experiment: 'precios' },
          headers: { 'x-dashboard-token': token },
          routeKey: 'GET /ab/results/{experiment}',
        }),
      );
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await get(`wrong-${i}-xxxxxxxxxxxxx`)).statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(DASHBOARD_FAILURES_PER_HOUR);
    expect(codes.slice(DASHBOARD_FAILURES_PER_HOUR).every((c) => c === 429)).toBe(true);
    const last = await get(TOKEN);
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});

test("the deadline's 503 says the route's own words (documents do not speak of long texts)", async () => {
  const never = async () => new Promise<never>(() => undefined);
  const ctx = { awsRequestId: 'r', getRemainingTimeInMillis: () => 600 } as never;
  const narration = (await apiHandler(never)(post('{}'), ctx)) as { statusCode: number; body: string };
  expect(narration.statusCode).toBe(503);
  expect(JSON.parse(narration.body).detail).toMatch(/long texts/);
  const docs = (await apiHandler(never, { timeoutDetail: 'The document took too long.' })(
    post('{}'),
    ctx,
  )) as {
    statusCode: number;
    body: string;
  };
  expect(docs.statusCode).toBe(503);
  expect(JSON.parse(docs.body).detail).toBe('The document took too long.');
});
