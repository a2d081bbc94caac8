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
    try {
      return JSON.parse(text);
    } catch (err) {
      const pos = jsonErrorPosition(err);
      throw new InvalidInput([
        { loc: pos === undefined ? ['body'] : ['body', pos], msg: 'JSON decode error', type: 'json_invalid' },
      ]);
    }
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
