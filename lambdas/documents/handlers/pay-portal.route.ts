// POST /pay/portal: the route's spec, next to its handler (pay-portal.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { PortalResponse } from '../../shared/billing/requests';
import { invalid400, common } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';

export const payPortalRoute = {
  id: 'PayPortal',
  method: 'POST',
  path: '/pay/portal',
  handler: 'lambdas/documents/handlers/pay-portal.ts',
  memoryMb: 256,
  timeoutS: 15,
  maxBodyBytes: 1024,
  access: {
    settings: [
      'STRIPE_SECRET_KEY',
      'DOCS_PUBLIC_BASE_URL',
      'DOCS_BILLING_RETURN_URL',
      'STRIPE_PORTAL_LOGIN_URL',
    ],
    tables: { accounts: 'r', keys: 'r' },
  },
  docs: {
    summary: 'Stripe customer portal',
    tags: ['billing'],
    bearer: 'required',
    description:
      "Cancel, change the card, see invoices. Requires the account's API key and its e-mail; without a key every " +
      'e-mail gets the same 401, so the endpoint never reveals who is a customer.',
    params: [{ name: 'email', in: 'query', required: true, description: "The account's e-mail" }],
    responses: {
      200: { description: 'Portal session URL', schema: PortalResponse },
      400: invalid400,
      401: common[401],
      403: { description: "The e-mail is not the key's account's", schema: ErrorDetail },
      409: {
        description: 'The key has no billing account (issued by an administrator)',
        schema: ErrorDetail,
      },
      503: common[503],
    },
  },
} satisfies RouteSpec;
