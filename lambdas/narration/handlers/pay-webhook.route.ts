// POST /pay/webhook: the route's spec, next to its handler (pay-webhook.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const payWebhookRoute = {
  id: 'PayWebhook',
  method: 'POST',
  path: '/pay/webhook',
  handler: 'lambdas/narration/handlers/pay-webhook.ts',
  memoryMb: 256,
  timeoutS: 20,
  maxBodyBytes: 256 * 1024,
  access: {
    // The price ids map a portal plan switch (subscription updated) to our plan.
    settings: ['STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', 'AB_EXPERIMENTS', 'STRIPE_PRICE_PRO'],
    tables: { accounts: 'rw', keys: 'rw', growth: 'rw' },
  },
} satisfies RouteSpec;
