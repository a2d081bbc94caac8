// POST /pay/webhook: the route's spec, next to its handler (pay-webhook.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

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
} satisfies RouteSpec;
