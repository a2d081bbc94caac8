// GET /pay/checkout/{plan}, GET /pay/success, GET /pay/status, POST /pay/portal, POST /pay/webhook and
// POST /pay/keys/rotate: the platform's builder (lambdas/shared/billing/routes.ts) with the documents catalogue
// (../billing.ts), its 400 answers and its own words; served by one handler (billing.ts); routes.ts lists them.
import { billingRoutes } from '../../shared/billing/routes';
import { common, invalid400 } from '../api/doc-parts';
import { ErrorDetail, PayStatusResponse, WebhookAck } from '../api/schemas';
import { DOCUMENTS_PAY } from '../billing';

export const BILLING_ROUTES = billingRoutes({
  ...DOCUMENTS_PAY,
  handler: 'lambdas/documents/handlers/billing.ts',
  errors: {
    invalid: invalid400,
    unauthenticated: common[401],
    unavailable: common[503],
    detail: ErrorDetail,
  },
  docs: {
    PayCheckout: {
      description:
        '`plan` is `pro` ($9/month) or `scale` ($29/month), both subscriptions, or `lifetime` ($49 once); anything ' +
        'else is a 400. Browsers get a 302 to Stripe; clients sending `Accept: application/json` get 200 with the ' +
        'URL. After paying, Stripe sends the buyer to GET /pay/success, which shows the API key once.',
    },
    PaySuccess: {
      responses: {
        404: { description: 'Unknown session, or not a purchase of this API', schema: ErrorDetail },
        409: { description: 'Checkout not completed, or payment still pending', schema: ErrorDetail },
      },
    },
    PayStatus: {
      summary: 'Plan, status and this month’s usage',
      description:
        "With a Bearer key: the key's plan, billing status, paid access, account and this month's usage of the " +
        "plan's allowance (a lapsed key is answered too). Without: this IP's free-tier usage. Both list the plans.",
      responses: { 200: { description: 'Status', schema: PayStatusResponse } },
    },
    PayPortal: {
      responses: {
        403: { description: "The e-mail is not the key's account's", schema: ErrorDetail },
        409: {
          description: 'The key has no billing account (issued by an administrator)',
          schema: ErrorDetail,
        },
      },
    },
    PayWebhook: {
      responses: {
        200: { description: 'Acknowledged (also replays and ignored events)', schema: WebhookAck },
        409: {
          description: 'Another delivery of the event is in progress; Stripe retries',
          schema: ErrorDetail,
        },
      },
    },
    PayKeysRotate: {
      responses: { 409: { description: 'Not a purchased key, or already rotated', schema: ErrorDetail } },
    },
  },
});
