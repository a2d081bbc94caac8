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

/** The id of a job or a batch (both `job_…`), the path parameter of its GET. */
export const jobIdParam = (what: 'job' | 'batch'): ParamDoc => ({
  name: 'id',
  in: 'path',
  required: true,
  description: `The ${what} id (\`job_…\`) from the 202`,
});

/** The 200 of a job's or a batch's GET, polled while it is pending. */
export const pollingOk = (what: string, schema: z.ZodType): ResponseDoc => ({
  description: `${what} (Retry-After while queued or rendering)`,
  schema,
  headers: { 'Retry-After': 'While pending: suggested polling interval (s)' },
});
