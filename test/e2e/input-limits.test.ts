// Hostile inputs over HTTP against the local runtime (loopback only): a JSON body nested 5,000 deep is refused with
// the path to the first too-deep value on both services (narration 422 and documents 400, their contracts'
// invalid-input statuses), never a 500; 30 wrong dashboard tokens from one address end in 429 with Retry-After.
import { awsDeps } from '../../lambdas/narration/deps';
import {
  DASHBOARD_FAILURES_PER_HOUR,
  dashboardFailureSubject,
} from '../../lambdas/shared/growth/dashboard-auth';
import { sameWindow, windowOf } from '../helpers/quota-window';
import { startRuntime, type TestRuntime } from '../helpers/runtime';
import { MAX_JSON_DEPTH } from '../../lambdas/shared/http/request';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';

jest.setTimeout(120_000);

const TOKEN = 'dash-e2e-0123456789abcdef';
let rt: TestRuntime;
let tripwire: Tripwire;
beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  rt = await startRuntime({ DASHBOARD_TOKEN: TOKEN }, { startWorker: false });
});
afterAll(async () => {
  await rt?.stop();
  tripwire.uninstall();
  expect(tripwire.attempts).toEqual([]);
});

const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const post = (url: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

test.each([
  [
    'narration POST /convert/text',
    422,
    () => rt.url('/convert/text'),
    `{"text":"hola","metadata":${deep(5000)}}`,
  ],
  [
    'documents POST /v1/render (metadata)',
    400,
    () => `${rt.documentsUrl!}/v1/render`,
    `{"template":"factura","format":"html","metadata":${deep(5000)}}`,
  ],
  [
    'documents POST /v1/render (custom_html data)',
    400,
    () => `${rt.documentsUrl!}/v1/render`,
    `{"custom_html":"<p>x</p>","format":"html","data":${deep(5000)}}`,
  ],
])('%s nested 5,000 deep → %i with the path', async (_name, status, url, body) => {
  const res = await post(url(), body);
  expect(res.status).toBe(status);
  const { detail } = (await res.json()) as { detail: { loc: (string | number)[]; type: string }[] };
  expect(detail).toHaveLength(1);
  expect(detail[0]!.type).toBe('json_too_deep');
  expect(detail[0]!.loc).toHaveLength(1 + MAX_JSON_DEPTH);
  expect(detail[0]!.loc[0]).toBe('body');
});

test('30 wrong dashboard tokens from one address: 401s, then 429 with Retry-After (the right token too)', async () => {
  const first = new Date();
  const statuses: number[] = [];
  const refused: Response[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await fetch(rt.url('/dashboard/summary'), {
      headers: { 'x-dashboard-token': `wrong-guess-${i}-0123456789` },
    });
    statuses.push(res.status);
    if (res.status === 429) refused.push(res);
  }
  const right = await fetch(rt.url('/dashboard/summary'), { headers: { 'x-dashboard-token': TOKEN } });
  // 20 wrong tokens counted an hour, then 429 in that hour. The quota store counts each hour's: a turn of the hour
  // during the guesses starts a full one, so the 401s are those of every hour touched, at most 20 in each.
  const quotas = awsDeps().quotas;
  const rules = [{ period: 'hour' as const, limit: DASHBOARD_FAILURES_PER_HOUR }];
  const failuresIn = async (at: Date) =>
    (await quotas.peek(dashboardFailureSubject('127.0.0.1'), rules, at))[0]!.used;
  const hours = sameWindow('hour', first, new Date()) ? [first] : [first, new Date()];
  const counted = await Promise.all(hours.map(failuresIn));
  expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
  expect(statuses.filter((s) => s !== 429)).toEqual(Array(counted.reduce((a, b) => a + b)).fill(401));
  for (const n of counted) expect(n).toBeLessThanOrEqual(20);
  for (const res of [...refused, ...(right.status === 429 ? [right] : [])]) {
    expect(await failuresIn(new Date(windowOf(res) * 1000))).toBe(20);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  // The right token is refused in a spent hour; in one begun since with fewer than 20 wrong tokens, it is let in.
  if (right.status !== 429) {
    expect(right.status).toBe(200);
    expect(await failuresIn(new Date())).toBeLessThan(20);
  }
  // In one hour (no turn): exactly 20 × 401, then 10 × 429, and the right token too.
  if (hours.length === 1) expect([refused.length, right.status]).toEqual([10, 429]);
});
