// GET /pay/success: the route's spec, next to its handler (pay-success.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

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
} satisfies RouteSpec;
