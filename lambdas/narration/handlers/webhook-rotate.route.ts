// POST /v1/webhook/rotate-secret: the route's spec, next to its handler (webhook-rotate.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';
import { NARRATION_WEBHOOK_DOCS } from '../api/webhooks-doc';

export const webhookRotateSecretRoute = {
  id: 'WebhookRotateSecret',
  method: 'POST',
  path: '/v1/webhook/rotate-secret',
  handler: 'lambdas/narration/handlers/webhook-rotate.ts',
  memoryMb: 256,
  timeoutS: 5,
  maxBodyBytes: 1024,
  access: {
    tables: { keys: 'r', accounts: 'rw' },
    itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] },
    settings: ['WEBHOOK_SECRET_OVERLAP_S'],
  },
  docs: NARRATION_WEBHOOK_DOCS.routes.rotate,
} satisfies RouteSpec;
