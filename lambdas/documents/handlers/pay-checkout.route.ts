// GET /pay/checkout/{plan}: the route's spec, next to its handler (pay-checkout.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { queryParams, invalid400, common } from '../api/doc-parts';
import { CheckoutQuery } from '../../shared/billing/requests';
import { CheckoutResponse } from '../api/schemas';

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
  docs: {
    summary: 'Buy a plan (Stripe Checkout)',
    tags: ['billing'],
    description:
      '`plan` is `pro` ($9/month) or `scale` ($29/month), both subscriptions, or `lifetime` ($49 once); anything ' +
      'else is a 400. Browsers get a 302 to Stripe; clients sending `Accept: application/json` get 200 with the ' +
      'URL. After paying, Stripe sends the buyer to GET /pay/success, which shows the API key once.',
    params: [
      { name: 'plan', in: 'path', required: true, description: 'pro, scale or lifetime' },
      ...queryParams(CheckoutQuery, {
        email: 'Prefilled e-mail on the Stripe page (≤ 200)',
        ref: 'Attribution reference kept on the purchase (≤ 120)',
      }),
    ],
    responses: {
      200: { description: 'Checkout URL (JSON clients)', schema: CheckoutResponse },
      302: { description: 'Redirect to Stripe Checkout', headers: { Location: 'Checkout page' } },
      400: invalid400,
      503: common[503],
    },
  },
} satisfies RouteSpec;
