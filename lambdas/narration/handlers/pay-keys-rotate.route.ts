// POST /pay/keys/rotate: the route's spec, next to its handler (pay-keys-rotate.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const payKeysRotateRoute = {
  id: 'PayKeysRotate',
  method: 'POST',
  path: '/pay/keys/rotate',
  handler: 'lambdas/narration/handlers/pay-keys-rotate.ts',
  memoryMb: 256,
  timeoutS: 10,
  maxBodyBytes: 1024,
  access: { settings: ['STRIPE_PORTAL_LOGIN_URL'], tables: { accounts: 'rw', keys: 'rw' } },
} satisfies RouteSpec;
