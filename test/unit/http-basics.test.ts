import { bearerToken, generateKey, hashKey } from '../../lambdas/shared/auth/keys';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { matchPath } from '../../lambdas/shared/http/paths';
import { apiHandler } from '../../lambdas/shared/http/api-handler';
import { apiEvent } from '../helpers/api-event';
import { parseConfig } from '../../lambdas/narration/config';

describe('path templates', () => {
  test.each([
    ['/voices', '/voices', {}],
    ['/voices', '/voices/', {}],
    ['/audio/{audio_id}', '/audio/abc.mp3', { audio_id: 'abc.mp3' }],
    ['/audio/{audio_id}', '/audio/a%20b', { audio_id: 'a b' }],
    ['/audio/{audio_id}', '/audio', undefined],
    ['/audio/{audio_id}', '/audio/a/b', undefined],
    ['/files/{proxy+}', '/files/a/b/c', { proxy: 'a/b/c' }],
    ['/voices', '/voice', undefined],
  ])('%s vs %s', (template, path, expected) => {
    expect(matchPath(template, path)).toEqual(expected);
  });
});

describe('API keys', () => {
  test('keys are random, long, and hashed deterministically', () => {
    const a = generateKey();
    const b = generateKey();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^key_[A-Za-z0-9_-]{43}$/);
    expect(hashKey(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(a)).not.toBe(hashKey(b));
  });
  test('the stored hash is SHA-256 of the UTF-8 key, hex (known answers: FIPS 180-2 "abc"; sha256sum)', () => {
    // A stored key hash that changed with a refactor would lock every customer out: fixed vectors, not self-compares.
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // printf 'nv_live_ñ' | sha256sum
    expect(hashKey('nv_live_ñ')).toBe('d4e236a2190a72b2d0b1549afd5b8081dd98f873e99ecbdaa1846940ece9fd38');
  });
  test('Authorization parsing', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
    expect(bearerToken('Bearer key_abc')).toBe('key_abc');
    expect(bearerToken('bearer   key_abc ')).toBe('key_abc');
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
  });
  test('free-tier subjects hash the address', () => {
    expect(ipSubject('203.0.113.7')).toMatch(/^ip#[0-9a-f]{32}$/);
    expect(ipSubject('203.0.113.7')).not.toBe(ipSubject('203.0.113.8'));
    expect(ipSubject('203.0.113.7')).not.toContain('203');
  });
});

describe('config', () => {
  test('defaults', () => {
    const c = parseConfig({});
    expect(c.SPEECH_ENGINE).toBe('polly');
    expect(c.FREE_PER_HOUR).toBe(5);
    expect(c.FREE_PER_DAY).toBe(20);
    expect(c.SYNC_MAX_CHARS).toBe(3000);
  });
  test('a bad value names the variable', () => {
    expect(() => parseConfig({ SPEECH_ENGINE: 'festival' })).toThrow(/SPEECH_ENGINE/);
    expect(() => parseConfig({ FREE_PER_HOUR: 'five' })).toThrow(/FREE_PER_HOUR/);
  });
});

describe('oversize bodies are refused by the handler itself (as in Lambda)', () => {
  const call = (options: Parameters<typeof apiHandler>[1]) =>
    apiHandler(async () => ({ statusCode: 200, headers: {}, body: 'ok' }), options)(
      apiEvent('POST', '/x', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ a: 'x'.repeat(100) }),
      }),
      { awsRequestId: 'r1', getRemainingTimeInMillis: () => 10_000 } as never,
    ) as Promise<{ statusCode: number; body: string }>;

  it('narration: 422 body_too_large (default)', async () => {
    const res = await call({ maxBodyBytes: 50 });
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body).detail).toEqual([
      expect.objectContaining({ type: 'body_too_large', loc: ['body'] }),
    ]);
  });

  it('documents: the same items with 400, its contract', async () => {
    const res = await call({ maxBodyBytes: 50, invalidStatus: 400 });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).detail).toEqual([expect.objectContaining({ type: 'body_too_large' })]);
  });

  it("a route's tooLarge answer replaces the refusal: e.g. 413 naming another path, in the {detail} shape", async () => {
    const detail = 'Too large for one request: use POST /convert/pdf/upload.';
    const res = await call({ maxBodyBytes: 50, tooLarge: { status: 413, detail } });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ detail });
    expect((await call({ maxBodyBytes: 1000, tooLarge: { status: 413, detail } })).statusCode).toBe(200);
  });

  it('a body within the limit reaches the route', async () => {
    expect((await call({ maxBodyBytes: 1000, invalidStatus: 400 })).statusCode).toBe(200);
  });
});

describe("the deadline's abort signal is the invocation's own", () => {
  /** A route that waits `ms`, then answers whether its request's signal was aborted meanwhile. */
  const waits = (ms: number) =>
    apiHandler(async (req) => {
      await new Promise((r) => setTimeout(r, ms));
      return { statusCode: 200, headers: {}, body: String(req.signal?.aborted ?? 'no signal') };
    });
  const invoke = (handler: ReturnType<typeof waits>, remainingMs: number) =>
    handler(apiEvent('GET', '/x'), {
      awsRequestId: 'r',
      getRemainingTimeInMillis: () => remainingMs,
    } as never) as Promise<{
      statusCode: number;
      body: string;
    }>;

  it("one request's deadline (503) leaves the requests in flight beside it alive (the local runtime runs many at once)", async () => {
    const [cut, alive, sameRoute] = await Promise.all([
      invoke(waits(1_000), 700), // answered 503 at 200 ms
      invoke(waits(400), 60_000),
      ((h) => Promise.all([invoke(h, 700), invoke(h, 60_000)]))(waits(400)),
    ]);
    expect(cut.statusCode).toBe(503);
    expect(alive).toMatchObject({ statusCode: 200, body: 'false' });
    expect(sameRoute.map((r) => r.statusCode)).toEqual([503, 200]);
    expect(sameRoute[1]!.body).toBe('false');
  });

  it('the route sees its own deadline: aborted before the 503 is answered', async () => {
    const seen: boolean[] = [];
    const handler = apiHandler(async (req) => {
      await new Promise((r) => req.signal?.addEventListener('abort', r));
      seen.push(true);
      return { statusCode: 200, headers: {}, body: 'late' };
    });
    const res = (await handler(apiEvent('GET', '/x'), {
      awsRequestId: 'r',
      getRemainingTimeInMillis: () => 700,
    } as never)) as { statusCode: number };
    // Aborted 50 ms before middy's 503: the route answered first (its own 200 here; a real route throws Abandoned).
    expect(seen).toEqual([true]);
    expect(res.statusCode).toBe(200);
  });
});
