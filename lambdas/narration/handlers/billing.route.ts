// GET /pay/checkout/{plan}, GET /pay/success, GET /pay/status, POST /pay/portal, POST /pay/webhook and
// POST /pay/keys/rotate: the platform's builder (lambdas/shared/billing/routes.ts) with narration's catalogue
// (../billing.ts), its error answers and its own words; served by one handler (billing.ts); routes.ts lists them.
import { billingRoutes } from '../../shared/billing/routes';
import { common } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';
import { NARRATION_PAY } from '../billing';

export const BILLING_ROUTES = billingRoutes({
  ...NARRATION_PAY,
  handler: 'lambdas/narration/handlers/billing.ts',
  errors: {
    invalid: common[422],
    unauthenticated: common[401],
    unavailable: common[503],
    detail: ErrorDetail,
  },
  // The prices GET /pay/status shows (planCatalogue).
  statusSettings: ['PRICE_PRO_CENTS', 'PRICE_LIFETIME_CENTS', 'PRICE_CURRENCY'],
  docs: {
    PayCheckout: {
      description:
        '`plan` is `pro` ($7/month subscription) or `lifetime` ($49 once); anything else is a 422. Optional `email` ' +
        '(prefilled) and `ref` (attribution, e.g. `ab:<experiment>:<variant>`). Browsers get a 302 to Stripe; clients ' +
        'sending `Accept: application/json` get 200 with the URL. 503 naming the variable when Stripe is not configured.',
      params: [
        { name: 'email', in: 'query', description: 'Prefilled e-mail (≤ 200)' },
        { name: 'ref', in: 'query', description: 'Attribution reference (≤ 120)' },
      ],
    },
    PaySuccess: { responses: { 404: { description: 'Unknown session', schema: ErrorDetail } } },
    PayStatus: {
      description:
        "With a Bearer key: the account's plan, status and paid access. Without: this IP's free-tier usage, limits " +
        'and reset times (docs/billing.md has the bodies).',
    },
    PayPortal: {
      description:
        "Cancel, change the card, see invoices. Requires the account's API key and its e-mail; without a key every " +
        'e-mail gets the same 401, so the endpoint never reveals who is a customer. Lost the key? Use the Stripe ' +
        'portal login link or ask support.',
    },
    PayWebhook: {
      summary: 'Stripe webhook',
      description:
        'Verifies `Stripe-Signature` on the raw body with the signing secret (400 on a bad signature). Handles ' +
        'checkout.session.completed (account + new key), customer.subscription.updated/deleted (deleted revokes paid ' +
        'access: keys then get 402 pointing to the portal). Idempotent per event id; older events never overwrite newer state.',
      responses: { 200: { description: '`{"received": true}` (also for replays and ignored event types)' } },
    },
    PayKeysRotate: {
      description:
        'Issues a new key for the same account and revokes the one sent; the new key is shown once.',
    },
  },
});
