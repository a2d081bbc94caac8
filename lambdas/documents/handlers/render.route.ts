// POST /v1/render: the route's spec, next to its handler (render.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { JOB_ITEM_PREFIX } from '../adapters/item-prefixes';

const MiB = 1024 * 1024;

export const renderRoute = {
  id: 'Render',
  method: 'POST',
  path: '/v1/render',
  handler: 'lambdas/documents/handlers/render.ts',
  // Chromium: container image with the browser and fonts; memory buys CPU for layout.
  packaging: 'image',
  memoryMb: 2048,
  timeoutS: 29,
  maxBodyBytes: 2 * MiB,
  // accounts: only job items (options.async creates one); render: queues async jobs.
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: {
    tables: { quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'rw' },
    itemPrefixes: { accounts: [JOB_ITEM_PREFIX] },
    bucket: 'rw',
    sendTo: ['render'],
  },
} satisfies RouteSpec;
