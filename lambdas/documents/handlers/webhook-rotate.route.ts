// POST /v1/webhook/rotate-secret: the route's spec, next to its handler (webhook-rotate.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { DOCUMENTS_WEBHOOK_DOCS } from '../api/webhooks-doc';
import { WEBHOOK_ITEM_PREFIX } from '../adapters/item-prefixes';

export const webhookRotateSecretRoute = {
  id: 'WebhookRotateSecret',
  method: 'POST',
  path: '/v1/webhook/rotate-secret',
  handler: 'lambdas/documents/handlers/webhook-rotate.ts',
  memoryMb: 256,
  timeoutS: 5,
  maxBodyBytes: 1024,
  access: {
    tables: { keys: 'r', accounts: 'rw' },
    itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] },
    settings: ['WEBHOOK_SECRET_OVERLAP_S'],
  },
  docs: DOCUMENTS_WEBHOOK_DOCS.routes.rotate,
} satisfies RouteSpec;
