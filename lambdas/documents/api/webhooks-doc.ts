// What GET /api says about async renders and Scale webhooks: the job schemas (checked against what the code answers
// in test/unit/documents-webhooks.test.ts and documents-metadata.test.ts) and the platform's webhook docs
// (lambdas/shared/webhooks/api-docs.ts) bound to documents' event types, Docs-* headers, Scale plan and 400s. The
// route docs go to platform.ts and jobs.route.ts.
import { z } from 'zod';
import type { ResponseDoc } from '../../shared/http/openapi';
import { webhookDocs } from '../../shared/webhooks/api-docs';
import { DOCUMENTS_WEBHOOK_BRAND, WEBHOOK_EVENT_TYPES } from '../core/webhook-events';

const Problem = z.object({
  loc: z.array(z.union([z.string(), z.int()])),
  msg: z.string(),
  type: z.string(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});
const Detail = z.object({ detail: z.string() });

export const DOCUMENTS_WEBHOOK_DOCS = webhookDocs({
  eventTypes: WEBHOOK_EVENT_TYPES,
  brand: DOCUMENTS_WEBHOOK_BRAND,
  plan: 'Scale plan',
  invalid: { status: 400, schema: z.object({ detail: z.array(Problem) }) },
  notAllowed: {
    description: 'The key is not on the Scale plan: `{"detail": "…", "plan": "pro"}`',
    schema: Detail.extend({ plan: z.string() }),
  },
  afterDelete: 'Jobs finishing afterwards send nothing; deliveries already queued are recorded as skipped.',
});
export const { EndpointView } = DOCUMENTS_WEBHOOK_DOCS;
const EventType = DOCUMENTS_WEBHOOK_DOCS.EventType;

export const JobAccepted = z.strictObject({
  id: z.string().meta({ description: 'Job id, `job_` + 22 characters' }),
  object: z.literal('job'),
  status: z.literal('queued'),
  progress: z.literal(0),
  status_url: z.string().meta({ description: '`/v1/jobs/{id}` (also in the Location header)' }),
});

export const DeliveryView = z.strictObject({
  event_id: z.string(),
  type: EventType,
  attempt: z.int().meta({ description: '1 for the first try' }),
  at: z.string().meta({ description: 'ISO 8601 start of the attempt' }),
  outcome: z.enum(['delivered', 'failed', 'refused', 'skipped']).meta({
    description:
      'delivered: 2xx; failed: another status, a redirect, a timeout or a network error; refused: the URL now ' +
      'resolves to an address that is not public (nothing was sent); skipped: no endpoint subscribed any more',
  }),
  status_code: z.int().nullable(),
  error: z.string().optional(),
  duration_ms: z.int(),
  next_attempt_at: z.string().nullable().meta({ description: 'When the retry is due; null after the last' }),
});

const jobShape = {
  id: z.string(),
  object: z.literal('job'),
  status: z.enum(['queued', 'rendering', 'done', 'failed']),
  progress: z.number().min(0).max(1),
  template: z.string().nullable().meta({ description: 'Built-in template slug; null for custom_html' }),
  format: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
  expires_at: z.string().meta({
    description:
      'Until when the job and its document are kept: a day, or options.expires_in seconds; then 410',
  }),
  status_url: z.string(),
  metadata: z.record(z.string(), z.unknown()).meta({
    description: 'The `metadata` object of the render request, as sent ({} without one)',
  }),
  filename: z.string().optional().meta({ description: 'done: e.g. factura.pdf' }),
  content_type: z.string().optional(),
  bytes: z.int().optional(),
  download_url: z.string().optional().meta({
    description: 'done: presigned GET of the document (no Authorization header), signed at each GET',
  }),
  download_expires_at: z
    .string()
    .optional()
    .meta({ description: 'When download_url stops working (1 h, never after expires_at)' }),
  reason: z.string().optional().meta({ description: 'failed: why, in words you can act on' }),
  problems: z.array(Problem).optional().meta({
    description:
      'failed because of the request (e.g. a custom_html syntax error): the items a synchronous 400 would list',
  }),
};

export const JobView = z.strictObject({
  ...jobShape,
  event: z
    .strictObject({ id: z.string(), type: EventType })
    .nullable()
    .meta({ description: "The webhook event of the job's outcome; null when no endpoint was subscribed" }),
  deliveries: z.array(DeliveryView),
});

/** The event every callback carries (the JSON body). */
export const EventEnvelope = z.strictObject({
  id: z.string().meta({ description: '`evt_…`, the same on every retry: deduplicate on it' }),
  object: z.literal('event'),
  type: EventType,
  created: z.int().meta({ description: 'Unix seconds: when the job reached its outcome' }),
  api_version: z.literal('v1'),
  data: z.strictObject({ job: z.strictObject(jobShape) }),
});

/** What POST /v1/render answers for `options.async`: for the Render route's docs (../handlers/render.route.ts). */
export const RENDER_ASYNC_RESPONSE_DOCS: Record<number, ResponseDoc> = {
  202: {
    description:
      'options.async (Scale plan): the job was queued and counted; poll status_url, or wait for the webhook',
    schema: JobAccepted,
    headers: { Location: 'status_url', 'Retry-After': 'Suggested polling interval (s)' },
  },
  403: {
    description:
      'custom_html without a paid key, or options.async without a Scale key (`plan` names the caller’s plan)',
    schema: Detail.extend({ plan: z.string().optional() }),
  },
};

export const WEBHOOKS_OVERVIEW: string = DOCUMENTS_WEBHOOK_DOCS.overview(
  'Webhooks (Scale)',
  '**Async renders.** With a Scale key, `POST /v1/render` with `"options": {"async": true}` answers **202** `{"id": "job_…", "object": "job", "status": "queued", "progress": 0, "status_url": "/v1/jobs/job_…"}` with a `Location` header instead of the file. The request is validated exactly like a synchronous one (400 with every problem) and counted when it is accepted (RateLimit-* headers on the 202); a job that fails is given back, whatever the cause. Other plans asking for async get **403** `{"detail": "…", "plan": "pro"}`. Poll `GET /v1/jobs/{id}` (any key of the same account; everyone else gets 404) until `status` is `done` (with `download_url`, a presigned link valid one hour, signed afresh at each GET) or `failed` (with `reason`, and `problems` when the request itself could not be rendered). Jobs and their documents are kept one day, or `options.expires_in` seconds (60–86400; with `options.async` only): past that, `GET /v1/jobs/{id}` answers **410** `{"detail": "Job \'…\' expired at …"}` and the document is deleted (on that request; otherwise by the storage\'s one-day expiry rule), and a day later 404. `expires_at` on the job says when; `download_url` never outlives it. The request waiting in the queue is stored with `options.password` encrypted under a per-job key kept apart from it, and deleted once the job ends. A `metadata` object sent with the render (your own ids and references, at most 50 keys and 4096 bytes as JSON, else a 400 `metadata_too_large`) is echoed as sent on the job and in its webhook events (`data.job.metadata`; `{}` without one).',
  `
| Type | When | data.job |
| --- | --- | --- |
| \`document.rendered\` | the document is ready | status \`done\`, \`filename\`, \`content_type\`, \`bytes\`, \`download_url\` (signed for this attempt, valid 1 h), \`download_expires_at\` |
| \`document.failed\` | the job failed | status \`failed\`, \`reason\`, \`problems\` when the request was at fault |

The body is \`{"id": "evt_…", "object": "event", "type": "document.rendered", "created": 1767225600, "api_version": "v1", "data": {"job": {…}}}\` (the job as \`GET /v1/jobs/{id}\` shows it, without the delivery log); a URL that now resolves to an address that is not public is not contacted and the attempt is recorded as \`refused\`.`,
  ' The job keeps the record: every attempt is listed in `GET /v1/jobs/{id}` → `deliveries` (outcome, status code, error, next attempt).',
);
