// The AWS adapters under injected faults (a proxy in front of each emulator, test/helpers/fault-proxy.ts): brief
// throttling or 5xx is absorbed by the SDK's retries; a lasting one surfaces as an error that
// lambdas/shared/http/errors.ts classifies as transient (503 + Retry-After) — and only those: a real fault (a
// missing table, a bug) stays a 500.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { awsDeps } from '../../lambdas/narration/deps';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { dynamo, resetClients } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { NotFound } from '../../lambdas/shared/errors';
import { HttpError, classifyDependencyError, toHttpError } from '../../lambdas/shared/http/errors';
import { withEmulators } from '../helpers/env';
import { AWS_FAULTS, dynamoOp, s3Op, sqsOp, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';

jest.setTimeout(60_000);

let emu: Awaited<ReturnType<typeof withEmulators>>;
const proxies: Record<'dynamodb' | 's3' | 'sqs', FaultProxy> = {} as never;

const viaProxy = (url: string, proxy: FaultProxy) => {
  const u = new URL(url);
  return `${proxy.url}${u.pathname}`;
};

beforeAll(async () => {
  emu = await withEmulators();
  proxies.dynamodb = await startFaultProxy(emu.env.AWS_ENDPOINT_URL_DYNAMODB!);
  proxies.s3 = await startFaultProxy(emu.env.AWS_ENDPOINT_URL_S3!);
  // The SDK sends SQS calls to the QueueUrl's host: the queue URLs name the proxy, which restores them.
  const sqsUpstream = emu.env.AWS_ENDPOINT_URL_SQS!;
  proxies.sqs = await startFaultProxy(sqsUpstream, {
    rewriteBody: (body) => body.replaceAll(proxies.sqs.url, sqsUpstream),
  });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: proxies.dynamodb.url,
    AWS_ENDPOINT_URL_S3: proxies.s3.url,
    AWS_ENDPOINT_URL_SQS: proxies.sqs.url,
    PRIORITY_QUEUE_URL: viaProxy(emu.queues.priority!, proxies.sqs),
    STANDARD_QUEUE_URL: viaProxy(emu.queues.standard!, proxies.sqs),
  });
  resetConfig();
  resetClients();
});

afterEach(() => {
  for (const p of Object.values(proxies)) {
    p.clear();
    p.log.length = 0;
  }
});

afterAll(async () => {
  for (const p of Object.values(proxies)) await p?.close();
  await emu?.cleanup();
});

const rules = [
  { period: 'hour' as const, limit: 100 },
  { period: 'day' as const, limit: 100 },
];
let n = 0;
const subject = () => ipSubject(`203.0.113.${++n}`);

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
}

describe('DynamoDB', () => {
  test('two throttled writes are retried by the SDK: the quota is charged once, exactly', async () => {
    proxies.dynamodb.fail({ match: dynamoOp('UpdateItem'), mode: AWS_FAULTS.dynamoThrottle, times: 2 });
    const who = subject();
    // One moment for the charge and the read: the same windows, also when the UTC hour turns in between.
    const now = new Date();
    const decision = await awsDeps().quotas.consume(who, rules, now);
    expect(decision.allowed).toBe(true);
    const updates = proxies.dynamodb.log.filter((r) => r.target.endsWith('.UpdateItem'));
    expect(updates.map((r) => r.outcome).slice(0, 3)).toEqual([400, 400, 'passed']);
    const used = await awsDeps().quotas.peek(who, rules, now);
    expect(used.map((s) => s.used)).toEqual([1, 1]);
  });

  test('lasting throttling: the error is classified throttled → 503 with Retry-After 2, after the SDK gave up', async () => {
    proxies.dynamodb.fail({ match: dynamoOp('UpdateItem'), mode: AWS_FAULTS.dynamoThrottle });
    const err = await failure(awsDeps().quotas.consume(subject(), rules));
    expect(classifyDependencyError(err)).toBe('throttled');
    const http = toHttpError(err, 'req-1');
    expect(http).toBeInstanceOf(HttpError);
    expect(http).toMatchObject({
      statusCode: 503,
      headers: { 'retry-after': '2' },
      extra: { request_id: 'req-1' },
    });
    // clients.ts sets maxAttempts 4 for DynamoDB: one call, four attempts, then the error.
    expect(proxies.dynamodb.log.filter((r) => r.target.endsWith('.UpdateItem'))).toHaveLength(4);
  });

  test('a 500 that lasts → unavailable; the service down (connection refused) → unavailable', async () => {
    proxies.dynamodb.fail({ mode: AWS_FAULTS.dynamoInternal });
    expect(classifyDependencyError(await failure(awsDeps().audio.get('x')))).toBe('unavailable');
    proxies.dynamodb.clear();
    await proxies.dynamodb.down();
    try {
      const err = await failure(awsDeps().audio.get('x'));
      expect(String((err as Error).message)).toMatch(/ECONNREFUSED/);
      expect(toHttpError(err)).toMatchObject({ statusCode: 503, headers: { 'retry-after': '5' } });
    } finally {
      await proxies.dynamodb.up();
    }
    expect(await awsDeps().audio.get('x')).toBeUndefined();
  });

  test('a burst of 150 reads while DynamoDB answers in 1.5 s: each read is sent once (no connection time-out for waiting on a pooled socket)', async () => {
    // The connection time-out (2 s) starts when the request is made, also while it waits for one of the HTTP
    // agent's sockets: with the SDK's default of 50, the last 50 reads would wait 3 s and time out unconnected, then
    // be retried (in the local runtime, every invocation shares the client: 100 renders at once on a loaded machine
    // answered 503 "backing service unavailable" that way).
    proxies.dynamodb.fail({ match: dynamoOp('GetItem'), mode: { kind: 'delay', ms: 1_500 } });
    const reads = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        dynamo().send(new GetCommand({ TableName: emu.tableNames.audio, Key: { audioId: `burst-${i}` } })),
      ),
    );
    expect(reads.map((r) => r.$metadata.attempts)).toEqual(Array(150).fill(1));
    expect(proxies.dynamodb.log.filter(dynamoOp('GetItem'))).toHaveLength(150);
  });

  test('a real fault is not transient: a missing table stays a 500', async () => {
    const err = await failure(
      dynamo().send(new GetCommand({ TableName: 'no-such-table', Key: { id: 'x' } })),
    );
    expect((err as Error).name).toBe('ResourceNotFoundException');
    expect(classifyDependencyError(err)).toBeUndefined();
    expect(toHttpError(err)).toBeUndefined();
    expect(toHttpError(new TypeError('x is undefined'))).toBeUndefined();
    const notFound = new NotFound();
    expect(toHttpError(notFound)).toMatchObject({ statusCode: 404, detail: 'Not Found' });
    expect(toHttpError(notFound)).toBeInstanceOf(HttpError);
  });
});

test('network errors as the SDK throws them outside jest (code kept) are unavailable; non-SDK errors are not', () => {
  // What the SDK threw for a refused connection in a plain Node process (measured): the code survives there.
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
    code: 'ECONNREFUSED',
    $metadata: { attempts: 4, totalRetryDelay: 74 },
  });
  expect(classifyDependencyError(refused)).toBe('unavailable');
  const timeout = Object.assign(new Error('socket hang up'), {
    name: 'TimeoutError',
    code: 'ECONNRESET',
    $metadata: {},
  });
  expect(classifyDependencyError(timeout)).toBe('unavailable');
  // The same words from anything that did not come through the SDK are not ours to excuse.
  expect(classifyDependencyError(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBeUndefined();
  expect(classifyDependencyError({ name: 'ThrottlingException' })).toBeUndefined();
  expect(classifyDependencyError(null)).toBeUndefined();
});

describe('S3', () => {
  test('SlowDown for every attempt → throttled; a reset connection that lasts → unavailable', async () => {
    const store = awsDeps().store;
    proxies.s3.fail({ match: s3Op('PUT'), mode: AWS_FAULTS.s3SlowDown });
    expect(classifyDependencyError(await failure(store.putJobText('a1', 'hola')))).toBe('throttled');
    proxies.s3.clear();
    proxies.s3.fail({ mode: AWS_FAULTS.reset });
    expect(classifyDependencyError(await failure(store.getJobText('a1')))).toBe('unavailable');
  });

  test('one 500 is retried by the SDK and the object is stored once', async () => {
    const store = awsDeps().store;
    proxies.s3.fail({ match: s3Op('PUT'), mode: AWS_FAULTS.s3Internal, times: 1 });
    await store.putJobText('a2', 'texto del trabajo');
    expect(await store.getJobText('a2')).toBe('texto del trabajo');
    expect(proxies.s3.log.filter((r) => r.method === 'PUT').map((r) => r.outcome)).toEqual([500, 'passed']);
  });
});

describe('SQS', () => {
  test('a 500 on send is retried; a lasting one → unavailable; throttling → throttled', async () => {
    const queue = awsDeps().queue;
    proxies.sqs.fail({ match: sqsOp('SendMessage'), mode: AWS_FAULTS.sqsInternal, times: 1 });
    await queue.enqueue({ audioId: 'q1' }, false);
    expect(proxies.sqs.log.filter((r) => r.target === 'AmazonSQS.SendMessage').map((r) => r.outcome)).toEqual(
      [500, 'passed'],
    );
    proxies.sqs.fail({ match: sqsOp('SendMessage'), mode: AWS_FAULTS.sqsInternal });
    expect(classifyDependencyError(await failure(queue.enqueue({ audioId: 'q2' }, true)))).toBe(
      'unavailable',
    );
    proxies.sqs.clear();
    proxies.sqs.fail({ match: sqsOp('SendMessage'), mode: AWS_FAULTS.sqsThrottle });
    expect(classifyDependencyError(await failure(queue.enqueue({ audioId: 'q3' }, true)))).toBe('throttled');
  });
});
