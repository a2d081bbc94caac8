// The /pay routes served next to the narration routes for e2e tests: the local runtime (startRuntime) plus a
// second local front whose manifest is narrationManifest extended with PAY_ROUTES — the RouteSpecs proposed for
// lambdas/narration/routes.ts. Once they are wired there, the second front serves the same handlers.
import type { Server } from 'node:http';
import { narrationManifest } from '../../lambdas/narration/routes';
import type { RouteSpec, ServiceManifest } from '../../lambdas/shared/manifest';
import { createFront, listen } from '../../lib/local/front';
import { loadHandlers } from '../../lib/local/runtime';
import { startRuntime, type TestRuntime } from './runtime';

export const PAY_ROUTES: RouteSpec[] = [
  {
    id: 'PayCheckout',
    method: 'GET',
    path: '/pay/checkout/{plan}',
    handler: 'lambdas/narration/handlers/pay-checkout.ts',
    memoryMb: 256,
    timeoutS: 15,
    access: {},
  },
  {
    id: 'PaySuccess',
    method: 'GET',
    path: '/pay/success',
    handler: 'lambdas/narration/handlers/pay-success.ts',
    memoryMb: 256,
    timeoutS: 15,
    access: { tables: { accounts: 'rw', keys: 'rw', growth: 'rw' } },
  },
  {
    id: 'PayStatus',
    method: 'GET',
    path: '/pay/status',
    handler: 'lambdas/narration/handlers/pay-status.ts',
    memoryMb: 256,
    timeoutS: 5,
    access: { tables: { accounts: 'r', keys: 'r', quotas: 'r' } },
  },
  {
    id: 'PayPortal',
    method: 'POST',
    path: '/pay/portal',
    handler: 'lambdas/narration/handlers/pay-portal.ts',
    memoryMb: 256,
    timeoutS: 15,
    maxBodyBytes: 1024,
    access: { tables: { accounts: 'r', keys: 'r' } },
  },
  {
    id: 'PayWebhook',
    method: 'POST',
    path: '/pay/webhook',
    handler: 'lambdas/narration/handlers/pay-webhook.ts',
    memoryMb: 256,
    timeoutS: 20,
    maxBodyBytes: 256 * 1024,
    access: { tables: { accounts: 'rw', keys: 'rw', growth: 'rw' } },
  },
  {
    id: 'PayKeysRotate',
    method: 'POST',
    path: '/pay/keys/rotate',
    handler: 'lambdas/narration/handlers/pay-keys-rotate.ts',
    memoryMb: 256,
    timeoutS: 10,
    maxBodyBytes: 1024,
    access: { tables: { accounts: 'rw', keys: 'rw' } },
  },
];

export function billingManifest(): ServiceManifest {
  const wired = new Set(narrationManifest.routes.map((r) => r.id));
  return {
    ...narrationManifest,
    routes: [...PAY_ROUTES.filter((r) => !wired.has(r.id)), ...narrationManifest.routes],
  };
}

export interface BillingRuntime {
  rt: TestRuntime;
  url(path: string): string;
  stop(): Promise<void>;
}

export async function startBillingRuntime(env: Record<string, string>): Promise<BillingRuntime> {
  const rt = await startRuntime(env, { startWorker: false });
  const manifest = billingManifest();
  const front: Server = createFront({
    manifest,
    handlers: await loadHandlers(manifest),
    host: '127.0.0.1',
    port: 0,
    trustProxy: false,
  });
  const base = await listen(front, '127.0.0.1', 0);
  return {
    rt,
    url: (path) => base + path,
    async stop() {
      await new Promise<void>((r) => {
        front.close(() => r());
        front.closeAllConnections();
      });
      await rt.stop();
    },
  };
}
