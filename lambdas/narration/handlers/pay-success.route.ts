// GET /pay/success: the route's spec, next to its handler (pay-success.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { SuccessResponse, common } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';

export const paySuccessRoute = {
  id: 'PaySuccess',
  method: 'GET',
  path: '/pay/success',
  handler: 'lambdas/narration/handlers/pay-success.ts',
  memoryMb: 256,
  timeoutS: 15,
  access: {
    settings: ['STRIPE_SECRET_KEY', 'STRIPE_PORTAL_LOGIN_URL', 'AB_EXPERIMENTS'],
    tables: { accounts: 'rw', keys: 'rw', growth: 'rw' },
  },
  docs: {
    summary: 'Pick up the API key after paying',
    tags: ['billing'],
    description:
      'The first call (within 24 h) returns the plaintext `api_key` once; later calls return the plan with ' +
      '`api_key: null` and how to get a new key (POST /pay/keys/rotate with the key, or support).',
    params: [
      { name: 'session_id', in: 'query', required: true, description: 'cs_… from the Checkout redirect' },
    ],
    responses: {
      200: { description: 'Plan, status and (once) the key', schema: SuccessResponse },
      404: { description: 'Unknown session', schema: ErrorDetail },
      422: common[422],
      503: common[503],
    },
  },
} satisfies RouteSpec;
