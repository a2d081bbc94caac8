// GET /pay/status: the route's spec, next to its handler (pay-status.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const payStatusRoute = {
  id: 'PayStatus',
  method: 'GET',
  path: '/pay/status',
  handler: 'lambdas/narration/handlers/pay-status.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: {
    settings: ['STRIPE_PORTAL_LOGIN_URL', 'PRICE_PRO_CENTS', 'PRICE_LIFETIME_CENTS', 'PRICE_CURRENCY'],
    tables: { accounts: 'r', keys: 'r', quotas: 'r' },
  },
} satisfies RouteSpec;
