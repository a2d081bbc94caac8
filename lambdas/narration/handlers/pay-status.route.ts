// GET /pay/status: the route's spec, next to its handler (pay-status.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { common } from '../api/doc-parts';

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
  docs: {
    summary: 'Plan, status and usage',
    tags: ['billing'],
    bearer: 'optional',
    description:
      "With a Bearer key: the account's plan, status and paid access. Without: this IP's free-tier usage, limits " +
      'and reset times (docs/billing.md has the bodies).',
    responses: { 200: { description: 'Status' }, 401: common[401] },
  },
} satisfies RouteSpec;
