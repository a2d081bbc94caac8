// Per-invocation state for the local runtime, which runs many Lambda invocations at once in one process (both
// services' routes and workers). Powertools keeps an invocation's logger state (its Lambda context — function name,
// request id, cold start — and temporary keys like request_id and route) per invocation when the process says
// invocations are concurrent (AWS_LAMBDA_MAX_CONCURRENCY, as Lambda Managed Instances set it) and
// `globalThis.awslambda.InvokeStore` gives each invocation its own context. This is that store, on
// AsyncLocalStorage: without it the shared logger carries whichever invocation wrote its context last (a render
// worker's lines logged as `local-GetAudio`). Each invocation also runs inside asService (its service's name).
import { AsyncLocalStorage } from 'node:async_hooks';
import { InvokeStore } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';
import { asService } from '../../lambdas/shared/logger';

type Store = Record<string | symbol, unknown>;

const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
const X_RAY_TRACE_ID = Symbol.for('_AWS_LAMBDA_X_RAY_TRACE_ID');
const TENANT_ID = Symbol.for('_AWS_LAMBDA_TENANT_ID');
const PROTECTED = new Set<symbol>([REQUEST_ID, X_RAY_TRACE_ID, TENANT_ID]);

/**
 * The multi-concurrency InvokeStore's contract (@aws/lambda-invoke-store), on one AsyncLocalStorage. Outside any
 * invocation (module init: e.g. Powertools' BatchProcessor sets its empty response when constructed) values go to
 * one init-time context, as a single-invocation store would keep them; an invocation starts from its own.
 */
class LocalInvokeStore {
  private readonly als = new AsyncLocalStorage<Store>();
  private readonly init: Store = {};
  getContext = () => this.als.getStore();
  hasContext = () => this.als.getStore() !== undefined;
  get = <T>(key: string | symbol) => (this.als.getStore() ?? this.init)[key] as T | undefined;
  set = (key: string | symbol, value: unknown) => {
    if (typeof key === 'symbol' && PROTECTED.has(key))
      throw new Error(`Cannot modify protected Lambda context field: ${String(key)}`);
    (this.als.getStore() ?? this.init)[key] = value;
  };
  run = <T>(context: Store, fn: () => T): T => this.als.run(context, fn);
  getRequestId = () => (this.get<string>(REQUEST_ID) ?? '-') as string;
  getXRayTraceId = () => this.get<string>(X_RAY_TRACE_ID);
  getTenantId = () => this.get<string>(TENANT_ID);
  getTraceparent = () => undefined;
  getTracestate = () => undefined;
  getBaggage = () => undefined;
}

let store: LocalInvokeStore | undefined;

/**
 * Makes this process scope invocation state per invocation (idempotent). Replaces any single-invocation store
 * an SDK client may have created first (that one keeps one context for the whole process), and settles the
 * package's own instance on this one before AWS_LAMBDA_MAX_CONCURRENCY is set: the AWS SDK asks the package for
 * the store on every request, and with that variable set and no instance yet it would build another one.
 */
export async function enableInvocationScopes(): Promise<void> {
  if (store) return;
  const mine = new LocalInvokeStore();
  const g = globalThis as unknown as { awslambda?: { InvokeStore?: unknown } };
  g.awslambda ??= {};
  g.awslambda.InvokeStore = mine;
  await InvokeStore.getInstanceAsync();
  store = mine;
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '1000';
}

/** Runs one invocation's handler in its own scope: its logger context and keys are its own. */
export function runInvocation<T>(service: string, context: Pick<Context, 'awsRequestId'>, fn: () => T): T {
  if (!store) throw new Error('call enableInvocationScopes() first (startLocal does)');
  return store.run({ [REQUEST_ID]: context.awsRequestId }, () => asService(service, fn));
}

/** A Lambda-like context for one local invocation of a route, a worker or a schedule (its manifest entry). */
export function lambdaContext(
  fn: { id: string; memoryMb: number },
  requestId: string,
  timeoutS: number,
): Context {
  const deadline = Date.now() + timeoutS * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `local-${fn.id}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:local-${fn.id}`,
    memoryLimitInMB: String(fn.memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/local-${fn.id}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
