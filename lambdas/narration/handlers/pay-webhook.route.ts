// POST /pay/webhook: the route's spec, next to its handler (pay-webhook.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { ErrorDetail } from '../api/schemas';
import { common } from '../api/doc-parts';

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
  docs: {
    summary: 'Stripe webhook',
    tags: ['billing'],
    description:
      'Verifies `Stripe-Signature` on the raw body with the signing secret (400 on a bad signature). Handles ' +
      'checkout.session.completed (account + new key), customer.subscription.updated/deleted (deleted revokes paid ' +
      'access: keys then get 402 pointing to the portal). Idempotent per event id; older events never overwrite newer state.',
    responses: {
      200: { description: '`{"received": true}` (also for replays and ignored event types)' },
      400: { description: 'Missing or bad signature', schema: ErrorDetail },
      503: common[503],
    },
  },
} satisfies RouteSpec;
