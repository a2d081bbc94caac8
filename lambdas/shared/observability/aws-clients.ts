// Instrumentation of AWS SDK v3 clients, applied where the clients are created (lambdas/shared/aws/clients.ts, and
// the Polly client): X-Ray subsegments per call through Powertools Tracer's captureAWSv3Client when tracing is on
// (observability/tracing.ts), and optionally a counter of throttled attempts (PollyThrottles). The Tracer module is
// imported lazily, on the first invocation in Lambda only; locally and in tests it is never evaluated.
import { logger } from '../logger';
import { metricsFor } from './metrics';
import type { MetricName, ServiceName } from './names';
import { provideTracing, tracingEnabled, type TracingKit } from './tracing';

type Next = (args: unknown) => Promise<unknown>;

/** The part of an SDK v3 client this module touches. */
export interface SdkClient {
  middlewareStack: {
    add(
      // The SDK's middleware types are generic per client and overloaded per step: any keeps this structural.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      middleware: any,
      options: { step: 'deserialize'; name: string; priority?: 'high' | 'normal' | 'low' },
    ): void;
  };
}

let kit: Promise<TracingKit | undefined> | undefined;
let loaded: TracingKit | undefined;

function loadTracing(): Promise<TracingKit | undefined> {
  if (!tracingEnabled()) return Promise.resolve(undefined);
  kit ??= Promise.all([
    import('@aws-lambda-powertools/tracer'),
    import('@aws-lambda-powertools/tracer/middleware'),
  ])
    .then(([{ Tracer }, { captureLambdaHandler }]) => {
      const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME });
      // Responses are not recorded: they are callers' audio, documents and texts.
      loaded = { tracer, handlerMiddleware: () => captureLambdaHandler(tracer, { captureResponse: false }) };
      return loaded;
    })
    .catch((err: unknown) => {
      // Tracing is an aid: without it the function still answers.
      logger.warn('tracing unavailable', { error: err as Error });
      return undefined;
    });
  return kit;
}

provideTracing(loadTracing);

/** Error names AWS services use for throttling (Polly: ThrottlingException), or HTTP 429. */
const THROTTLE_NAMES = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'ProvisionedThroughputExceededException',
  'SlowDown',
]);

export function isThrottlingError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  return (typeof e.name === 'string' && THROTTLE_NAMES.has(e.name)) || e.$metadata?.httpStatusCode === 429;
}

export interface ObserveOptions {
  /** Count each attempt the service throttles (before the SDK's retry) as this metric. */
  throttleMetric?: { service: ServiceName; name: MetricName };
}

/** Instruments `client` in place and returns it. */
export function observeAwsClient<C extends SdkClient>(client: C, options: ObserveOptions = {}): C {
  const counted = options.throttleMetric;
  if (counted) {
    // The deserialize step runs once per attempt, inside the retry loop; `high` puts this around the deserializer,
    // so it sees the service's error object.
    client.middlewareStack.add(
      (next: Next) => async (args: unknown) => {
        try {
          return await next(args);
        } catch (err) {
          if (isThrottlingError(err)) metricsFor(counted.service).add(counted.name, 'Count', 1);
          throw err;
        }
      },
      { step: 'deserialize', name: 'countThrottledAttempts', priority: 'high' },
    );
  }
  if (loaded) loaded.tracer.captureAWSv3Client(client);
  else if (tracingEnabled()) void loadTracing().then((k) => k?.tracer.captureAWSv3Client(client));
  return client;
}
