// GET /ab/assign/{experiment}: the route's spec, next to its handler (ab-assign.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { ErrorDetail } from '../api/schemas';
import { common } from '../api/doc-parts';

export const abAssignRoute = {
  id: 'AbAssign',
  method: 'GET',
  path: '/ab/assign/{experiment}',
  handler: 'lambdas/narration/handlers/ab-assign.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { settings: ['AB_EXPERIMENTS'] },
  docs: {
    summary: 'A/B variant for a visitor',
    tags: ['growth'],
    description:
      'Deterministic: the same experiment and visitor always get the same variant (SHA-256 of both, weights from ' +
      'configuration). Without `visitor` one is generated. `ref` is what to pass to /pay/checkout or as waitlist source.',
    params: [{ name: 'visitor', in: 'query', description: 'Your stable visitor id' }],
    responses: {
      200: { description: '`{experiment, visitor, variant, ref}`' },
      404: { description: 'Unknown experiment', schema: ErrorDetail },
      422: common[422],
    },
  },
} satisfies RouteSpec;
