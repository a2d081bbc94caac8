// Tracing: on only inside Lambda (and not when POWERTOOLS_TRACE_ENABLED=false). When on, AWS clients get Powertools'
// X-Ray middleware (captureAWSv3Client), also clients created before the Tracer finished loading; when off, the
// Tracer module is never loaded and clients are left untouched. No AWS call is made here.
import { S3Client } from '@aws-sdk/client-s3';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

type AwsClientsModule = typeof import('../../lambdas/shared/observability/aws-clients');
type TracingModule = typeof import('../../lambdas/shared/observability/tracing');

const LAMBDA_ENV = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  // The Tracer would patch node:http globally for every later test in this worker otherwise.
  POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false',
};

/** Fresh copies of the observability modules, loaded with `env` in place. */
async function load(env: Record<string, string>): Promise<{ aws: AwsClientsModule; tracing: TracingModule }> {
  Object.assign(process.env, env);
  let mods!: { aws: AwsClientsModule; tracing: TracingModule };
  await jest.isolateModulesAsync(async () => {
    mods = {
      aws: await import('../../lambdas/shared/observability/aws-clients'),
      tracing: await import('../../lambdas/shared/observability/tracing'),
    };
  });
  return mods;
}

const xrayMiddleware = (client: S3Client): string[] =>
  client.middlewareStack.identify().filter((m) => m.includes('XRaySDKInstrumentation'));

const newClient = () =>
  new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x' } });

const context = {
  functionName: 'fn',
  awsRequestId: 'r',
  getRemainingTimeInMillis: () => 5000,
} as unknown as Context;

afterEach(() => {
  for (const key of [
    'AWS_EXECUTION_ENV',
    'POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS',
    'POWERTOOLS_TRACE_ENABLED',
  ])
    delete process.env[key];
});

describe('tracingEnabled', () => {
  test.each([
    [{ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' }, true],
    [{ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'false' }, false],
    [{ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_SAM_LOCAL: 'true' }, false],
    [{}, false],
    [{ POWERTOOLS_TRACE_ENABLED: 'true' }, false],
  ])('%j → %s', async (env, on) => {
    const { tracing } = await load({});
    expect(tracing.tracingEnabled(env)).toBe(on);
  });
});

describe('AWS clients', () => {
  test('off (local runtime, tests): no X-Ray middleware, the handler middleware does nothing', async () => {
    const { aws, tracing } = await load({});
    const client = aws.observeAwsClient(newClient());
    const handler = middy(async () => 'ok').use(tracing.tracingMiddleware());
    expect(await handler({}, context)).toBe('ok');
    expect(xrayMiddleware(client)).toEqual([]);
  });

  test('on in Lambda: clients are captured, whether created before or after the Tracer loaded', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { aws, tracing } = await load(LAMBDA_ENV);
      const early = aws.observeAwsClient(newClient());
      // The first invocation loads the Tracer (outside Lambda there is no segment to open: it only warns).
      const handler = middy(async () => 'ok').use(tracing.tracingMiddleware());
      expect(await handler({}, context)).toBe('ok');
      const late = aws.observeAwsClient(newClient());
      expect(xrayMiddleware(early)).toHaveLength(1);
      expect(xrayMiddleware(late)).toHaveLength(1);
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  test('POWERTOOLS_TRACE_ENABLED=false turns it off in Lambda too', async () => {
    const { aws, tracing } = await load({ ...LAMBDA_ENV, POWERTOOLS_TRACE_ENABLED: 'false' });
    await middy(async () => 'ok').use(tracing.tracingMiddleware())({}, context);
    expect(xrayMiddleware(aws.observeAwsClient(newClient()))).toEqual([]);
  });
});
