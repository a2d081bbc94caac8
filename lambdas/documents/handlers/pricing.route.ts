// GET /pricing: the route's spec, next to its handler (pricing.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { PricingResponse } from '../api/schemas';

export const pricingRoute = {
  id: 'Pricing',
  method: 'GET',
  path: '/pricing',
  handler: 'lambdas/documents/handlers/pricing.ts',
  memoryMb: 128,
  timeoutS: 3,
  access: {},
  docs: {
    summary: 'Plans and prices',
    tags: ['billing'],
    description:
      'The four plans with price (USD), monthly allowance, scope (per IP or per account), features and the path ' +
      'that buys each paid plan (`checkout`). Cached 1 h.',
    responses: { 200: { description: 'Plans', schema: PricingResponse } },
  },
} satisfies RouteSpec;
