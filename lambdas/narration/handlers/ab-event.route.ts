// POST /ab/event: the route's spec, next to its handler (ab-event.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { experimentField, variantField, visitorField } from '../../shared/growth/http';
import { GROWTH_FORM_ACCESS, notFound, publicPost } from '../api/doc-parts';
// The request body (validated by the handler; /api documents it).
export const EVENT_TYPES = ['exposure', 'conversion'] as const;

const absentIfEmpty = (v: unknown) => (v === '' || v === null ? undefined : v);

export const AbEventReq = z.object({
  experiment: experimentField,
  visitor: visitorField,
  type: z.enum(EVENT_TYPES),
  variant: z.preprocess(absentIfEmpty, variantField.optional()),
});

export const abEventRoute = publicPost({
  id: 'AbEvent',
  path: '/ab/event',
  handler: 'lambdas/narration/handlers/ab-event.ts',
  maxBodyBytes: 4 * 1024,
  access: GROWTH_FORM_ACCESS,
  docs: {
    summary: 'Record an A/B exposure or conversion',
    tags: ['growth'],
    description:
      'Public and rate-limited per IP (600 per hour, 5,000 per day). One exposure and one conversion per visitor; ' +
      'the variant is computed server-side (a differing claimed variant is a 422).',
    body: {
      schema: AbEventReq,
      example: { experiment: 'precios', visitor: 'visitante-0001', type: 'exposure' },
    },
    responses: {
      200: { description: '`{status: "recorded"|"duplicate", experiment, variant, type}`' },
      404: notFound('Unknown experiment'),
    },
  },
});
