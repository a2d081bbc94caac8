// GET /voices: the route's spec, next to its handler (voices.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { z as zod } from 'zod';
import { Voice } from '../api/schemas';

export const voicesRoute = {
  id: 'Voices',
  method: 'GET',
  path: '/voices',
  handler: 'lambdas/narration/handlers/voices.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: {},
  docs: {
    summary: 'List voices',
    tags: ['narration'],
    description:
      'Spanish voices for Mexico (es-MX) and Spain (es-ES). Every plan may use every voice. `id` is ASCII (what ' +
      'requests send: `es-MX-Andres`; accents and case are ignored when sent), `name` is the display name spelled ' +
      'as in Spanish: `Andrés (Mexico)`.',
    responses: { 200: { description: 'Voices', schema: zod.array(Voice) } },
  },
} satisfies RouteSpec;
