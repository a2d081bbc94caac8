// POST /pay/portal: the route's spec, next to its handler (pay-portal.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const payPortalRoute = {
  id: 'PayPortal',
  method: 'POST',
  path: '/pay/portal',
  handler: 'lambdas/narration/handlers/pay-portal.ts',
  memoryMb: 256,
  timeoutS: 15,
  maxBodyBytes: 1024,
  access: {
    settings: ['STRIPE_SECRET_KEY', 'PUBLIC_BASE_URL', 'BILLING_RETURN_URL', 'STRIPE_PORTAL_LOGIN_URL'],
    tables: { accounts: 'r', keys: 'r' },
  },
} satisfies RouteSpec;
