// Fault injection for the AWS emulators: an HTTP proxy on loopback in front of one emulator (dynalite, s3rver or
// fauxqs). Point the SDK's endpoint variable at it and it forwards every request unchanged (headers included, so
// SigV4 signatures still match), until a test asks it to fail some of them:
//   proxy.fail({ match: dynamoOp('UpdateItem'), mode: AWS_FAULTS.dynamoThrottle, times: 2 })
// Modes: answer with an AWS error (throttling, 500, 503 SlowDown…), reset the connection, hang (never answer), or
// answer late (delay);
// `down()` stops listening altogether (ECONNREFUSED) and `up()` listens again on the same port. Every request is
// logged with what the proxy did, so a test can count the SDK's retries.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode =
  | { kind: 'reset' }
  | { kind: 'hang' }
  /** Forwarded unchanged, `ms` later: a dependency that answers slowly. */
  | { kind: 'delay'; ms: number }
  | { kind: 'respond'; status: number; headers: Record<string, string>; body: string };

export interface SeenRequest {
  method: string;
  path: string;
  /** X-Amz-Target (DynamoDB, SQS JSON protocol): e.g. "DynamoDB_20120810.UpdateItem". */
  target: string;
}

export interface FaultRule {
  /** Which requests fail (default all). */
  match?: (req: SeenRequest) => boolean;
  mode: FaultMode;
  /** How many matching requests fail before the rule is used up (default: all of them). */
  times?: number;
}

export interface LoggedRequest extends SeenRequest {
  outcome: 'passed' | 'reset' | 'hang' | number;
}

export interface FaultProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  setUpstream(url: string): void;
  fail(rule: FaultRule): void;
  /** Removes every rule and lets hanging requests go (their sockets are destroyed). */
  clear(): void;
  log: LoggedRequest[];
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const amzJson = (status: number, type: string, message: string): FaultMode => ({
  kind: 'respond',
  status,
  headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'fault-proxy' },
  body: JSON.stringify({ __type: type, message }),
});

const s3Xml = (status: number, code: string, message: string): FaultMode => ({
  kind: 'respond',
  status,
  headers: { 'content-type': 'application/xml', 'x-amz-request-id': 'fault-proxy' },
  body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
});

/** What AWS answers when it throttles or fails, per service and wire protocol. */
export const AWS_FAULTS = {
  dynamoThrottle: amzJson(
    400,
    'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    'The level of configured provisioned throughput for the table was exceeded.',
  ),
  dynamoInternal: amzJson(
    500,
    'com.amazonaws.dynamodb.v20120810#InternalServerError',
    'Internal server error',
  ),
  s3SlowDown: s3Xml(503, 'SlowDown', 'Please reduce your request rate.'),
  s3Internal: s3Xml(500, 'InternalError', 'We encountered an internal error. Please try again.'),
  sqsInternal: amzJson(500, 'com.amazonaws.sqs#InternalError', 'Internal error'),
  sqsThrottle: amzJson(400, 'com.amazonaws.sqs#RequestThrottled', 'Request is throttled.'),
  reset: { kind: 'reset' } as FaultMode,
  hang: { kind: 'hang' } as FaultMode,
};

/** Matches one DynamoDB operation by its X-Amz-Target. */
export const dynamoOp =
  (...ops: string[]) =>
  (r: SeenRequest) =>
    ops.some((op) => r.target === `DynamoDB_20120810.${op}`);

/** Matches SQS operations (JSON protocol) by X-Amz-Target. */
export const sqsOp =
  (...ops: string[]) =>
  (r: SeenRequest) =>
    ops.some((op) => r.target === `AmazonSQS.${op}`);

/** Matches S3 requests by method and an optional key prefix of the path (/bucket/key). */
export const s3Op =
  (method: string, pathPrefix = '') =>
  (r: SeenRequest) =>
    r.method === method && r.path.startsWith(pathPrefix);

export interface FaultProxyOptions {
  /**
   * Rewrites request bodies before forwarding. SQS needs it: the SDK sends each call to the host of its QueueUrl,
   * so the queue URLs handed to the code name the proxy, and the emulator must see its own URLs in the body.
   */
  rewriteBody?: (body: string) => string;
}

export async function startFaultProxy(upstream = '', options: FaultProxyOptions = {}): Promise<FaultProxy> {
  let target = upstream;
  const rules: (FaultRule & { left: number })[] = [];
  const log: LoggedRequest[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const agent = new Agent({ keepAlive: true });

  function pick(seen: SeenRequest): FaultRule | undefined {
    const rule = rules.find((r) => r.left > 0 && (r.match?.(seen) ?? true));
    if (rule) rule.left--;
    return rule;
  }

  function forward(req: IncomingMessage, res: ServerResponse, entry: LoggedRequest) {
    if (options.rewriteBody) {
      // Buffer, rewrite, and send with the new length.
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.from(options.rewriteBody!(Buffer.concat(chunks).toString('utf8')));
        send(req, res, entry, { ...req.headers, 'content-length': String(body.length) }).end(body);
      });
      return;
    }
    req.pipe(send(req, res, entry, req.headers));
  }

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    entry: LoggedRequest,
    headers: IncomingMessage['headers'],
  ) {
    const up = new URL(target);
    const out = request(
      {
        agent,
        host: up.hostname,
        port: Number(up.port),
        method: req.method,
        path: req.url,
        headers,
      },
      (upRes) => {
        entry.outcome = 'passed';
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // A client that gives up (an aborted long poll) closes the upstream request too, as a direct connection would.
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    return out;
  }

  const server = createServer((req, res) => {
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0]!,
      target: String(req.headers['x-amz-target'] ?? ''),
    };
    const entry: LoggedRequest = { ...seen, outcome: 'passed' };
    log.push(entry);
    const rule = pick(seen);
    if (!rule) return forward(req, res, entry);
    const mode = rule.mode;
    if (mode.kind === 'delay') return void setTimeout(() => forward(req, res, entry), mode.ms);
    req.resume();
    if (mode.kind === 'reset') {
      entry.outcome = 'reset';
      req.socket.destroy();
    } else if (mode.kind === 'hang') {
      entry.outcome = 'hang';
      hanging.add(res);
    } else {
      entry.outcome = mode.status;
      req.on('end', () => res.writeHead(mode.status, mode.headers).end(mode.body));
    }
  });
  // Keep idle client sockets longer than any SDK retry backoff (Node's default is 5 s): otherwise a retry after a
  // ~5 s throttling backoff can reuse a socket the proxy is closing, and fail with 'socket hang up' instead of the
  // fault under test.
  server.keepAliveTimeout = 120_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // A client may reset a hung connection; that is not the proxy's error.
  server.on('clientError', (_e, s) => s.destroy());

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;

  const dropAll = () => {
    for (const res of hanging) res.destroy();
    hanging.clear();
    for (const s of sockets) s.destroy();
  };

  return {
    url: `http://127.0.0.1:${port}`,
    setUpstream(url) {
      target = url;
    },
    fail(rule) {
      rules.push({ ...rule, left: rule.times ?? Number.POSITIVE_INFINITY });
    },
    clear() {
      rules.length = 0;
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    log,
    async down() {
      await new Promise<void>((r) => {
        server.close(() => r());
        dropAll();
      });
    },
    async up() {
      await listen(port);
    },
    async close() {
      rules.length = 0;
      if (server.listening)
        await new Promise<void>((r) => {
          server.close(() => r());
          dropAll();
        });
      agent.destroy();
    },
  };
}
