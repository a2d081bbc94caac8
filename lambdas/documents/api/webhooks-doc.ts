// GET /api, section "Webhooks (Scale)": async renders and signed callbacks. Filled in by the webhooks work (issue #5
// item 6); merged into the documents API description by ./route-docs.ts and ../handlers/api.ts. Every manifest route
// of the webhooks work needs an entry in WEBHOOK_ROUTE_DOCS (keyed by route id): test/unit/documents-openapi.test.ts
// fails otherwise. The response schemas below are checked against what the code answers
// (test/unit/documents-webhooks.test.ts), so the description cannot drift from the answers.
import { z } from 'zod';
import type { ResponseDoc, RouteDoc } from '../../shared/http/openapi';
import { WEBHOOK_EVENT_TYPES } from '../use-cases/jobs';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../shared/webhooks/schedule';
import { WebhookPutRequest } from '../use-cases/webhooks';

// ---- schemas -------------------------------------------------------------------------------------------------------

const Problem = z.object({
  loc: z.array(z.union([z.string(), z.int()])),
  msg: z.string(),
  type: z.string(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});
const Detail = z.object({ detail: z.string() });
const Problems = z.object({ detail: z.array(Problem) });
const EventType = z.enum(WEBHOOK_EVENT_TYPES as [string, ...string[]]);

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

export const EndpointView = z.strictObject({
  object: z.literal('webhook_endpoint'),
  url: z.string(),
  events: z.array(EventType),
  created_at: z.string(),
  updated_at: z.string(),
  secret: z
    .string()
    .optional()
    .meta({ description: 'whsec_…: only in the answer that created it (PUT 201, rotate-secret). Store it.' }),
  secret_hint: z.string().meta({ description: 'The first characters of the secret, to tell secrets apart' }),
  previous_secret_expires_at: z
    .string()
    .nullable()
    .meta({ description: 'After a rotation: until when the previous secret still signs (a second v1=)' }),
});

// ---- prose ---------------------------------------------------------------------------------------------------------

const schedule = DEFAULT_RETRY_SCHEDULE_S.map((s) => (s < 3600 ? `${s / 60} min` : `${s / 3600} h`)).join(
  ', ',
);

export const WEBHOOKS_OVERVIEW: string = `
## Webhooks (Scale)

**Async renders.** With a Scale key, \`POST /v1/render\` with \`"options": {"async": true}\` answers **202** \`{"id": "job_…", "object": "job", "status": "queued", "progress": 0, "status_url": "/v1/jobs/job_…"}\` with a \`Location\` header instead of the file. The request is validated exactly like a synchronous one (400 with every problem) and counted when it is accepted (RateLimit-* headers on the 202); a job that fails is given back, whatever the cause. Other plans asking for async get **403** \`{"detail": "…", "plan": "pro"}\`. Poll \`GET /v1/jobs/{id}\` (any key of the same account; everyone else gets 404) until \`status\` is \`done\` (with \`download_url\`, a presigned link valid one hour, signed afresh at each GET) or \`failed\` (with \`reason\`, and \`problems\` when the request itself could not be rendered). Jobs and their documents are kept one day, or \`options.expires_in\` seconds (60–86400; with \`options.async\` only): past that, \`GET /v1/jobs/{id}\` answers **410** \`{"detail": "Job '…' expired at …"}\` and the document is deleted (on that request; otherwise by the storage's one-day expiry rule), and a day later 404. \`expires_at\` on the job says when; \`download_url\` never outlives it. The request waiting in the queue is stored with \`options.password\` encrypted under a per-job key kept apart from it, and deleted once the job ends. A \`metadata\` object sent with the render (your own ids and references, at most 50 keys and 4096 bytes as JSON, else a 400 \`metadata_too_large\`) is echoed as sent on the job and in its webhook events (\`data.job.metadata\`; \`{}\` without one).

**Endpoint.** One per account: \`PUT /v1/webhook\` \`{"url": "https://…", "events": [...]}\` (events default to all) answers 201 with the signing secret \`whsec_…\`, shown that once; a later PUT changes the URL or events and keeps the secret (200). \`GET /v1/webhook\` shows it without the secret, \`DELETE /v1/webhook\` removes it, \`POST /v1/webhook/rotate-secret\` issues a new secret, while the previous one keeps signing for 24 hours. The URL must be \`https://\` on port 443 and resolve only to public addresses; it is checked when registered and again, on the addresses actually connected to, at every delivery (a name that later resolves to a private address is not contacted; the attempt is recorded as \`refused\`). Redirects are not followed.

**Events.**

| Type | When | data.job |
| --- | --- | --- |
| \`document.rendered\` | the document is ready | status \`done\`, \`filename\`, \`content_type\`, \`bytes\`, \`download_url\` (signed for this attempt, valid 1 h), \`download_expires_at\` |
| \`document.failed\` | the job failed | status \`failed\`, \`reason\`, \`problems\` when the request was at fault |

The body is \`{"id": "evt_…", "object": "event", "type": "document.rendered", "created": 1767225600, "api_version": "v1", "data": {"job": {…}}}\` (the job as \`GET /v1/jobs/{id}\` shows it, without the delivery log). Headers: \`Content-Type: application/json\`, \`Docs-Signature\`, \`Docs-Event-Id\` (= \`id\`), \`Docs-Event-Type\`, \`Docs-Delivery-Attempt\` (1, 2, …). Deliveries are at least once: deduplicate on the event id.

**Verifying the signature.** \`Docs-Signature: t=<unix seconds>,v1=<hex>\` where \`<hex>\` is HMAC-SHA256 keyed with your whole secret string (\`whsec_…\`) over \`<t>.<raw body>\` — Stripe's scheme. Compute it over the raw bytes received (before parsing JSON), compare in constant time with every \`v1\` (two during a rotation) and reject timestamps more than 5 minutes from your clock. Node.js (the function this service exports as \`verifySignature\`, lambdas/shared/webhooks/signature.ts):

\`\`\`js
const { createHmac, timingSafeEqual } = require('node:crypto');
function verifySignature(secret, header, rawBody, toleranceS = 300) {
  const parts = (header || '').split(',').map((p) => p.split('='));
  const t = Number((parts.find(([k]) => k === 't') || [])[1]);
  const sigs = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v)).map(([, v]) => v);
  if (!Number.isInteger(t) || !sigs.length || Math.abs(Date.now() / 1000 - t) > toleranceS) return false;
  const expected = createHmac('sha256', secret).update(t + '.').update(rawBody).digest();
  return sigs.some((s) => timingSafeEqual(expected, Buffer.from(s, 'hex')));
}
\`\`\`

**Answer and retries.** Answer any 2xx within 10 seconds (do the work afterwards); the body is ignored. Anything else — another status, a redirect, a timeout, a connection error — is retried after ${schedule} (${DEFAULT_RETRY_SCHEDULE_S.length + 1} attempts over about 8.6 hours); then the event is set aside (dead-letter queue) and the job keeps the record. Every attempt is listed in \`GET /v1/jobs/{id}\` → \`deliveries\` (outcome, status code, error, next attempt).
`;

// ---- routes --------------------------------------------------------------------------------------------------------

const unauthorized: ResponseDoc = {
  description: 'No, unknown or revoked API key (`WWW-Authenticate: Bearer`)',
  schema: Detail,
};
const notScale: ResponseDoc = {
  description: 'The key is not on the Scale plan: `{"detail": "…", "plan": "pro"}`',
  schema: Detail.extend({ plan: z.string() }),
};

/** What POST /v1/render answers for `options.async`: for the Render route's doc (./route-docs.ts). */
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

export const WEBHOOK_ROUTE_DOCS: Record<string, RouteDoc> = {
  GetJob: {
    summary: 'An async render job',
    tags: ['webhooks'],
    bearer: 'required',
    description:
      'The job of a `POST /v1/render` with `options.async` (Scale). Visible to every key of the account that ' +
      'created it; anyone else gets 404. `done`: `download_url` (presigned, signed afresh at each GET, valid 1 h); ' +
      '`failed`: `reason` (+ `problems`). `deliveries` lists every webhook attempt. Past `expires_at` ' +
      '(options.expires_in, default a day): 410 and the document is deleted; a day later 404.',
    params: [{ name: 'id', in: 'path', required: true, description: 'The job id (`job_…`) from the 202' }],
    responses: {
      200: {
        description: 'The job (Retry-After while queued or rendering)',
        schema: JobView,
        headers: { 'Retry-After': 'While pending: suggested polling interval (s)' },
      },
      401: unauthorized,
      404: { description: 'No such job for this account (or expired more than a day ago)', schema: Detail },
      410: {
        description: 'The job expired (options.expires_in, default a day): its document was deleted',
        schema: Detail,
      },
    },
  },
  WebhookPut: {
    summary: "Register or change the account's webhook endpoint",
    tags: ['webhooks'],
    bearer: 'required',
    description:
      'Scale plan. `url`: https:// on port 443 resolving to public addresses only (checked now and at every ' +
      'delivery). `events`: default all. The first registration answers 201 with the signing secret (shown once); ' +
      'later calls change the URL/events and keep the secret (200).',
    body: {
      schema: WebhookPutRequest.extend({
        url: WebhookPutRequest.shape.url.meta({ description: 'https://… (max 2048 characters)' }),
        events: WebhookPutRequest.shape.events.meta({
          description: `Event types: ${WEBHOOK_EVENT_TYPES.join(', ')} (default all)`,
        }),
      }),
      contentTypes: ['application/json'],
    },
    responses: {
      200: { description: 'Changed (the secret is unchanged and not shown)', schema: EndpointView },
      201: { description: 'Registered: the answer holds `secret`, shown this once', schema: EndpointView },
      400: {
        description:
          'Invalid body or URL: `loc ["body", "url"]`, types url_scheme, url_port, url_not_public, url_unresolvable, url_credentials…',
        schema: Problems,
      },
      401: unauthorized,
      402: { description: 'The subscription lapsed', schema: Detail },
      403: notScale,
      409: { description: 'Changed by another request at the same moment: read and retry', schema: Detail },
      503: { description: 'DNS unavailable for the host right now: retry', schema: Detail },
    },
  },
  WebhookGet: {
    summary: "The account's webhook endpoint",
    tags: ['webhooks'],
    bearer: 'required',
    description: 'URL, events, dates and a hint of the secret (never the secret).',
    responses: {
      200: { description: 'The endpoint', schema: EndpointView },
      401: unauthorized,
      404: { description: 'None registered', schema: Detail },
    },
  },
  WebhookDelete: {
    summary: "Remove the account's webhook endpoint",
    tags: ['webhooks'],
    bearer: 'required',
    description: 'Jobs finishing afterwards send nothing; deliveries already queued are recorded as skipped.',
    responses: {
      204: { description: 'Removed' },
      401: unauthorized,
      404: { description: 'None registered', schema: Detail },
    },
  },
  WebhookRotateSecret: {
    summary: 'Rotate the signing secret',
    tags: ['webhooks'],
    bearer: 'required',
    description:
      'Scale plan. A new secret, shown in this answer only; the previous one keeps signing (a second `v1=` in ' +
      'Docs-Signature) for 24 hours, so receivers can switch without missing events.',
    responses: {
      200: { description: 'The endpoint with its new `secret`', schema: EndpointView },
      401: unauthorized,
      402: { description: 'The subscription lapsed', schema: Detail },
      403: notScale,
      404: { description: 'No endpoint registered', schema: Detail },
    },
  },
};
