// PUT /v1/webhook: the route's spec, next to its handler (webhook-put.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { DOCUMENTS_WEBHOOK_DOCS } from '../api/webhooks-doc';
import { WEBHOOK_ITEM_PREFIX } from '../adapters/item-prefixes';

export const webhookPutRoute = {
  id: 'WebhookPut',
  method: 'PUT',
  path: '/v1/webhook',
  handler: 'lambdas/documents/handlers/webhook-put.ts',
  memoryMb: 256,
  // DNS resolution of the callback host at registration.
  timeoutS: 10,
  maxBodyBytes: 8 * 1024,
  access: { tables: { keys: 'r', accounts: 'rw' }, itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] } },
  docs: DOCUMENTS_WEBHOOK_DOCS.routes.put,
} satisfies RouteSpec;
