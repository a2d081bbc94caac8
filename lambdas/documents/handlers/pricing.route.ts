// GET /pricing: the route's spec, next to its handler (pricing.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';

export const pricingRoute = {
  id: 'Pricing',
  method: 'GET',
  path: '/pricing',
  handler: 'lambdas/documents/handlers/pricing.ts',
  memoryMb: 128,
  timeoutS: 3,
  access: {},
} satisfies RouteSpec;
