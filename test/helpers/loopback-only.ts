// A tripwire for the tests' network rule (loopback only). While installed, every TCP connect this process makes
// to an address outside 127.0.0.0/8 and ::1 fails at once with ECONNREFUSED inside Node's own connect call (no
// packet leaves) and is recorded, so a test can assert that none was even tried. It patches the TCP handle that
// net.Socket uses under http, https and every client library, after DNS/`lookup` has run, so it sees the
// addresses really connected to.
import { isIP } from 'node:net';

interface TcpHandleProto {
  connect(req: unknown, address: string, port: number): number;
  connect6(req: unknown, address: string, port: number): number;
}

const UV_ECONNREFUSED = -111;

function isLoopback(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith('127.');
  const a = address.toLowerCase();
  return a === '::1' || a.startsWith('::ffff:127.');
}

export interface Tripwire {
  /** `address:port` of every refused attempt, in order. */
  readonly attempts: string[];
  uninstall(): void;
}

export function installLoopbackTripwire(): Tripwire {
  // process.binding is deprecated for applications but still the only handle on the TCP wrap from user land.
  const { TCP } = (
    process as unknown as { binding(name: string): { TCP: { prototype: TcpHandleProto } } }
  ).binding('tcp_wrap');
  const proto = TCP.prototype;
  const original = { connect: proto.connect, connect6: proto.connect6 };
  const attempts: string[] = [];
  const guard = (fn: TcpHandleProto['connect']) =>
    function (this: unknown, req: unknown, address: string, port: number): number {
      if (!isLoopback(address)) {
        attempts.push(`${address}:${port}`);
        return UV_ECONNREFUSED;
      }
      return fn.call(this, req, address, port);
    };
  proto.connect = guard(original.connect);
  proto.connect6 = guard(original.connect6);
  return {
    attempts,
    uninstall() {
      proto.connect = original.connect;
      proto.connect6 = original.connect6;
    },
  };
}
