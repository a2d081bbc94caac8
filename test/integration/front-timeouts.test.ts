// The local front's timeouts, as API Gateway's: a body that does not arrive in time (here a client that declares
// 200,000 bytes and sends 1,000) is answered 408 after the body timeout instead of being held for Node's 300 s, and
// a client that gives up mid-body is logged as 408, not as a 500 of ours. The handler runs in neither case. Raw
// sockets on loopback; the test waits on the answer and on the log line, never on a fixed sleep.
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { createFront, listen, type FrontManifest } from '../../lib/local/front';

jest.setTimeout(30_000);

const manifest: FrontManifest = {
  service: 'timeouts',
  routes: [
    {
      id: 'Upload',
      method: 'POST',
      path: '/upload',
      handler: 'none',
      memoryMb: 128,
      timeoutS: 5,
      maxBodyBytes: 1024 * 1024,
      access: {},
    },
  ],
};

let calls = 0;
let server: Server;
let port: number;
const lines: string[] = [];
const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
const logged = (re: RegExp) =>
  new Promise<string>((resolve) => {
    const seen = lines.find((l) => re.test(l));
    if (seen) resolve(seen);
    else waiters.push({ re, resolve });
  });

beforeAll(async () => {
  server = createFront({
    manifest,
    handlers: {
      Upload: async () => {
        calls += 1;
        return { statusCode: 200, body: 'stored' };
      },
    },
    host: '127.0.0.1',
    port: 0,
    trustProxy: false,
    bodyTimeoutMs: 500,
    log: (l) => {
      lines.push(l);
      for (const w of waiters.filter((x) => x.re.test(l))) w.resolve(l);
    },
  });
  port = Number(new URL(await listen(server, '127.0.0.1', 0)).port);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const HEAD = (length: number) =>
  `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`;

test('a body that stops arriving is answered 408 after the body timeout, not held; the handler never runs', async () => {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.on('error', () => undefined);
  socket.write(HEAD(200_000) + 'x'.repeat(1000));
  await closed;
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(answer).toMatch(/connection: close/i);
  expect(answer).toMatch(/did not arrive in time/);
  expect(await logged(/POST \/upload → 408 \(body not received within 500 ms\)/)).toBeTruthy();
  expect(calls).toBe(0);
});

test('a client that gives up mid-body is logged as 408 (it went away), never as a 500', async () => {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.write(HEAD(200_000) + 'x'.repeat(1000), () => socket.destroy());
  expect(await logged(/POST \/upload → 408 \(the client closed the connection/)).toBeTruthy();
  expect(lines.filter((l) => /→ 500/.test(l))).toEqual([]);
  expect(calls).toBe(0);
});
