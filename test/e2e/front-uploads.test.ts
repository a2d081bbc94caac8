// An over-limit upload gets its answer even while the client is still sending, as behind API Gateway: the local front
// answers, half-closes and drops the rest of the body (within bounds) instead of closing on unread data, which
// makes the kernel reset the connection and the client see ECONNRESET instead of the answer. Raw sockets (node:net,
// loopback), so nothing in an HTTP client library hides a reset or retries.
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createFront, listen, type FrontManifest, type FrontOptions } from '../../lib/local/front';

jest.setTimeout(60_000);

const MiB = 1024 * 1024;
const LIMIT = 20 * MiB;
const manifest: FrontManifest = {
  service: 'uploads',
  routes: [
    {
      id: 'Upload',
      method: 'POST',
      path: '/upload',
      handler: 'none',
      memoryMb: 128,
      timeoutS: 5,
      maxBodyBytes: LIMIT,
      access: {},
    },
  ],
};

let handlerCalls = 0;
const servers: Server[] = [];

/** Closes of the front's server-side sockets, in order. */
let serverSocketClosed: Promise<void>[] = [];

async function front(drain?: FrontOptions['drain']): Promise<{ host: string; port: number }> {
  const server = createFront({
    manifest,
    handlers: {
      Upload: async () => {
        handlerCalls += 1;
        return { statusCode: 200, body: 'stored' };
      },
    },
    host: '127.0.0.1',
    port: 0,
    trustProxy: false,
    drain,
  });
  servers.push(server);
  serverSocketClosed = [];
  server.on('connection', (s) => serverSocketClosed.push(new Promise((r) => s.once('close', () => r()))));
  const url = new URL(await listen(server, '127.0.0.1', 0));
  return { host: url.hostname, port: Number(url.port) };
}

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

interface Outcome {
  /** Everything the server sent, as text. */
  received: string;
  /** Body bytes the client managed to write. */
  sent: number;
  /** The socket error the client saw (ECONNRESET, EPIPE…), if any. */
  error?: string;
  socket: Socket;
}

/**
 * POSTs `total` body bytes (or, with `total: Infinity`, until the server stops it) in 64 KiB writes that wait for
 * the socket to drain, like an upload tool; the client half-closes after its last byte and the promise settles when
 * the socket closes. `stallAfter` stops sending (without closing) after that many bytes; the promise then settles
 * when the server has ended its side, and the client socket is left open (the caller destroys it).
 */
function rawUpload(
  target: { host: string; port: number },
  opts: { total: number; declared?: number; stallAfter?: number },
): Promise<Outcome> {
  const chunked = opts.declared === undefined;
  return new Promise((resolve) => {
    const socket = connect({ port: target.port, host: target.host, allowHalfOpen: true });
    const received: Buffer[] = [];
    const out: Omit<Outcome, 'socket'> = { received: '', sent: 0 };
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => (out.error ??= err.code ?? err.message));
    const settle = () => resolve({ ...out, received: Buffer.concat(received).toString('latin1'), socket });
    socket.on('close', settle);
    if (opts.stallAfter !== undefined) socket.on('end', settle);
    socket.on('connect', async () => {
      socket.write(
        'POST /upload HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/pdf\r\n' +
          (chunked ? 'transfer-encoding: chunked\r\n' : `content-length: ${opts.declared}\r\n`) +
          '\r\n',
      );
      const chunk = Buffer.alloc(64 * 1024, 0x25);
      const stopAt = Math.min(opts.total, opts.stallAfter ?? Infinity);
      while (out.sent < stopAt && !socket.destroyed && socket.writable) {
        const n = Math.min(chunk.length, stopAt - out.sent);
        const piece = chunked
          ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), chunk.subarray(0, n), Buffer.from('\r\n')])
          : chunk.subarray(0, n);
        const flushed = socket.write(piece);
        out.sent += n;
        if (!flushed) await new Promise((r) => (socket.once('drain', r), socket.once('close', r)));
      }
      if (opts.stallAfter !== undefined) return; // keeps the connection open, silent
      if (!socket.destroyed && socket.writable) socket.end(chunked ? '0\r\n\r\n' : '');
    });
  });
}

function parseAnswer(raw: string): { status: number; headers: string; body: unknown } {
  const end = raw.indexOf('\r\n\r\n');
  expect(end).toBeGreaterThan(0);
  const headers = raw.slice(0, end);
  const length = Number(/content-length: (\d+)/i.exec(headers)?.[1]);
  const body = raw.slice(end + 4);
  expect(Buffer.byteLength(body, 'latin1')).toBe(length); // the whole answer, not a cut one
  return { status: Number(raw.slice(9, 12)), headers, body: JSON.parse(body) };
}

const TOO_LARGE = {
  detail: [
    {
      loc: ['body'],
      msg: `Request body is larger than ${LIMIT} bytes, the limit for this endpoint`,
      type: 'body_too_large',
    },
  ],
};

test('a 21 MB upload declared with Content-Length: the client writes it all and reads the whole 422', async () => {
  const target = await front();
  const total = 21 * MiB;
  const outcome = await rawUpload(target, { total, declared: total });
  expect(outcome.error).toBeUndefined();
  expect(outcome.sent).toBe(total);
  const answer = parseAnswer(outcome.received);
  expect(answer.status).toBe(422);
  expect(answer.body).toEqual(TOO_LARGE);
  expect(handlerCalls).toBe(0);
});

test('a chunked upload that crosses the limit while streaming: answered, not reset', async () => {
  const target = await front();
  const total = 21 * MiB;
  const outcome = await rawUpload(target, { total });
  expect(outcome.error).toBeUndefined();
  expect(outcome.sent).toBe(total);
  const answer = parseAnswer(outcome.received);
  expect(answer.status).toBe(422);
  expect(answer.body).toEqual(TOO_LARGE);
  expect(handlerCalls).toBe(0);
});

test('the drain is bounded: a client that never stops sending is cut off after the byte bound', async () => {
  const target = await front({ maxMs: 60_000, maxBytes: 4 * MiB });
  // Without a bound this would send 1 GiB; the front closes the connection after ~LIMIT + 4 MiB read.
  const outcome = await rawUpload(target, { total: 1024 * MiB });
  expect(outcome.sent).toBeLessThan(1024 * MiB);
  expect(outcome.received).toMatch(/^HTTP\/1\.1 422 /);
});

test('the drain is bounded: a client that stalls mid-upload gets the answer, then the front closes', async () => {
  const target = await front({ maxMs: 200, maxBytes: 64 * MiB });
  const outcome = await rawUpload(target, { total: 22 * MiB, declared: 22 * MiB, stallAfter: MiB });
  expect(outcome.error).toBeUndefined();
  const answer = parseAnswer(outcome.received);
  expect(answer.status).toBe(422);
  expect(answer.body).toEqual(TOO_LARGE);
  // The client still holds its side open; the front's time bound ends the connection on its own.
  expect(outcome.socket.destroyed).toBe(false);
  await serverSocketClosed[0];
  outcome.socket.destroy();
});
