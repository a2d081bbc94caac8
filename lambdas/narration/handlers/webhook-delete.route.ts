// DELETE /v1/webhook: the route's spec, next to its handler (webhook-delete.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';
import { NARRATION_WEBHOOK_DOCS } from '../api/webhooks-doc';

export const webhookDeleteRoute = {
  id: 'WebhookDelete',
  method: 'DELETE',
  path: '/v1/webhook',
  handler: 'lambdas/narration/handlers/webhook-delete.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { keys: 'r', accounts: 'rw' }, itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] } },
  docs: NARRATION_WEBHOOK_DOCS.routes.delete,
} satisfies RouteSpec;
