// GET /pay/checkout/{plan}: the route's spec, next to its handler (pay-checkout.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { CheckoutResponse, common } from '../api/doc-parts';

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
  docs: {
    summary: 'Buy a plan (Stripe Checkout)',
    tags: ['billing'],
    description:
      '`plan` is `pro` ($7/month subscription) or `lifetime` ($49 once); anything else is a 422. Optional `email` ' +
      '(prefilled) and `ref` (attribution, e.g. `ab:<experiment>:<variant>`). Browsers get a 302 to Stripe; clients ' +
      'sending `Accept: application/json` get 200 with the URL. 503 naming the variable when Stripe is not configured.',
    params: [
      { name: 'email', in: 'query', description: 'Prefilled e-mail (≤ 200)' },
      { name: 'ref', in: 'query', description: 'Attribution reference (≤ 120)' },
    ],
    responses: {
      200: { description: 'Checkout URL (JSON clients)', schema: CheckoutResponse },
      302: { description: 'Redirect to Stripe Checkout', headers: { Location: 'Checkout page' } },
      422: common[422],
      503: common[503],
    },
  },
} satisfies RouteSpec;
