// GET /v1/webhook: the route's spec, next to its handler (webhook-get.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';
import { NARRATION_WEBHOOK_DOCS } from '../api/webhooks-doc';

export const webhookGetRoute = {
  id: 'WebhookGet',
  method: 'GET',
  path: '/v1/webhook',
  handler: 'lambdas/narration/handlers/webhook-get.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { keys: 'r', accounts: 'r' }, itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] } },
  docs: NARRATION_WEBHOOK_DOCS.routes.get,
} satisfies RouteSpec;
