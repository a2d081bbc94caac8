// DELETE /v1/webhook: the route's spec, next to its handler (webhook-delete.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { DOCUMENTS_WEBHOOK_DOCS } from '../api/webhooks-doc';
import { WEBHOOK_ITEM_PREFIX } from '../adapters/item-prefixes';

export const webhookDeleteRoute = {
  id: 'WebhookDelete',
  method: 'DELETE',
  path: '/v1/webhook',
  handler: 'lambdas/documents/handlers/webhook-delete.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { keys: 'r', accounts: 'rw' }, itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] } },
  docs: DOCUMENTS_WEBHOOK_DOCS.routes.delete,
} satisfies RouteSpec;
