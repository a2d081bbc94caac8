// Hostile inputs over HTTP against the local runtime (loopback only): a JSON body nested 5,000 deep is refused with
// the path to the first too-deep value on both services (narration 422 and documents 400, their contracts'
// invalid-input statuses), never a 500; 30 wrong dashboard tokens from one address end in 429 with Retry-After.
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
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await fetch(rt.url('/dashboard/summary'), {
      headers: { 'x-dashboard-token': `wrong-guess-${i}-0123456789` },
    });
    statuses.push(res.status);
  }
  expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
  expect(statuses.slice(20)).toEqual(Array(10).fill(429));
  const res = await fetch(rt.url('/dashboard/summary'), { headers: { 'x-dashboard-token': TOKEN } });
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
});
