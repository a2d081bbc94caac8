// Events as AWS delivers them to a function: API Gateway HTTP API payload format 2.0 (one per request, headers
// lower-cased, cookies apart, the raw path and query, the matched route key and its path parameters) and SQS
// batches (the event source mapping's record shape).
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, SQSEvent, SQSRecord } from 'aws-lambda';

export interface HttpRequest {
  method: string;
  /** The concrete path (`/audio/abc`). */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string | Buffer;
  sourceIp?: string;
}

/** Path parameters of `path` against a route template (`/audio/{audio_id}`); undefined when it does not match. */
export function matchRoute(template: string, path: string): Record<string, string> | undefined {
  if (template === '$default') return {};
  const names: string[] = [];
  const pattern = template
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
  const m = new RegExp(`^${pattern}$`).exec(path);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
}

const TEXT_TYPES = /^(text\/|application\/(json|x-www-form-urlencoded|javascript|xml))/;

/** The payload 2.0 event API Gateway sends for `req` matched by `routeKey` (`GET /audio/{audio_id}` or `$default`). */
export function httpApiEvent(routeKey: string, req: HttpRequest): APIGatewayProxyEventV2 {
  const template = routeKey === '$default' ? '$default' : routeKey.slice(routeKey.indexOf(' ') + 1);
  const params = matchRoute(template, req.path);
  if (!params) throw new Error(`${req.path} does not match route ${routeKey}`);
  const sourceIp = req.sourceIp ?? '198.51.100.7';
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  const headers: Record<string, string> = {
    host: 'abc123.execute-api.us-east-1.amazonaws.com',
    'user-agent': 'artifact-test',
    'x-amzn-trace-id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    'x-forwarded-for': sourceIp,
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
    ...(body ? { 'content-length': String(body.length) } : {}),
  };
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
  const cookies = headers.cookie?.split(/;\s*/).filter(Boolean);
  delete headers.cookie;
  const binary = body !== undefined && !TEXT_TYPES.test(headers['content-type'] ?? '');
  const rawQueryString = new URLSearchParams(req.query ?? {}).toString();
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: req.path,
    rawQueryString,
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(req.query && Object.keys(req.query).length ? { queryStringParameters: req.query } : {}),
    ...(Object.keys(params).length ? { pathParameters: params } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: headers.host!,
      domainPrefix: 'abc123',
      http: {
        method: req.method,
        path: req.path,
        protocol: 'HTTP/1.1',
        sourceIp,
        userAgent: headers['user-agent']!,
      },
      requestId: randomUUID().slice(0, 16),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body !== undefined ? { body: binary ? body.toString('base64') : body.toString('utf8') } : {}),
    isBase64Encoded: binary,
  };
}

/** An SQS event source batch of `messages` (bodies and attributes as received from the queue). */
export function sqsEvent(
  queueArn: string,
  messages: { messageId?: string; receiptHandle?: string; body: string; receiveCount?: number }[],
): SQSEvent {
  const now = Date.now();
  const records: SQSRecord[] = messages.map((m) => ({
    messageId: m.messageId ?? randomUUID(),
    receiptHandle: m.receiptHandle ?? randomUUID(),
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receiveCount ?? 1),
      SentTimestamp: String(now),
      SenderId: 'AIDAEXAMPLE',
      ApproximateFirstReceiveTimestamp: String(now),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'us-east-1',
  }));
  return { Records: records };
}
