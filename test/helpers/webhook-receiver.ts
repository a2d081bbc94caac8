// What the webhook e2e tests of both services share (narration-hooks, documents-webhooks): a loopback receiver whose
// answers each test scripts, the runtime settings that let callbacks reach it, and OpenSSL as the independent
// checker of the signatures.
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface WebhookReceiver {
  port: number;
  /** Every callback received, in order. */
  received: Received[];
  /** Status codes to answer per path, in order; the last one repeats. Unscripted paths answer 200. */
  script: Record<string, number[]>;
  /** `http://127.0.0.1:<port><path>` */
  hook(path: string): string;
  /** The callbacks received at `path`. */
  at(path: string): Received[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const script: Record<string, number[]> = {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      const plan = script[path];
      const status = plan?.length ? (plan.length > 1 ? plan.shift()! : plan[0]!) : 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    script,
    hook: (path) => `http://127.0.0.1:${port}${path}`,
    at: (path) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Runtime settings for callbacks to this machine (local tests only, never set in the cloud): the receiver's loopback
 * address allowed, host names resolved only through `dnsStub` (no DNS query leaves the machine), retries after 1 s.
 */
export const webhookTestEnv = (dnsStub: string): Record<string, string> => ({
  WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
  WEBHOOK_DNS_STUB: dnsStub,
  WEBHOOK_RETRY_SCHEDULE_S: '1,1',
  WEBHOOK_TIMEOUT_MS: '3000',
});

/**
 * OpenSSL's HMAC-SHA256 (hex) of the exact bytes `<t>.<body>` keyed with the whole secret string: `openssl dgst
 * -sha256 -hmac <secret>` reading them from stdin. A delivery's `<Service>-Signature` must be `t=<t>,v1=<this>`; the
 * tests compare with it instead of our own verifySignature (lambdas/shared/webhooks/signature.ts).
 */
export function opensslHmac(secret: string, t: number, body: Buffer): string {
  const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret, '-r'], {
    input: Buffer.concat([Buffer.from(`${t}.`, 'utf8'), body]),
    encoding: 'utf8',
  });
  return /^([0-9a-f]{64}) /.exec(out)![1]!;
}

/** A copy of `body` with one bit of its middle byte flipped: what a tampered delivery would carry. */
export function tampered(body: Buffer): Buffer {
  const copy = Buffer.from(body);
  const mid = copy.length >> 1;
  copy.writeUInt8(copy.readUInt8(mid) ^ 0x01, mid);
  return copy;
}
