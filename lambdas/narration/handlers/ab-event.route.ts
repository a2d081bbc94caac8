// POST /ab/event: the route's spec, next to its handler (ab-event.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { experimentField, variantField, visitorField } from '../../shared/growth/http';
import type { RouteSpec } from '../../shared/manifest';

export const abEventRoute = {
  id: 'AbEvent',
  method: 'POST',
  path: '/ab/event',
  handler: 'lambdas/narration/handlers/ab-event.ts',
  memoryMb: 256,
  timeoutS: 5,
  maxBodyBytes: 4 * 1024,
  access: { settings: ['AB_EXPERIMENTS'], tables: { growth: 'rw', quotas: 'rw' } },
} satisfies RouteSpec;

// The request body (validated by the handler; /api documents it).
export const EVENT_TYPES = ['exposure', 'conversion'] as const;

const absentIfEmpty = (v: unknown) => (v === '' || v === null ? undefined : v);

export const AbEventReq = z.object({
  experiment: experimentField,
  visitor: visitorField,
  type: z.enum(EVENT_TYPES),
  variant: z.preprocess(absentIfEmpty, variantField.optional()),
});
