// POST /pay/keys/rotate: the route's spec, next to its handler (pay-keys-rotate.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { RotateResponse, ErrorDetail } from '../api/schemas';
import { common } from '../api/doc-parts';

export const payKeysRotateRoute = {
  id: 'PayKeysRotate',
  method: 'POST',
  path: '/pay/keys/rotate',
  handler: 'lambdas/documents/handlers/pay-keys-rotate.ts',
  memoryMb: 256,
  timeoutS: 10,
  maxBodyBytes: 1024,
  access: { settings: ['STRIPE_PORTAL_LOGIN_URL'], tables: { accounts: 'rw', keys: 'rw' } },
  docs: {
    summary: 'Replace an API key',
    tags: ['billing'],
    bearer: 'required',
    description:
      'Issues a new key for the same account and plan and revokes the one sent (it gets 401 from then on); the ' +
      'new key is shown once.',
    responses: {
      200: { description: 'The new key', schema: RotateResponse },
      401: common[401],
      409: { description: 'Not a purchased key, or already rotated', schema: ErrorDetail },
    },
  },
} satisfies RouteSpec;
