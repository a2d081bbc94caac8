// The load generator of bench/load.bench.ts, run in its own process so it does not share an event loop (or a
// core's time slices) with the servers it measures. Reads one JSON job from argv[2], runs autocannon, prints one
// JSON line with what the bench needs. Loopback only: it refuses any target outside 127.0.0.0/8 and ::1, and the
// tripwire makes any other connect fail inside Node before a packet leaves.
import autocannon from 'autocannon';
import { installLoopbackTripwire } from '../test/helpers/loopback-only';

export interface LoadJob {
  url: string;
  method?: 'GET' | 'POST';
  /** Requests each connection cycles through (e.g. one per API key); defaults to one plain request. */
  requests?: { headers?: Record<string, string>; body?: string }[];
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds (ignored when `amount` is set). */
  durationS?: number;
  /** Exactly this many requests, then stop. */
  amount?: number;
  timeoutS?: number;
}

export interface LoadResult {
  /** Completed requests per second over the run. */
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
  durationS: number;
  errors: number;
  timeouts: number;
  /** Responses by status code. */
  status: Record<string, number>;
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '') as LoadJob;
  if (!isLoopbackUrl(job.url)) throw new Error(`load-client: ${job.url} is not a loopback address`);
  const tripwire = installLoopbackTripwire();
  const result = await autocannon({
    url: job.url,
    method: job.method ?? 'GET',
    headers: job.headers,
    body: job.body,
    requests: job.requests?.map((r) => ({ method: job.method ?? 'GET', ...r })),
    connections: job.connections,
    duration: job.durationS ?? 3,
    amount: job.amount,
    timeout: job.timeoutS ?? 30,
  });
  tripwire.uninstall();
  if (tripwire.attempts.length)
    throw new Error(`non-loopback connects refused: ${tripwire.attempts.join(', ')}`);
  const status: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {}))
    status[code] = (s as { count: number }).count;
  const answered = Object.values(status).reduce((a, b) => a + b, 0);
  const out: LoadResult = {
    rps: answered / result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    total: answered,
    durationS: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    status,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
