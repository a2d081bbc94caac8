// POST /pay/webhook: the route's spec, next to its handler (pay-webhook.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { WebhookAck, ErrorDetail } from '../api/schemas';
import { common } from '../api/doc-parts';

export const payWebhookRoute = {
  id: 'PayWebhook',
  method: 'POST',
  path: '/pay/webhook',
  handler: 'lambdas/documents/handlers/pay-webhook.ts',
  memoryMb: 256,
  timeoutS: 20,
  maxBodyBytes: 256 * 1024,
  access: {
    // The price ids map a portal plan switch (subscription updated) to our plan.
    settings: [
      'DOCS_STRIPE_WEBHOOK_SECRET',
      'KEY_PICKUP_HOURS',
      'DOCS_STRIPE_PRICE_PRO',
      'DOCS_STRIPE_PRICE_SCALE',
    ],
    tables: { accounts: 'rw', keys: 'rw' },
  },
  docs: {
    summary: 'Stripe webhook (for Stripe only)',
    tags: ['billing'],
    description:
      "Verifies `Stripe-Signature` on the raw body with this API's own endpoint secret. A completed checkout " +
      'creates the account and one key; subscription updates are copied onto its keys (deleted → 402). ' +
      'Idempotent per event id; older events never overwrite newer state; events of other products are ignored.',
    responses: {
      200: { description: 'Acknowledged (also replays and ignored events)', schema: WebhookAck },
      400: { description: 'Missing or bad signature', schema: ErrorDetail },
      409: {
        description: 'Another delivery of the event is in progress; Stripe retries',
        schema: ErrorDetail,
      },
      503: common[503],
    },
  },
} satisfies RouteSpec;
