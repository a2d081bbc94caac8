// Pieces several documents routes' API docs share (the docs themselves live on each route's spec, in
// handlers/*.route.ts `docs`; GET /api builds the OpenAPI document from the manifest: lambdas/shared/http/openapi.ts).
import type { z } from 'zod';
import type { ParamDoc, ResponseDoc } from '../../shared/http/openapi';
import { ErrorDetail, LapsedKey, ValidationError } from './schemas';

export const RATE_HEADERS = {
  'RateLimit-Limit': "Documents allowed this month on the caller's plan",
  'RateLimit-Remaining': 'Documents left this month',
  'RateLimit-Reset': 'Seconds until 00:00 UTC on the 1st of next month',
  'RateLimit-Policy': 'The window, e.g. `50;w=2592000` (w is a nominal month)',
};

export const invalid400: ResponseDoc = {
  description: 'Invalid request: every problem at once, `{"detail": [{loc, msg, type, ctx?}]}`',
  schema: ValidationError,
};

export const common = {
  400: invalid400,
  401: {
    description: 'Malformed, unknown or revoked API key (WWW-Authenticate: Bearer)',
    schema: ErrorDetail,
  },
  402: { description: 'The key’s Pro or Scale subscription lapsed (canceled, unpaid…)', schema: LapsedKey },
  503: { description: 'A backing service is unavailable; retry (Retry-After)', schema: ErrorDetail },
} satisfies Record<number, ResponseDoc>;

export const slug: ParamDoc = {
  name: 'slug',
  in: 'path',
  required: true,
  description: 'Template slug: factura, ventas, balance, certificado, cotizacion or nomina',
};

export const queryParams = (schema: z.ZodObject, notes: Record<string, string>): ParamDoc[] =>
  Object.keys(schema.shape).map((name) => ({
    name,
    in: 'query',
    required: !schema.shape[name]!.safeParse(undefined).success,
    description: notes[name] ?? name,
  }));
