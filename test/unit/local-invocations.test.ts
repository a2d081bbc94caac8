// The local runtime runs many invocations at once in one process, with one shared Powertools logger. Each
// invocation runs in its own scope (lib/local/invocations.ts): lines written by concurrent invocations — a route
// and a queue worker, interleaved at every await — carry their own function name, Lambda request id and keys,
// never another invocation's (the render worker once logged as `local-GetAudio`).
import type { Context, SQSEvent } from 'aws-lambda';
import { z } from 'zod';
import { enableInvocationScopes, runInvocation } from '../../lib/local/invocations';
import { apiHandler } from '../../lambdas/shared/http/api-handler';
import { json } from '../../lambdas/shared/http/response';
import { logger } from '../../lambdas/shared/logger';
import { sqsWorker } from '../../lambdas/shared/sqs-worker';
import { apiEvent } from '../helpers/api-event';

const saved = process.env.AWS_LAMBDA_MAX_CONCURRENCY;
beforeAll(() => enableInvocationScopes());
afterAll(() => {
  if (saved === undefined) delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  else process.env.AWS_LAMBDA_MAX_CONCURRENCY = saved;
});

function contextFor(name: string, id: string): Context {
  return {
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '256',
    awsRequestId: id,
    getRemainingTimeInMillis: () => 60_000,
  } as unknown as Context;
}

/** A promise and its resolver: the two invocations hand the turn to each other at every step. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

async function linesOf(fn: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  let raw = '';
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => {
    raw += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    return true;
  }) as never);
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return raw
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('a route and a worker interleaved: every line names its own function, request id and keys', async () => {
  const [g1, g2, g3] = [gate(), gate(), gate()];
  const route = apiHandler(async () => {
    logger.info('route-1');
    g1.open();
    await g2.opened;
    logger.info('route-2');
    g3.open();
    return json(200, {});
  });
  const worker = sqsWorker(z.object({ jobId: z.string() }), async () => {
    await g1.opened;
    logger.info('worker-1');
    g2.open();
    await g3.opened;
    logger.info('worker-2');
  });
  const sqsEvent = {
    Records: [
      {
        messageId: 'm1',
        receiptHandle: 'rh',
        body: '{"jobId":"job-7"}',
        attributes: { ApproximateReceiveCount: '1' },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:local-render',
        awsRegion: 'us-east-1',
      },
    ],
  } as unknown as SQSEvent;
  const lines = await linesOf(() =>
    Promise.all([
      runInvocation('narration', contextFor('local-GetAudio', 'inv-route'), () =>
        route(
          apiEvent('GET', '/audio/x', { requestId: 'api-req-1', routeKey: 'GET /audio/{audio_id}' }),
          contextFor('local-GetAudio', 'inv-route'),
        ),
      ),
      runInvocation('documents', contextFor('local-RenderWorker', 'inv-worker'), () =>
        worker(sqsEvent, contextFor('local-RenderWorker', 'inv-worker')),
      ),
    ]),
  );
  const byMessage = Object.fromEntries(lines.map((l) => [l.message, l]));
  expect(Object.keys(byMessage).sort()).toEqual(['route-1', 'route-2', 'worker-1', 'worker-2']);
  for (const m of ['route-1', 'route-2'])
    expect(byMessage[m]).toMatchObject({
      service: 'narration',
      function_name: 'local-GetAudio',
      function_request_id: 'inv-route',
      request_id: 'api-req-1',
      route: 'GET /audio/{audio_id}',
    });
  for (const m of ['worker-1', 'worker-2']) {
    expect(byMessage[m]).toMatchObject({
      service: 'documents',
      function_name: 'local-RenderWorker',
      function_request_id: 'inv-worker',
      jobId: 'job-7',
    });
    expect(byMessage[m]).not.toHaveProperty('request_id');
    expect(byMessage[m]).not.toHaveProperty('route');
  }
  expect(byMessage['route-2']).not.toHaveProperty('jobId');
});
