// GET /pay/status: the route's spec, next to its handler (pay-status.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { PayStatusResponse } from '../api/schemas';
import { common } from '../api/doc-parts';

export const payStatusRoute = {
  id: 'PayStatus',
  method: 'GET',
  path: '/pay/status',
  handler: 'lambdas/documents/handlers/pay-status.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { accounts: 'r', keys: 'r', quotas: 'r' } },
  docs: {
    summary: 'Plan, status and this month’s usage',
    tags: ['billing'],
    bearer: 'optional',
    description:
      "With a Bearer key: the key's plan, billing status, paid access, account and this month's usage of the " +
      "plan's allowance (a lapsed key is answered too). Without: this IP's free-tier usage. Both list the plans.",
    responses: { 200: { description: 'Status', schema: PayStatusResponse }, 401: common[401] },
  },
} satisfies RouteSpec;
