// GET /pay/success: the route's spec, next to its handler (pay-success.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { queryParams, invalid400, common } from '../api/doc-parts';
import { SuccessQuery } from '../../shared/billing/requests';
import { SuccessResponse, ErrorDetail } from '../api/schemas';

export const paySuccessRoute = {
  id: 'PaySuccess',
  method: 'GET',
  path: '/pay/success',
  handler: 'lambdas/documents/handlers/pay-success.ts',
  memoryMb: 256,
  timeoutS: 15,
  access: {
    settings: ['STRIPE_SECRET_KEY', 'STRIPE_PORTAL_LOGIN_URL', 'KEY_PICKUP_HOURS'],
    tables: { accounts: 'rw', keys: 'rw' },
  },
  docs: {
    summary: 'Pick up the API key after paying',
    tags: ['billing'],
    description:
      'The first call (within 24 h) returns the plaintext `api_key` once; later calls return the plan with ' +
      '`api_key: null` and how to get a new key (POST /pay/keys/rotate with the key, or support).',
    params: queryParams(SuccessQuery, { session_id: 'cs_… from the Checkout redirect' }),
    responses: {
      200: { description: 'Plan, status and (once) the key', schema: SuccessResponse },
      400: invalid400,
      404: { description: 'Unknown session, or not a purchase of this API', schema: ErrorDetail },
      409: { description: 'Checkout not completed, or payment still pending', schema: ErrorDetail },
      503: common[503],
    },
  },
} satisfies RouteSpec;
