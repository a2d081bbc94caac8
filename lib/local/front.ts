// The local front: an HTTP server that does what API Gateway (HTTP API, payload 2.0) does in the cloud —
// matches the manifest's routes, builds the event, invokes the route's handler with a Lambda-like context
// (including the route's timeout), and writes the result back. Bodies over the route's limit are refused while
// streaming, before they are buffered; the refusal reaches a client that is still sending (see drainThenClose).
// A body that has not fully arrived within API Gateway's 30 s is answered 408 and its connection closed (Node's own
// request timeout is 300 s), and a client that goes away mid-body is logged as 408, not as a 500 of ours.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchPath } from '../../lambdas/shared/http/paths';
import type { RouteSpec, ServiceManifest } from '../../lambdas/shared/manifest';
import { lambdaContext } from './invocations';

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export interface FrontOptions {
  /** What the front reads of a service manifest: its routes and refusal status. */
  manifest: FrontManifest;
  handlers: Record<string, LambdaHandler>;
  host: string;
  port: number;
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  log?: (line: string) => void;
  /** How long and how much of a refused body is still read (and dropped) after the answer; defaults DRAIN. */
  drain?: { maxMs: number; maxBytes: number };
  /**
   * Every route's deadline in seconds instead of its spec's `timeoutS` (tests whose subject is an answer, not the
   * speed of a loaded machine). Default: the spec's, as Lambda enforces it.
   */
  deadlineS?: number;
  /** How long a request body may take to arrive after its headers. @default BODY_TIMEOUT_MS */
  bodyTimeoutMs?: number;
}

/** API Gateway gives a request 30 s in all; a body still arriving after that is refused with 408. */
export const BODY_TIMEOUT_MS = 30_000;

/**
 * After refusing a body that is still arriving, the front keeps reading it for up to 10 s / 64 MiB more, as API
 * Gateway does: closing a socket with unread data makes the kernel send a reset, and a client still writing its
 * upload then sees ECONNRESET instead of the 413/422 that was already sent.
 */
export const DRAIN = { maxMs: 10_000, maxBytes: 64 * 1024 * 1024 };

/** Content types API Gateway passes as text; everything else arrives base64-encoded. */
const TEXT_TYPES = /^(text\/|application\/(json|.*\+json|x-www-form-urlencoded|xml|javascript))/i;
const DEFAULT_MAX_BODY = 64 * 1024;

export type FrontManifest = Pick<ServiceManifest, 'service' | 'routes' | 'invalidRequestStatus'>;

export function resolveRoute(manifest: FrontManifest, method: string, path: string) {
  for (const route of manifest.routes) {
    if (route.path === '$default') continue;
    if (route.method !== 'ANY' && route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  const fallback = manifest.routes.find((r) => r.path === '$default');
  return fallback ? { route: fallback, params: {} } : undefined;
}

export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = req.headers['x-forwarded-for'];
    const first = (Array.isArray(xff) ? xff[0] : xff)?.split(',')[0]?.trim();
    if (first) return first;
  }
  const addr = req.socket.remoteAddress ?? '127.0.0.1';
  return addr.startsWith('::ffff:') ? addr.slice(7) : addr;
}

/** The body, or why there is none: over the limit, not arrived in time, or the client went away. */
function readBody(
  req: IncomingMessage,
  limit: number,
  timeoutMs: number,
): Promise<Buffer | 'too-large' | 'timeout' | 'aborted'> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > limit) return resolve('too-large');
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (v: Buffer | 'too-large' | 'timeout' | 'aborted') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    const timer = setTimeout(() => settle('timeout'), timeoutMs);
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        settle('too-large');
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => settle(Buffer.concat(chunks)));
    // A client that closes or resets before the end of its body gave up: nothing to answer.
    req.on('error', () => settle('aborted'));
    req.on('close', () => settle(req.complete ? Buffer.concat(chunks) : 'aborted'));
  });
}

/**
 * The request target as API Gateway sees it: a path. `//x/y` stays the path `//x/y` (resolving it against a base
 * would read `x` as a host), and anything unparsable throws inside the caller's try (answered 400/404, never a hang).
 */
function requestUrl(target = '/'): URL {
  return new URL(target.startsWith('/') ? `http://local${target}` : target, 'http://local');
}

function buildEvent(
  req: IncomingMessage,
  route: RouteSpec,
  params: Record<string, string>,
  body: Buffer,
  ip: string,
): APIGatewayProxyEventV2 {
  const url = requestUrl(req.url);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === 'cookie') continue;
    headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || contentType === '' || TEXT_TYPES.test(contentType);
  const now = new Date();
  const method = req.method ?? 'GET';
  const routeKey =
    route.path === '$default' ? '$default' : `${route.method === 'ANY' ? 'ANY' : method} ${route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie?.split(';').map((c) => c.trim()),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers['host'] ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: ip,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
}

/**
 * The early answer says `Connection: close` (a keep-alive client must not send its next request on this socket), so
 * Node ends the connection with `socket.destroySoon()` once the answer is written. Destroying a socket with unread
 * data makes the kernel send a reset, and a client still writing its upload would see ECONNRESET instead of the
 * answer: here it only half-closes (FIN after the answer), then drops what the client still sends until it closes
 * its side or a bound is reached; only then is the socket destroyed.
 */
function drainThenClose(req: IncomingMessage, bounds: { maxMs: number; maxBytes: number }) {
  const socket = req.socket;
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > bounds.maxBytes) socket.destroy();
  });
  req.resume();
  (socket as unknown as { destroySoon(): void }).destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), bounds.maxMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

function writeResult(res: ServerResponse, result: unknown): void {
  // API Gateway's payload 2.0 rules: a result without statusCode is a 200 JSON body.
  const r: APIGatewayProxyStructuredResultV2 =
    result && typeof result === 'object' && 'statusCode' in result
      ? (result as APIGatewayProxyStructuredResultV2)
      : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
  const headers: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k] = String(v);
  if (r.cookies?.length) headers['set-cookie'] = r.cookies;
  const body = r.body ? Buffer.from(r.body, r.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  headers['content-length'] = body.length;
  res.writeHead(r.statusCode ?? 200, headers);
  res.end(body);
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  writeResult(res, {
    statusCode: status,
    headers: { 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });
}

/**
 * Idle keep-alive connections stay open for a minute, as API Gateway's front keeps them (Node's default is 5 s): with
 * 5 s, a client that reuses a connection just as the server's idle timer fires (a busy or briefly blocked event
 * loop makes both fire together) gets ECONNRESET on a request the server never read.
 */
export const KEEP_ALIVE_MS = 60_000;

export function createFront(options: FrontOptions): Server {
  const log = options.log ?? (() => undefined);
  const server = createServer(
    { keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1_000 },
    async (req, res) => {
      const started = Date.now();
      const method = req.method ?? 'GET';
      let path = req.url ?? '/';
      try {
        try {
          path = requestUrl(req.url).pathname;
        } catch {
          return sendJson(res, 400, { detail: 'Bad request target: send a path such as /voices.' });
        }
        const match = resolveRoute(options.manifest, method, path);
        if (!match) return sendJson(res, 404, { detail: 'Not Found' });
        const limit = match.route.maxBodyBytes ?? DEFAULT_MAX_BODY;
        const body = await readBody(req, limit, options.bodyTimeoutMs ?? BODY_TIMEOUT_MS);
        if (body === 'aborted') {
          log(`${method} ${path} → 408 (the client closed the connection before sending its whole body)`);
          return;
        }
        if (body === 'timeout') {
          log(
            `${method} ${path} → 408 (body not received within ${options.bodyTimeoutMs ?? BODY_TIMEOUT_MS} ms)`,
          );
          sendJson(
            res,
            408,
            { detail: 'The request body did not arrive in time: send the whole body within 30 seconds.' },
            { connection: 'close' },
          );
          // `Connection: close`: Node ends the connection once the answer is written.
          return;
        }
        if (body === 'too-large') {
          drainThenClose(req, options.drain ?? DRAIN);
          const tooLarge = match.route.tooLarge;
          if (tooLarge)
            return sendJson(res, tooLarge.status, { detail: tooLarge.detail }, { connection: 'close' });
          return sendJson(
            res,
            options.manifest.invalidRequestStatus ?? 422,
            {
              detail: [
                {
                  loc: ['body'],
                  msg: `Request body is larger than ${limit} bytes, the limit for this endpoint`,
                  type: 'body_too_large',
                },
              ],
            },
            { connection: 'close' },
          );
        }
        const handler = options.handlers[match.route.id];
        if (!handler) throw new Error(`no handler loaded for route ${match.route.id}`);
        const event = buildEvent(req, match.route, match.params, body, clientIp(req, options.trustProxy));
        const result = await handler(
          event,
          lambdaContext(
            match.route,
            event.requestContext.requestId,
            options.deadlineS ?? match.route.timeoutS,
          ),
        );
        writeResult(res, result);
        log(`${method} ${path} → ${res.statusCode} ${Date.now() - started} ms`);
      } catch (err) {
        // What API Gateway does when the function itself crashes.
        log(`${method} ${path} → 500 (${(err as Error).message})`);
        if (!res.headersSent) sendJson(res, 500, { detail: 'Internal server error' });
      }
    },
  );
  return server;
}

export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${h}:${addr.port}`;
}
