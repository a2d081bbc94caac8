// The growth routes (waitlist, A/B, stats) served next to the narration routes for e2e tests: the local runtime
// (startRuntime) plus a second local front whose manifest is narrationManifest extended with GROWTH_ROUTES —
// the same RouteSpecs proposed for lambdas/narration/routes.ts. Once they are wired there, the second front
// simply serves the same handlers.
import type { Server } from 'node:http';
import { narrationManifest } from '../../lambdas/narration/routes';
import type { RouteSpec, ServiceManifest } from '../../lambdas/shared/manifest';
import { createFront, listen } from '../../lib/local/front';
import { loadHandlers } from '../../lib/local/runtime';
import { startRuntime, type TestRuntime } from './runtime';

export const GROWTH_ROUTES: RouteSpec[] = [
  {
    id: 'Waitlist',
    method: 'POST',
    path: '/waitlist',
    handler: 'lambdas/narration/handlers/waitlist.ts',
    memoryMb: 256,
    timeoutS: 5,
    maxBodyBytes: 8 * 1024,
    access: { tables: { growth: 'rw', quotas: 'rw' } },
  },
  {
    id: 'WaitlistCount',
    method: 'GET',
    path: '/waitlist/count',
    handler: 'lambdas/narration/handlers/waitlist-count.ts',
    memoryMb: 256,
    timeoutS: 5,
    access: { tables: { growth: 'r' } },
  },
  {
    id: 'AbAssign',
    method: 'GET',
    path: '/ab/assign/{experiment}',
    handler: 'lambdas/narration/handlers/ab-assign.ts',
    memoryMb: 256,
    timeoutS: 5,
    access: {},
  },
  {
    id: 'AbEvent',
    method: 'POST',
    path: '/ab/event',
    handler: 'lambdas/narration/handlers/ab-event.ts',
    memoryMb: 256,
    timeoutS: 5,
    maxBodyBytes: 4 * 1024,
    access: { tables: { growth: 'rw', quotas: 'rw' } },
  },
  {
    id: 'AbResults',
    method: 'GET',
    path: '/ab/results/{experiment}',
    handler: 'lambdas/narration/handlers/ab-results.ts',
    memoryMb: 256,
    timeoutS: 10,
    access: { tables: { growth: 'r' } },
  },
  {
    id: 'Stats',
    method: 'GET',
    path: '/stats',
    handler: 'lambdas/narration/handlers/stats.ts',
    memoryMb: 256,
    timeoutS: 5,
    access: { tables: { growth: 'r' } },
  },
];

export function growthManifest(): ServiceManifest {
  const wired = new Set(narrationManifest.routes.map((r) => r.id));
  return {
    ...narrationManifest,
    routes: [...GROWTH_ROUTES.filter((r) => !wired.has(r.id)), ...narrationManifest.routes],
  };
}

export interface GrowthRuntime {
  rt: TestRuntime;
  /** URL on the front that serves the narration and the growth routes. */
  url(path: string): string;
  stop(): Promise<void>;
}

export async function startGrowthRuntime(
  env: Record<string, string> = {},
  opts: { trustProxy?: boolean; startWorker?: boolean } = {},
): Promise<GrowthRuntime> {
  const rt = await startRuntime(env, opts);
  const manifest = growthManifest();
  let front: Server | undefined;
  try {
    front = createFront({
      manifest,
      handlers: await loadHandlers(manifest),
      host: '127.0.0.1',
      port: 0,
      trustProxy: opts.trustProxy ?? false,
    });
    const base = await listen(front, '127.0.0.1', 0);
    const server = front;
    return {
      rt,
      url: (path) => base + path,
      async stop() {
        await new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        });
        await rt.stop();
      },
    };
  } catch (err) {
    front?.close();
    await rt.stop();
    throw err;
  }
}
