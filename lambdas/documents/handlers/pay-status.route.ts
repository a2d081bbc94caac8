// GET /pay/status: the route's spec, next to its handler (pay-status.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const payStatusRoute = {
  id: 'PayStatus',
  method: 'GET',
  path: '/pay/status',
  handler: 'lambdas/documents/handlers/pay-status.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { accounts: 'r', keys: 'r', quotas: 'r' } },
} satisfies RouteSpec;
