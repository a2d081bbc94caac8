// API Gateway HTTP API (payload 2.0) events and a Lambda context for calling route handlers directly in unit tests
// (makeHandler(deps)(event, context)), without the local runtime.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export interface ApiEventOptions {
  query?: Record<string, string>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  /** The body is base64 (binary), as API Gateway sends it. */
  base64?: boolean;
  /** API Gateway's request id. @default 'req-1' */
  requestId?: string;
  /** The client's address (the free tier's key). @default '203.0.113.9' */
  sourceIp?: string;
  /** The matched route, e.g. `GET /ab/results/{experiment}`. @default `${method} ${path}` */
  routeKey?: string;
}

export function apiEvent(method: string, path: string, opts: ApiEventOptions = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: opts.routeKey ?? `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(opts.query ?? {}).toString(),
    headers: { host: 'api.example.com', ...(opts.headers ?? {}) },
    queryStringParameters: opts.query,
    pathParameters: opts.params,
    requestContext: {
      accountId: '1',
      apiId: 'a',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: {
        method,
        path,
        protocol: 'HTTP/1.1',
        sourceIp: opts.sourceIp ?? '203.0.113.9',
        userAgent: 'jest',
      },
      requestId: opts.requestId ?? 'req-1',
      routeKey: opts.routeKey ?? `${method} ${path}`,
      stage: '$default',
      time: '',
      timeEpoch: Date.now(),
    },
    body: opts.body,
    isBase64Encoded: !!opts.base64,
  };
}

export const lambdaContext = {
  awsRequestId: 'req-1',
  functionName: 'unit',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

export interface HandlerResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON (null when empty); read it only for JSON answers. */
  readonly json: Record<string, unknown>;
}

/** Calls a route handler with `event` and the test context. */
export async function callHandler(
  handler: (e: APIGatewayProxyEventV2, c: Context) => Promise<unknown>,
  event: APIGatewayProxyEventV2,
): Promise<HandlerResult> {
  const r = (await handler(event, lambdaContext)) as Omit<HandlerResult, 'json'>;
  return {
    ...r,
    get json() {
      return JSON.parse(r.body || 'null') as Record<string, unknown>;
    },
  };
}

/**
 * Deps that hold only `present`: any other member the handler reads throws, naming it — for edges that must answer
 * before touching storage (validation, missing settings).
 */
export function untouchedDeps<T extends object>(present: Partial<T>): T {
  return new Proxy(present as T, {
    get(target, prop) {
      if (prop in target) return target[prop as keyof T];
      if (prop === 'then') return undefined;
      throw new Error(`the handler touched deps.${String(prop)}`);
    },
  });
}
