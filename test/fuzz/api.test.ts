// Property: whatever arrives — hostile bodies, headers, query strings, methods, content types, sizes — every route of
// both APIs answers 2xx/3xx/4xx in the contract's shape (never a 5xx), within the route's time limit, without
// polluting Object.prototype, without a connection leaving loopback or reaching the sentinel from caller HTML, and
// the service still answers its health probe afterwards. Routes come from the manifests, so a new route is fuzzed
// the day it is added. FUZZ_RUNS requests in all (default 4,000), seeded: the seed is printed and every failure
// names it with the request, so `FUZZ_SEED=<seed> npx jest test/fuzz/api.test.ts` replays it.
import fc from 'fast-check';
import { logger } from '../../lambdas/shared/logger';
import type { RouteSpec } from '../../lambdas/shared/manifest';
import { MANIFESTS, type ServiceName } from '../helpers/front-runtime';
import { requestArb, type GenRequest } from './arbitraries';
import { checkAnswer, preview, prototypeProblems } from './contract';
import { RequestTimeoutError, destroyAgent, send, type RawRequest } from './http';
import { FUZZ_RUNS, FUZZ_SEED, replayHint } from './settings';
import { startFuzzWorld, unconfiguredSettings, type FuzzWorld } from './world';

const SERVICES: ServiceName[] = ['narration', 'documents'];
const ROUTES: [ServiceName, RouteSpec][] = SERVICES.flatMap((s) =>
  MANIFESTS[s].routes.map((r) => [s, r] as [ServiceName, RouteSpec]),
);

/** Routes with a body or the catch-all get twice the share: that is where parsing happens. */
const weight = (r: RouteSpec) => (r.method === 'GET' ? 1 : 2);
const totalWeight = ROUTES.reduce((n, [, r]) => n + weight(r), 0);
const runsFor = (r: RouteSpec) => Math.max(20, Math.round((FUZZ_RUNS * weight(r)) / totalWeight));

const HEALTH: Record<ServiceName, string> = { narration: '/voices', documents: '/pricing' };

// Budget: the default 4,000 runs take about 20 s alone here (19 s, 22 CPU-s on 2026-11-29); the per-test limit
// scales with FUZZ_RUNS.
jest.setTimeout(120_000 + FUZZ_RUNS * 60);

let world: FuzzWorld;
const tally: Record<string, Record<number, number>> = {};

beforeAll(async () => {
  console.log(`API fuzz: ${replayHint()} across ${ROUTES.length} routes`);
  const missing = unconfiguredSettings(SERVICES.map((s) => MANIFESTS[s]));
  if (missing.length)
    console.warn(
      `Settings without a fuzz value (their routes may answer 503): ${missing.join(', ')} — add them to settings() in test/fuzz/world.ts`,
    );
  world = await startFuzzWorld();
  // Expected refusals log warnings by the thousand here; errors (a 500's cause) still print.
  logger.setLogLevel('ERROR');
}, 120_000);

afterAll(async () => {
  destroyAgent();
  const lines = Object.entries(tally).map(
    ([route, byStatus]) =>
      `${route.padEnd(40)} ${Object.entries(byStatus)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
  );
  console.log(`API fuzz statuses (${replayHint()}):\n${lines.join('\n')}`);
  if (!world) return;
  await world.stop();
  // Names resolved through the system resolver were answered ENOTFOUND by the guard (no query was sent).
  if (world.dns.attempts.length)
    console.log(
      `DNS guard refused ${world.dns.attempts.length} lookups, e.g. ${world.dns.attempts.slice(0, 5).join(', ')}`,
    );
  // The network rule held: nothing left loopback, and no caller HTML reached even the loopback sentinel.
  expect(world.tripwire.attempts).toEqual([]);
  expect(world.sentinelHits()).toBe(0);
});

function toRaw(g: GenRequest): RawRequest {
  return {
    method: g.method,
    target: g.path + (g.query ? `?${g.query}` : ''),
    headers: g.headers,
    body: g.body,
    chunked: g.chunked,
  };
}

function describeRequest(g: GenRequest): string {
  const headers = Object.entries(g.headers)
    .map(([k, v]) => `  ${k}: ${preview(Array.isArray(v) ? v.join(', ') : v, 120)}`)
    .join('\n');
  const body = g.body
    ? `${g.body.length} bytes (${g.kind}): ${preview(g.body.toString('utf8'), 300)}\n  base64 head: ${g.body
        .subarray(0, 120)
        .toString('base64')}`
    : '(none)';
  return (
    `${g.method} ${preview(g.path + (g.query ? `?${g.query}` : ''), 300)} (path ${g.path.length}, query ` +
    `${g.query.length} characters${g.chunked ? ', body chunked' : ''})\n${headers}\nbody: ${body}`
  );
}

describe.each(SERVICES)('%s API under hostile input', (service) => {
  const routes = ROUTES.filter(([s]) => s === service).map(([, r]) => r);

  test.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: every answer is 2xx/3xx/4xx in the contract shape, in time',
    async (_name, route) => {
      const url = world.urls[service];
      const shape = world.shapes[service][route.id] ?? {};
      const allPaths = MANIFESTS[service].routes.map((r) => r.path);
      const arb = requestArb(route, shape, world.gen, allPaths);
      const timeoutMs = route.timeoutS * 1000 + 5_000;
      const counts = (tally[`${service} ${route.id}`] ??= {});

      const property = fc.asyncProperty(arb, async (g) => {
        let res;
        try {
          res = await send(url, toRaw(g), timeoutMs);
        } catch (err) {
          if (err instanceof RequestTimeoutError) throw new Error(`hang: ${err.message}`);
          // The front answered an oversize body and closed while we were still sending: fine if it answered.
          throw new Error(`transport error: ${(err as Error).message}`);
        }
        counts[res.status] = (counts[res.status] ?? 0) + 1;
        const problems = [...checkAnswer(service, toRaw(g), res), ...prototypeProblems()];
        if (problems.length) throw new Error(problems.join('\n'));
      });
      // Shrinking finds the smallest failing request but may take minutes: FUZZ_SHRINK=1 turns it on.
      const out = await fc.check(property, {
        seed: FUZZ_SEED,
        numRuns: runsFor(route),
        endOnFailure: process.env.FUZZ_SHRINK !== '1',
      });
      if (out.failed) {
        const g = out.counterexample?.[0];
        throw new Error(
          `${service} ${route.id} failed after ${out.numRuns} requests (${replayHint()}, fast-check path ` +
            `${out.counterexamplePath}):\n${(out.errorInstance as Error | undefined)?.message ?? String(out.errorInstance)}\n` +
            `request:\n${g ? describeRequest(g) : '?'}`,
        );
      }
      // Still alive.
      const probe = await send(url, { method: 'GET', target: HEALTH[service], headers: {} }, 10_000);
      expect(probe.status).toBe(200);
    },
  );
});
