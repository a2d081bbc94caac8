// GET /pay/checkout/{plan}: the route's spec, next to its handler (pay-checkout.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const payCheckoutRoute = {
  id: 'PayCheckout',
  method: 'GET',
  path: '/pay/checkout/{plan}',
  handler: 'lambdas/documents/handlers/pay-checkout.ts',
  memoryMb: 256,
  timeoutS: 15,
  // accounts 'r': a second subscription for an e-mail that already has one is refused (409, portal).
  access: {
    tables: { accounts: 'r' },
    settings: [
      'STRIPE_SECRET_KEY',
      'DOCS_STRIPE_PRICE_PRO',
      'DOCS_STRIPE_PRICE_SCALE',
      'DOCS_STRIPE_PRICE_LIFETIME',
      'DOCS_PUBLIC_BASE_URL',
      'DOCS_BILLING_RETURN_URL',
    ],
  },
} satisfies RouteSpec;
