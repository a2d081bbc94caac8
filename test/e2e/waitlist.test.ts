// POST /waitlist and GET /waitlist/count over HTTP against the local runtime: WaitlistReq validation edges in
// the contract's 422 shape, JSON and form bodies, dedupe per normalised email, exact counts under 100 parallel
// sign-ups with duplicates, and the per-IP limit. X-Forwarded-For picks the caller (TRUST_PROXY).
import { spendWindow } from '../helpers/quota-window';
import { postForm, postJson } from '../helpers/runtime';
import { startGrowthRuntime, type GrowthRuntime } from '../helpers/growth-runtime';

jest.setTimeout(60_000);

let g: GrowthRuntime;
beforeAll(async () => {
  g = await startGrowthRuntime(
    { WAITLIST_PER_HOUR: '3', WAITLIST_PER_DAY: '100' },
    // Every route's deadline 30 s instead of its spec's 5 s: these tests count sign-ups under 100 parallel requests,
    // and on a 2-core test machine shared with another test file a 5 s deadline answered some of them 503.
    { trustProxy: true, startWorker: false, deadlineS: 30 },
  );
});
afterAll(async () => g?.stop());

let ipSeq = 0;
/** A fresh caller address per call site, so the per-IP limit only bites where a test wants it to. */
const freshIp = () => ({
  'x-forwarded-for': `198.51.${100 + Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`,
});

type Item = { loc: (string | number)[]; msg: string; type: string };
async function detail(res: Response): Promise<Item[]> {
  expect(res.status).toBe(422);
  return ((await res.json()) as { detail: Item[] }).detail;
}
async function count(): Promise<number> {
  const res = await fetch(g.url('/waitlist/count'));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { count: number };
  expect(Object.keys(body)).toEqual(['count']);
  return body.count;
}

test('JSON sign-up → 200 registered with its position; the count follows; repeat → already_registered', async () => {
  const before = await count();
  const res = await postJson(g.url('/waitlist'), { email: 'ana@example.com', interest: 'pro' }, freshIp());
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json()).toEqual({ status: 'registered', position: before + 1 });
  expect(await count()).toBe(before + 1);

  // Same address in another case and with spaces: the same sign-up, not counted again.
  const again = await postJson(
    g.url('/waitlist'),
    { email: '  ANA@Example.COM ', interest: 'lifetime' },
    freshIp(),
  );
  expect(again.status).toBe(200);
  expect(await again.json()).toEqual({ status: 'already_registered' });
  expect(await count()).toBe(before + 1);
});

test('form-encoded sign-up with source and interest', async () => {
  const res = await postForm(
    g.url('/waitlist'),
    { email: 'luis.garcia+news@correo.es', source: 'blog-post', interest: 'lifetime' },
    freshIp(),
  );
  expect(res.status).toBe(200);
  expect(((await res.json()) as { status: string }).status).toBe('registered');
});

test('GET /waitlist/count is cacheable for a few seconds', async () => {
  const res = await fetch(g.url('/waitlist/count'));
  expect(res.headers.get('cache-control')).toBe('public, max-age=10');
});

describe('WaitlistReq validation (422, contract shape)', () => {
  const at200 = 'a'.repeat(188) + '@example.com';
  test('email of 200 characters is accepted; 201 → string_too_long', async () => {
    expect(at200).toHaveLength(200);
    expect((await postJson(g.url('/waitlist'), { email: at200 }, freshIp())).status).toBe(200);
    expect(await detail(await postJson(g.url('/waitlist'), { email: 'a' + at200 }, freshIp()))).toEqual([
      { loc: ['body', 'email'], msg: 'String should have at most 200 characters', type: 'string_too_long' },
    ]);
  });

  test('source of 120 characters is accepted; 121 → string_too_long', async () => {
    const ok = await postJson(
      g.url('/waitlist'),
      { email: 'src120@example.com', source: 's'.repeat(120) },
      freshIp(),
    );
    expect(ok.status).toBe(200);
    expect(
      await detail(
        await postJson(
          g.url('/waitlist'),
          { email: 'src121@example.com', source: 's'.repeat(121) },
          freshIp(),
        ),
      ),
    ).toEqual([
      { loc: ['body', 'source'], msg: 'String should have at most 120 characters', type: 'string_too_long' },
    ]);
  });

  test.each(['gold', 'Pro', 'pro ', 'prolifetime'])(
    'interest %p → string_pattern_mismatch naming the pattern',
    async (interest) => {
      expect(
        await detail(await postJson(g.url('/waitlist'), { email: 'i@example.com', interest }, freshIp())),
      ).toEqual([
        {
          loc: ['body', 'interest'],
          msg: "String should match pattern '^(pro|lifetime)$'",
          type: 'string_pattern_mismatch',
        },
      ]);
    },
  );

  test('interest and source may be null or empty (optional)', async () => {
    const res = await postJson(
      g.url('/waitlist'),
      { email: 'opt@example.com', interest: null, source: null },
      freshIp(),
    );
    expect(res.status).toBe(200);
    const form = await postForm(
      g.url('/waitlist'),
      { email: 'opt2@example.com', interest: '', source: '' },
      freshIp(),
    );
    expect(form.status).toBe(200);
  });

  test('missing email → missing; not a string → string_type', async () => {
    expect(await detail(await postJson(g.url('/waitlist'), { interest: 'pro' }, freshIp()))).toEqual([
      { loc: ['body', 'email'], msg: 'Field required', type: 'missing' },
    ]);
    expect(await detail(await postJson(g.url('/waitlist'), { email: 42 }, freshIp()))).toEqual([
      { loc: ['body', 'email'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
  });

  test.each([
    '',
    'not-an-email',
    'ana@',
    '@example.com',
    'ana@example',
    'ana maria@example.com',
    'ana@@example.com',
  ])('email %p → value_error naming the expected form', async (email) => {
    const items = await detail(await postJson(g.url('/waitlist'), { email }, freshIp()));
    expect(items).toEqual([
      {
        loc: ['body', 'email'],
        msg: 'value is not a valid email address: write it as name@example.com',
        type: 'value_error',
      },
    ]);
  });

  test('every problem is listed at once', async () => {
    const items = await detail(
      await postJson(
        g.url('/waitlist'),
        { email: 'nope', source: 'x'.repeat(200), interest: 'gold' },
        freshIp(),
      ),
    );
    expect(items.map((i) => [i.loc.join('.'), i.type])).toEqual([
      ['body.email', 'value_error'],
      ['body.source', 'string_too_long'],
      ['body.interest', 'string_pattern_mismatch'],
    ]);
  });

  test('malformed JSON → json_invalid; text/plain → 415', async () => {
    const bad = await fetch(g.url('/waitlist'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...freshIp() },
      body: '{"email": ',
    });
    expect((await detail(bad))[0]!.type).toBe('json_invalid');
    const plain = await fetch(g.url('/waitlist'), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...freshIp() },
      body: 'email=a@example.com',
    });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { detail: string }).detail).toMatch(/application\/json/);
  });
});

test('per-IP limit: the 4th sign-up in an hour gets 429 with Retry-After and RateLimit headers; 422s are free', async () => {
  const ip = freshIp();
  for (let i = 0; i < 3; i++) {
    expect((await postJson(g.url('/waitlist'), { email: 'bad' }, ip)).status).toBe(422);
  }
  // 3 an hour, then 429 (a turn of the hour between them starts a full window: spendWindow follows it).
  const before: number[] = [];
  const { accepted, refused } = await spendWindow(3, async (i) => {
    before.push(await count());
    return postJson(g.url('/waitlist'), { email: `limit${i}@example.com` }, ip);
  });
  const retry = Number(refused.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(3600);
  expect(refused.headers.get('ratelimit-limit')).toBe('3');
  expect(refused.headers.get('ratelimit-policy')).toBe('3;w=3600, 100;w=86400');
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/at most 3 per hour per IP address/);
  expect(await count()).toBe(before.at(-1)); // the refused sign-up was not stored
  const email = `limit${accepted.length}@example.com`;
  expect((await postJson(g.url('/waitlist'), { email }, freshIp())).status).toBe(200);
});

test('100 parallel sign-ups of 60 distinct emails (duplicates in other cases/spaces): count exactly +60', async () => {
  const before = await count();
  const emails = Array.from({ length: 100 }, (_, i) => {
    const n = i % 60;
    return i < 60
      ? `paralelo${n}@example.com`
      : i % 2
        ? ` Paralelo${n}@EXAMPLE.com`
        : `PARALELO${n}@example.com `;
  });
  const responses = await Promise.all(
    emails.map((email, i) =>
      i % 2
        ? postForm(g.url('/waitlist'), { email }, freshIp())
        : postJson(g.url('/waitlist'), { email }, freshIp()),
    ),
  );
  expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
  const bodies = (await Promise.all(responses.map((r) => r.json()))) as {
    status: string;
    position?: number;
  }[];
  const registered = bodies.filter((b) => b.status === 'registered');
  expect(registered).toHaveLength(60);
  expect(bodies.filter((b) => b.status === 'already_registered')).toHaveLength(40);
  // Every position handed out once, no gaps: the counter is bumped exactly once per new email.
  expect(registered.map((b) => b.position!).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 60 }, (_, i) => before + i + 1),
  );
  expect(await count()).toBe(before + 60);
});
