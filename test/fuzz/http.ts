// A raw HTTP/1.1 client for the fuzzer: node:http rather than fetch, so it can send what fetch refuses (any method
// node's parser knows, bodies on GET, duplicate headers, latin1 bytes in header values, chunked or sized bodies,
// invalid UTF-8) and bound every request with a hard deadline. Loopback only: the caller passes the local fronts.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query, already encoded as they go on the request line. */
  target: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export class RequestTimeoutError extends Error {}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export function destroyAgent(): void {
  agent.destroy();
}

/** Sends `req` to `base` (http://127.0.0.1:port); rejects with RequestTimeoutError after `timeoutMs`. */
export function send(base: string, req: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const url = new URL(base);
  if (url.hostname !== '127.0.0.1' && url.hostname !== '[::1]' && url.hostname !== 'localhost')
    throw new Error(`fuzz requests go to loopback only, not ${url.hostname}`);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | undefined, res?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(res!);
    };
    const headers: Record<string, string | string[]> = { ...req.headers };
    if (req.body && !req.chunked) headers['content-length'] = String(req.body.length);
    // Node frames bodies of DELETE and OPTIONS only when told to (else the bytes would follow unframed).
    if (req.body && req.chunked) headers['transfer-encoding'] = 'chunked';
    const r = request({
      agent,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port),
      method: req.method,
      path: req.target,
      headers,
    });
    const timer = setTimeout(() => {
      r.destroy();
      finish(new RequestTimeoutError(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    r.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', (e) => finish(e));
    });
    r.on('error', (e) => finish(e));
    if (req.body && req.body.length) {
      if (req.chunked) {
        // A few chunks of uneven size: the front must reassemble them.
        const step = Math.max(1, Math.ceil(req.body.length / 3));
        for (let i = 0; i < req.body.length; i += step) r.write(req.body.subarray(i, i + step));
      } else r.write(req.body);
    }
    r.end();
  });
}
