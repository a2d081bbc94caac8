// The request as handlers see it: an API Gateway HTTP API (payload 2.0) event, with the body decoded once.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidInput, invalid } from '../errors';
import { HttpError } from './errors';

export type ApiEvent = APIGatewayProxyEventV2;

export interface ApiRequest {
  event: ApiEvent;
  requestId: string;
  method: string;
  path: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  query: Record<string, string>;
  pathParams: Record<string, string>;
  /** The caller's address as API Gateway (or the local front) saw it. */
  clientIp: string;
  rawBody(): Buffer;
  /** JSON or form-urlencoded body as an object; see parseBody. */
  body(): unknown;
  /**
   * Aborted when the route's deadline answered 503 for this request (apiHandler's early timeout): work that finishes
   * afterwards must not be charged or delivered, since the caller was told to retry.
   */
  signal?: AbortSignal;
}

export function bodyBytes(event: ApiEvent): Buffer {
  if (event.body === undefined || event.body === null) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

/**
 * How deep a JSON body may nest (objects and arrays). Checked once, without recursion, right after parsing and
 * before anything walks the value recursively (zod, the template sandbox's copy, metadata echo): a 5,000-deep body
 * would otherwise overflow the stack there (a 500). Real bodies (templates' data, CFDI complements) nest < 15.
 */
export const MAX_JSON_DEPTH = 64;

/** The path to the first value nested deeper than `max`, or undefined. Iterative: no stack to overflow. */
export function tooDeepAt(value: unknown, max = MAX_JSON_DEPTH): (string | number)[] | undefined {
  // Each entry links to its parent (no path copies per value: a wide body stays cheap).
  type Node = { v: unknown; depth: number; key?: string | number; parent?: Node };
  const stack: Node[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const node = stack.pop()!;
    const { v, depth } = node;
    if (!v || typeof v !== 'object') continue;
    if (depth >= max) {
      const path: (string | number)[] = [];
      for (let n: Node | undefined = node; n?.parent; n = n.parent) path.push(n.key!);
      return path.reverse();
    }
    if (Array.isArray(v))
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, key: i, parent: node });
    else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ v: (v as Record<string, unknown>)[key], depth: depth + 1, key, parent: node });
      }
    }
  }
  return undefined;
}

function jsonErrorPosition(err: unknown): number | undefined {
  const m = /position (\d+)/.exec(err instanceof Error ? err.message : '');
  return m ? Number(m[1]) : undefined;
}

/**
 * Decodes a JSON or application/x-www-form-urlencoded body (the contract's usage examples send form fields).
 * No Content-Type is read as JSON. Other media types get 415 naming the accepted ones.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const text = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') {
    const params = new URLSearchParams(text);
    const out: Record<string, string> = {};
    for (const [k, v] of params) if (!(k in out)) out[k] = v;
    return out;
  }
  if (type === '' || type === 'application/json' || type.endsWith('+json')) {
    if (text.trim() === '') throw invalid(['body'], 'Field required', 'missing');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      const pos = jsonErrorPosition(err);
      throw new InvalidInput([
        { loc: pos === undefined ? ['body'] : ['body', pos], msg: 'JSON decode error', type: 'json_invalid' },
      ]);
    }
    const deep = tooDeepAt(value);
    if (deep)
      throw invalid(
        ['body', ...deep],
        `Nested more than ${MAX_JSON_DEPTH} levels deep (objects and arrays)`,
        'json_too_deep',
      );
    return value;
  }
  throw new HttpError(
    415,
    `Unsupported Content-Type '${type}'. Send application/json or application/x-www-form-urlencoded.`,
  );
}

export function lowerHeaders(
  headers: Record<string, string | undefined> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

export function toApiRequest(event: ApiEvent, signal?: AbortSignal): ApiRequest {
  const headers = lowerHeaders(event.headers);
  let raw: Buffer | undefined;
  let parsed: { value: unknown } | undefined;
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) if (v !== undefined) query[k] = v;
  const pathParams: Record<string, string> = {};
  for (const [k, v] of Object.entries(event.pathParameters ?? {})) if (v !== undefined) pathParams[k] = v;
  const req: ApiRequest = {
    event,
    requestId: event.requestContext?.requestId ?? 'unknown',
    method: event.requestContext?.http?.method ?? 'GET',
    path: event.rawPath ?? event.requestContext?.http?.path ?? '/',
    headers,
    query,
    pathParams,
    clientIp: event.requestContext?.http?.sourceIp ?? '0.0.0.0',
    rawBody: () => (raw ??= bodyBytes(event)),
    body: () => (parsed ??= { value: parseBody(req.rawBody(), headers['content-type']) }).value,
    ...(signal ? { signal } : {}),
  };
  return req;
}
