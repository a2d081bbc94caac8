// GET /pay/checkout/{plan}: the route's spec, next to its handler (pay-checkout.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const payCheckoutRoute = {
  id: 'PayCheckout',
  method: 'GET',
  path: '/pay/checkout/{plan}',
  handler: 'lambdas/narration/handlers/pay-checkout.ts',
  memoryMb: 256,
  timeoutS: 15,
  // accounts 'r': a second subscription for an e-mail that already has one is refused (409, portal).
  access: {
    tables: { accounts: 'r' },
    settings: [
      'STRIPE_SECRET_KEY',
      'STRIPE_PRICE_PRO',
      'STRIPE_PRICE_LIFETIME',
      'PUBLIC_BASE_URL',
      'BILLING_RETURN_URL',
      'AB_EXPERIMENTS',
    ],
  },
} satisfies RouteSpec;
