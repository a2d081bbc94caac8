// Pieces several narration routes' API docs share (the docs themselves live on each route's spec, in
// handlers/*.route.ts `docs`; GET /api builds the OpenAPI document from the manifest: lambdas/shared/http/openapi.ts).
import { z as zod } from 'zod';
import type { ParamDoc, ResponseDoc } from '../../shared/http/openapi';
import type { RouteDoc } from '../../shared/http/route-doc';
import type { Access, RouteSpec } from '../../shared/manifest';
import { ConversionResult, ErrorDetail, Preview, QueuedConversion, ValidationError } from './schemas';

export const RATE_HEADERS = {
  'RateLimit-Limit': 'Requests allowed in the binding window',
  'RateLimit-Remaining': 'Requests left in it',
  'RateLimit-Reset': 'Seconds until it resets',
  'RateLimit-Policy': 'Every window, e.g. `5;w=3600, 20;w=86400`',
};

export const common = {
  422: {
    description: 'Validation failed (also malformed JSON and oversize bodies)',
    schema: ValidationError,
  },
  401: { description: 'Unknown, revoked or malformed API key', schema: ErrorDetail },
  415: { description: 'Unsupported Content-Type: send JSON or form fields', schema: ErrorDetail },
  429: {
    description: 'Free-tier limit reached (fixed UTC windows)',
    schema: ErrorDetail,
    headers: { 'Retry-After': 'Seconds until the window resets', ...RATE_HEADERS },
  },
  503: {
    description: 'A backing service is unavailable; retry (not counted against limits)',
    schema: ErrorDetail,
  },
} satisfies Record<number, ResponseDoc>;

export const dryRun: ParamDoc = {
  name: 'dry_run',
  in: 'query',
  description:
    'true: preview without synthesizing or charging — the text that would be read, chapters, estimated duration.',
  schema: { type: 'boolean' },
};

export const lexiconName: ParamDoc = {
  name: 'name',
  in: 'path',
  description: 'Lexicon name: 1-64 letters, digits, "-" or "_"',
  schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$' },
};

export const convertResponses = (extra: string): Record<number, ResponseDoc> => ({
  200: {
    description:
      'Audio ready, with its exact duration_s (and `chapters` with their real start times when the text has ' +
      'headings). Texts up to 3,000 characters are narrated in the request; longer ones go to the queue and the ' +
      'request waits for them up to 25 s (split across parallel synthesis, most texts are ready in time).' +
      ` With ?dry_run=true: the preview.${extra}`,
    schema: zod.union([ConversionResult, Preview]),
    headers: RATE_HEADERS,
  },
  202: {
    description:
      'Not ready within the 25 s wait window: queued or processing. Fetch the audio_url (Location header): ' +
      'an audio request is held until the audio exists; JSON clients poll GET /audio/{audio_id}.',
    schema: QueuedConversion,
    headers: { Location: 'The audio_url', 'Retry-After': 'Suggested polling interval', ...RATE_HEADERS },
  },
  ...common,
});

/** What the dashboard token answers (handlers/dashboard-auth.ts): GET /ab/results/{experiment}, /dashboard/summary. */
export const dashboardTokenResponses = {
  401: { description: 'Missing or wrong dashboard token', schema: ErrorDetail },
  429: {
    description: 'Too many wrong dashboard tokens from this address (Retry-After)',
    schema: ErrorDetail,
  },
  503: { description: 'No dashboard token is configured', schema: ErrorDetail },
} satisfies Record<number, ResponseDoc>;

/** A 404 in the error shape. */
export const notFound = (description: string): ResponseDoc => ({ description, schema: ErrorDetail });

const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded'];

/**
 * A public POST a page sends without a key (an A/B event, a waitlist sign-up, a listen beacon): JSON or form fields
 * (`formFirst`: form listed first, what a beacon sends), served in 256 MB and 5 s, limited per IP address — so
 * besides its own answers it documents 422 and 429. Each route passes what differs.
 */
export function publicPost<const Id extends string>(spec: {
  id: Id;
  path: string;
  handler: string;
  maxBodyBytes: number;
  access: Access;
  docs: Pick<RouteDoc, 'summary' | 'tags' | 'description' | 'responses'> & {
    body: { schema: zod.ZodType; example: Record<string, unknown>; formFirst?: boolean };
  };
}) {
  const { id, path, handler, maxBodyBytes, access, docs } = spec;
  const { formFirst, ...body } = docs.body;
  return {
    id,
    method: 'POST',
    path,
    handler,
    memoryMb: 256,
    timeoutS: 5,
    maxBodyBytes,
    access,
    docs: {
      ...docs,
      body: { ...body, contentTypes: formFirst ? [...JSON_OR_FORM].reverse() : JSON_OR_FORM },
      responses: { ...docs.responses, 422: common[422], 429: common[429] },
    },
  } satisfies RouteSpec;
}

/** What the growth forms (A/B events, the waitlist) touch: the experiments, their counters, the per-IP windows. */
export const GROWTH_FORM_ACCESS: Access = {
  settings: ['AB_EXPERIMENTS'],
  tables: { growth: 'rw', quotas: 'rw' },
};
