// POST /ab/event: the route's spec, next to its handler (ab-event.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { experimentField, variantField, visitorField } from '../../shared/growth/http';
import type { RouteSpec } from '../../shared/manifest';
import { ErrorDetail } from '../api/schemas';
import { common } from '../api/doc-parts';
// The request body (validated by the handler; /api documents it).
export const EVENT_TYPES = ['exposure', 'conversion'] as const;

const absentIfEmpty = (v: unknown) => (v === '' || v === null ? undefined : v);

export const AbEventReq = z.object({
  experiment: experimentField,
  visitor: visitorField,
  type: z.enum(EVENT_TYPES),
  variant: z.preprocess(absentIfEmpty, variantField.optional()),
});

export const abEventRoute = {
  id: 'AbEvent',
  method: 'POST',
  path: '/ab/event',
  handler: 'lambdas/narration/handlers/ab-event.ts',
  memoryMb: 256,
  timeoutS: 5,
  maxBodyBytes: 4 * 1024,
  access: { settings: ['AB_EXPERIMENTS'], tables: { growth: 'rw', quotas: 'rw' } },
  docs: {
    summary: 'Record an A/B exposure or conversion',
    tags: ['growth'],
    description:
      'Public and rate-limited per IP (600 per hour, 5,000 per day). One exposure and one conversion per visitor; ' +
      'the variant is computed server-side (a differing claimed variant is a 422).',
    body: {
      schema: AbEventReq,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
      example: { experiment: 'precios', visitor: 'visitante-0001', type: 'exposure' },
    },
    responses: {
      200: { description: '`{status: "recorded"|"duplicate", experiment, variant, type}`' },
      404: { description: 'Unknown experiment', schema: ErrorDetail },
      422: common[422],
      429: common[429],
    },
  },
} satisfies RouteSpec;
