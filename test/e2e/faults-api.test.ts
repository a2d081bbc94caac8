// Both APIs over HTTP with their AWS dependencies failing under them (fault proxies in front of the emulators,
// test/helpers/fault-proxy.ts) and a speech engine that breaks on demand. What a caller must see:
// - a dependency down or throttled for good → 503 `{"detail": ..., "request_id": ...}` with Retry-After and
//   X-Request-Id (not a bare 500), and the service works again once it is back;
// - a brief fault → absorbed by the SDK's retries: 200, charged once;
// - a failure after the free tier was charged → 503 and the charge given back; nothing half-made is left behind
//   (no audio record, no job that will never run);
// - a dependency that hangs → 503 in the contract's shape just before the route's time limit.
import { resetClients } from '../../lambdas/shared/aws/clients';
import { findTemplate } from '../../lambdas/documents/domain/template-registry';
import { awsDeps, type NarrationDeps } from '../../lambdas/narration/deps';
import type { Synthesizer } from '../../lambdas/narration/ports';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import type { RouteSpec } from '../../lambdas/shared/manifest';
import type { LambdaHandler } from '../../lib/local/front';
import { chargedSince, countersNow, type Counters } from '../helpers/quota-window';
import { AWS_FAULTS, dynamoOp, s3Op, sqsOp, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { startFronts, type Fronts } from '../helpers/front-runtime';

jest.setTimeout(90_000);

type Name = 'dynamodb' | 's3' | 'sqs';
const proxies = {} as Record<Name, FaultProxy>;
let fronts: Fronts;
let speechBroken = false;

/**
 * ConvertText's route limit while a dependency hangs: short, so the hang is answered within the test's patience.
 * Only that test uses it: elsewhere the route keeps its own limit (29 s), because the SDK's retries of a throttled
 * call back off at random for up to 1 + 2 + 4 s, and under a 6 s limit the route's deadline (Retry-After 5) could
 * answer before the SDK gives up (Retry-After 2), as it did once in CI.
 */
const HANG_TIMEOUT_S = 6;
let convertTimeoutS: number | undefined;
const SYNC_MAX_CHARS = 200;

beforeAll(async () => {
  fronts = await startFronts({
    env: async (emu) => {
      proxies.dynamodb = await startFaultProxy(emu.env.AWS_ENDPOINT_URL_DYNAMODB!);
      proxies.s3 = await startFaultProxy(emu.env.AWS_ENDPOINT_URL_S3!);
      const sqsUpstream = emu.env.AWS_ENDPOINT_URL_SQS!;
      proxies.sqs = await startFaultProxy(sqsUpstream, {
        rewriteBody: (body) => body.replaceAll(proxies.sqs.url, sqsUpstream),
      });
      // The SDK sends SQS calls to the QueueUrl's host: the queue URLs name the proxy.
      const viaSqsProxy = (url: string) => proxies.sqs.url + new URL(url).pathname;
      return {
        AWS_ENDPOINT_URL_DYNAMODB: proxies.dynamodb.url,
        AWS_ENDPOINT_URL_S3: proxies.s3.url,
        AWS_ENDPOINT_URL_SQS: proxies.sqs.url,
        PRIORITY_QUEUE_URL: viaSqsProxy(emu.queues.priority!),
        STANDARD_QUEUE_URL: viaSqsProxy(emu.queues.standard!),
        SYNC_MAX_CHARS: String(SYNC_MAX_CHARS),
        FREE_PER_HOUR: '1000',
        FREE_PER_DAY: '1000',
        // No worker runs here: a queued job answers 202 at once instead of waiting its window (25 s).
        WAIT_WINDOW_S: '0',
      };
    },
    manifest: (m) => ({
      ...m,
      // Read by the front on every request (lib/local/front.ts lambdaContext).
      routes: m.routes.map((r) => {
        if (r.id !== 'ConvertText') return r;
        const own = r.timeoutS;
        return Object.defineProperty({ ...r }, 'timeoutS', { get: () => convertTimeoutS ?? own });
      }),
    }),
    override: async (route: RouteSpec, service) => {
      if (service !== 'narration' || route.id !== 'ConvertText') return undefined;
      // The route's own handler with a speech engine that fails while `speechBroken` is set, and its quota calls
      // tracked (chargeSettled).
      const base = awsDeps();
      const quotas = base.quotas;
      const tracked: typeof quotas = Object.assign(Object.create(quotas) as typeof quotas, {
        consume: (...a: Parameters<typeof quotas.consume>) => track('consume', quotas.consume(...a)),
        refund: (...a: Parameters<typeof quotas.refund>) => track('refund', quotas.refund(...a)),
      });
      // `quotas` is a getter on awsDeps(): defined, not assigned.
      const deps: NarrationDeps = Object.assign(
        Object.create(base, { quotas: { value: tracked } }) as NarrationDeps,
        {
          synthesizer: async (): Promise<Synthesizer> => {
            const real = await base.synthesizer();
            return {
              ...real,
              engine: real.engine,
              maxChars: real.maxChars,
              concurrency: real.concurrency,
              synthesize: (text, voice) =>
                speechBroken
                  ? Promise.reject(new Error('speech engine unavailable'))
                  : real.synthesize(text, voice),
            };
          },
        },
      );
      const { makeHandler } = await import('../../lambdas/narration/handlers/convert-text');
      return makeHandler(deps) as unknown as LambdaHandler;
    },
  });
});

afterEach(async () => {
  speechBroken = false;
  for (const p of Object.values(proxies)) {
    p.clear();
    p.log.length = 0;
  }
});

afterAll(async () => {
  await fronts?.stop();
  for (const p of Object.values(proxies)) await p?.close();
});

const SHORT = 'Hola, esto es una prueba corta.';
const LONG = 'Había una vez un pueblo junto al mar. '.repeat(10); // > SYNC_MAX_CHARS: queued

let conversions = 0;

/**
 * Bounded like every request here (a hang fails the test): by default well past the route's limit. Each call's text
 * is new (numbered): the same text again from the same caller would reuse its audio (docs/reuse.md), never reaching
 * the faults under test.
 */
async function convert(text: string, timeoutMs = 30_000) {
  const res = await fetch(`${fronts.urls.narration}/convert/text`, {
    signal: AbortSignal.timeout(timeoutMs),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: `${text} Prueba ${++conversions}.` }),
  });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

async function render() {
  const res = await fetch(`${fronts.urls.documents}/v1/render`, {
    signal: AbortSignal.timeout(30_000),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ template: 'ventas', format: 'csv', data: findTemplate('ventas')!.sample }),
  });
  return { res, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

/** The free tier's counters of this client (every request comes from 127.0.0.1), for chargedSince. */
const usage = () => countersNow(awsDeps().quotas, ipSubject('127.0.0.1'), ['hour', 'day']);
const chargedSinceThen = (before: Counters) => chargedSince(awsDeps().quotas, before);

/** The ConvertText handler's quota calls, in call order (a handler answered early goes on in the background). */
const quotaCalls: { op: 'consume' | 'refund'; done: Promise<unknown> }[] = [];
let onQuotaCall: (() => void) | undefined;

function track<T>(op: 'consume' | 'refund', done: Promise<T>): Promise<T> {
  quotaCalls.push({ op, done });
  onQuotaCall?.();
  return done;
}

/**
 * Waits (bounded: 20 s) until the charge of the conversion whose quota calls start at `from` is final: its consume
 * failed or was refused, or the refund that gives it back has completed.
 */
async function chargeSettled(from: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('the charge was neither refused nor given back within 20 s')),
      20_000,
    );
  });
  const within = <T>(p: Promise<T>) => Promise.race([p, deadline]);
  try {
    for (;;) {
      const consume = quotaCalls.slice(from).find((c) => c.op === 'consume');
      if (consume) {
        const decision = (await within(consume.done.catch(() => undefined))) as
          { allowed?: boolean } | undefined;
        if (!decision?.allowed) return;
        const refund = quotaCalls.slice(from).find((c) => c.op === 'refund');
        if (refund) return void (await within(refund.done.catch(() => undefined)));
      }
      await within(new Promise<void>((r) => (onQuotaCall = r)));
    }
  } finally {
    clearTimeout(timer);
    onQuotaCall = undefined;
  }
}

/** A 503 in the contract's shape: a message, the request id (header and body), Retry-After. */
function expectRetryable503(res: Response, body: Record<string, unknown>, retryAfter: string) {
  expect(res.status).toBe(503);
  expect(typeof body.detail).toBe('string');
  expect(res.headers.get('retry-after')).toBe(retryAfter);
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/\S/);
  expect(body.request_id).toBe(id);
  expect(JSON.stringify(body)).not.toMatch(/\bat .+:\d+:\d+|ECONNREFUSED|Exception/);
}

describe('DynamoDB', () => {
  test('down: both APIs answer 503 with Retry-After and the request id, and serve again once it is back', async () => {
    await proxies.dynamodb.down();
    try {
      const a = await convert(SHORT);
      expectRetryable503(a.res, a.body, '5');
      const b = await render();
      expectRetryable503(b.res, b.body, '5');
    } finally {
      await proxies.dynamodb.up();
    }
    expect((await convert(SHORT)).res.status).toBe(200);
    expect((await render()).res.status).toBe(200);
  });

  test('throttled twice: the SDK retries, the caller gets 200, the free tier is charged once', async () => {
    // A fresh client: the test before took the proxy down and up (stale pooled sockets) and spent SDK retry tokens.
    resetClients();
    const before = await usage();
    proxies.dynamodb.fail({ match: dynamoOp('UpdateItem'), mode: AWS_FAULTS.dynamoThrottle, times: 2 });
    const { res } = await convert(SHORT);
    expect(res.status).toBe(200);
    expect(proxies.dynamodb.log.filter((r) => r.outcome === 400)).toHaveLength(2);
    expect(await chargedSinceThen(before)).toEqual([1, 1]);
  });

  test('throttled for good: 503 with Retry-After 2 (not a 500), nothing charged', async () => {
    // A fresh client: the test before took the proxy down and up (stale pooled sockets) and spent SDK retry tokens.
    resetClients();
    const before = await usage();
    proxies.dynamodb.fail({ match: dynamoOp('UpdateItem'), mode: AWS_FAULTS.dynamoThrottle });
    const { res, body } = await convert(SHORT);
    expectRetryable503(res, body, '2');
    proxies.dynamodb.clear();
    expect(await chargedSinceThen(before)).toEqual([0, 0]);
  });

  test('hanging: answered 503 in the contract shape before the route time limit, and never charged', async () => {
    const before = await usage();
    const from = quotaCalls.length;
    convertTimeoutS = HANG_TIMEOUT_S;
    proxies.dynamodb.fail({ match: dynamoOp('UpdateItem'), mode: AWS_FAULTS.hang });
    try {
      // Answered by the route's own deadline (HANG_TIMEOUT_S), well before this request's.
      const { res, body } = await convert(SHORT, (HANG_TIMEOUT_S + 5) * 1000);
      expect(res.status).toBe(503);
      expect(typeof body.detail).toBe('string');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.headers.get('x-request-id')).toMatch(/\S/);
    } finally {
      convertTimeoutS = undefined;
      proxies.dynamodb.clear();
    }
    // The handler goes on once DynamoDB answers (the charge lands), then sees its request was abandoned (the
    // abort signal of the early timeout) and gives the charge back without narrating.
    await chargeSettled(from);
    expect(await chargedSinceThen(before)).toEqual([0, 0]);
  });
});

describe('S3', () => {
  test('unavailable while storing a short narration: 503, the charge given back, no record left', async () => {
    const before = await usage();
    // Records an earlier fault left unfinished (DynamoDB down after the job was made durable: it could not be
    // retired; a worker fails it unnarrated, as it was never charged) are not this test's.
    const unfinished = (await awsDeps().audio.listUnfinished(1000)).map((r) => r.audioId);
    proxies.s3.fail({ match: s3Op('PUT'), mode: AWS_FAULTS.s3Internal });
    const { res, body } = await convert(SHORT);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(typeof body.detail).toBe('string');
    expect(proxies.s3.log.filter((r) => r.method === 'PUT').length).toBeGreaterThanOrEqual(3); // SDK retries
    expect(await chargedSinceThen(before)).toEqual([0, 0]);
    expect((await awsDeps().audio.listUnfinished(1000)).map((r) => r.audioId)).toEqual(unfinished);
  });

  test('SlowDown once on the upload: retried by the SDK, 200', async () => {
    proxies.s3.fail({ match: s3Op('PUT'), mode: AWS_FAULTS.s3SlowDown, times: 1 });
    const { res, body } = await convert(SHORT);
    expect(res.status).toBe(200);
    expect(body.audio_id).toEqual(expect.any(String));
  });
});

describe('SQS', () => {
  test('unavailable when a long text is queued: 503, not charged, and no job left that nobody will run', async () => {
    const before = await usage();
    const unfinished = (await awsDeps().audio.listUnfinished(1000)).map((r) => r.audioId);
    proxies.sqs.fail({ match: sqsOp('SendMessage'), mode: AWS_FAULTS.sqsInternal });
    const { res, body } = await convert(LONG);
    expect(res.status).toBe(503);
    expect(typeof body.detail).toBe('string');
    expect(await chargedSinceThen(before)).toEqual([0, 0]);
    // A record left `queued` would be re-queued by the next local start (and be narrated for nobody).
    expect((await awsDeps().audio.listUnfinished(1000)).map((r) => r.audioId)).toEqual(unfinished);
  });

  test('one failed send is retried by the SDK: 202, queued once', async () => {
    // A free job sends two messages: its backstop (delayed past the request's deadline) as soon as it is durable,
    // then, charged, the job's own. The job's own send fails once.
    const sends = sqsOp('SendMessage');
    let seen = 0;
    proxies.sqs.fail({ match: (r) => sends(r) && ++seen === 2, mode: AWS_FAULTS.sqsInternal, times: 1 });
    const { res, body } = await convert(LONG);
    expect(res.status).toBe(202);
    expect(body.status).toBe('queued');
    expect(proxies.sqs.log.filter((r) => r.target === 'AmazonSQS.SendMessage').map((r) => r.outcome)).toEqual(
      ['passed', 500, 'passed'],
    );
  });
});

describe('speech engine', () => {
  test('failing during an inline narration: 503, the charge given back', async () => {
    const before = await usage();
    speechBroken = true;
    const { res, body } = await convert(SHORT);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(String(body.detail)).not.toMatch(/speech engine unavailable/); // internal reason stays in the logs
    expect(await chargedSinceThen(before)).toEqual([0, 0]);
    speechBroken = false;
    expect((await convert(SHORT)).res.status).toBe(200);
  });
});
