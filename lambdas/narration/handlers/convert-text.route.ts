// POST /convert/text: the route's spec, next to its handler (convert-text.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { chars } from '../../shared/validation';
import { MAX_TEXT_CHARS, fmtField, voiceField } from '../requests';
import type { RouteSpec } from '../../shared/manifest';

const MiB = 1024 * 1024;

export const convertTextRoute = {
  id: 'ConvertText',
  method: 'POST',
  path: '/convert/text',
  handler: 'lambdas/narration/handlers/convert-text.ts',
  // Short texts are synthesized inline: memory buys CPU for the encoder.
  memoryMb: 1024,
  timeoutS: 29,
  // 100,000 characters escaped as JSON \u sequences or %XX form fields stay under 2 MiB.
  maxBodyBytes: 2 * MiB,
  access: {
    tables: { audio: 'rw', quotas: 'rw', keys: 'r', growth: 'rw' }, // growth: public /stats counters
    bucket: 'rw',
    sendTo: ['priority', 'standard'],
    speech: true,
  },
} satisfies RouteSpec;

// The request body (validated by the handler; /api documents it).
export const ConvertTextReq = z.object({
  text: chars(1, MAX_TEXT_CHARS),
  voice: voiceField,
  fmt: fmtField,
});
