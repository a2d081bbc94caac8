// What GET /api says about narration's completion webhooks, deletion and Idempotency-Key (routes keyed by route id;
// a test fails when a manifest route has no entry in ROUTE_DOCS, which spreads these).
import { z } from 'zod';
import type { RouteDoc } from '../../shared/http/openapi';
import { webhookPutRequest } from '../../shared/webhooks/endpoints';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../shared/webhooks/schedule';
import { AUDIO_EVENT_TYPES } from '../core/audio-events';
import { ErrorDetail, ValidationError } from './schemas';

const EventType = z.enum(AUDIO_EVENT_TYPES as unknown as ['audio.completed', 'audio.failed']);

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

/** The body of every callback. */
export const AudioEvent = z.strictObject({
  id: z.string().meta({ description: '`evt_…`, the same on every retry: deduplicate on it' }),
  object: z.literal('event'),
  type: EventType,
  created: z.int().meta({ description: 'Unix seconds: when the conversion ended' }),
  api_version: z.literal('v1'),
  data: z.strictObject({
    audio: z.strictObject({
      audio_id: z.string(),
      audio_url: z.string(),
      voice: z.string(),
      chars: z.int(),
      title: z.string().optional(),
      status: z.enum(['done', 'failed']),
      duration_s: z.number().nullable(),
      created_at: z.string(),
      expires_at: z.string(),
      reason: z.string().optional().meta({ description: 'audio.failed: why, in words you can act on' }),
    }),
  }),
});

const schedule = DEFAULT_RETRY_SCHEDULE_S.map((s) => (s < 3600 ? `${s / 60} min` : `${s / 3600} h`)).join(
  ', ',
);

export const NARRATION_HOOKS_OVERVIEW = `
## Completion webhooks (Pro, Lifetime)

Instead of polling \`GET /audio/{id}\`, register one endpoint per account: \`PUT /v1/webhook\` \`{"url": "https://…", "events": ["audio.completed", "audio.failed"]}\` (events default to both) answers **201** with the signing secret \`whsec_…\`, shown that once; a later PUT changes the URL or events and keeps the secret (200). \`GET\`/\`DELETE /v1/webhook\`, \`POST /v1/webhook/rotate-secret\` (the previous secret keeps signing 24 h). The URL must be \`https://\` on port 443 and resolve only to public addresses — checked when registered (422 \`loc ["body","url"]\`) and again, on the addresses actually connected to, at every delivery: a name that later resolves to a private address is never contacted. Redirects are not followed.

Every conversion made with a key of the account sends one event when it ends (inline or queued): \`audio.completed\` (\`data.audio\` = the Conversion result: \`audio_id\`, \`audio_url\`, \`duration_s\`, \`voice\`, \`chars\`, \`title\` for URLs, plus \`status\`, \`created_at\`, \`expires_at\`) or \`audio.failed\` (\`reason\`). Body \`{"id": "evt_…", "object": "event", "type": "audio.completed", "created": …, "api_version": "v1", "data": {"audio": {…}}}\`. Headers: \`Voz-Signature: t=<unix>,v1=<hex>\` — HMAC-SHA256 keyed with your whole secret over \`<t>.<raw body>\`, the same scheme (and the same verifySignature code) as the documents API's Docs-Signature —, \`Voz-Event-Id\`, \`Voz-Event-Type\`, \`Voz-Delivery-Attempt\`. Answer 2xx within 10 s; anything else is retried after ${schedule} (${DEFAULT_RETRY_SCHEDULE_S.length + 1} attempts), then the event is set aside (DLQ). Delivery is at least once: deduplicate on the event id.

## Idempotency-Key

\`POST /convert/text\`, \`/convert/url\`, \`/convert/pdf\`, \`/convert/pdf/upload\` (the same key gives the same upload slot back) and \`/demo/try\` accept \`Idempotency-Key: <1–255 visible ASCII characters>\` (a UUID). Keys belong to the caller (the API key sent, or the client address without one) and live 24 h. The same key with the same request (method, path, query, body) returns the first answer again — same status, body and \`Location\`, plus \`Idempotent-Replayed: true\` — and nothing is narrated or charged again. The same key with a different request: **422** \`idempotency_key_reused\`. While the first request is still running, the same key gets **409** \`{"detail": "...", "type": "idempotency_key_in_use"}\` with \`Retry-After: 2\` at once (retry to get the replay). Only final answers are kept (2xx and 400/404/413/415/422); after a 401/402/403/409/429/5xx the key is free again.

## Deleting audio and retention

\`DELETE /audio/{id}\` removes the audio file, its segments, timings and record: **204**, after which \`GET /audio/{id}\` answers 404 and presigned URLs handed out earlier stop working. Only the account that made it (any of its keys) may delete it — or, for audio made without a key, the same client address within a day of the conversion. Anyone else gets **404**, exactly as for an unknown id. \`retention_days\` on \`/convert/text\`, \`/convert/url\` and \`/convert/pdf\` (a form field of the multipart request, or next to \`upload_id\`): paid keys choose 1–30 days (default 30); the free tier's retention is fixed at 30 days (another value: 422 naming it). Past its retention an audio answers **410** until its record is purged (within about two days), then 404; its files (audio, segments, timings) are deleted then too — on the first request after it expires, and otherwise by the storage's own expiry rules (one per retention value) within a day.
`;

const unauthorized = { description: 'No, unknown or revoked API key', schema: ErrorDetail };
const PutBody = webhookPutRequest(AUDIO_EVENT_TYPES);

export const HOOKS_ROUTE_DOCS: Record<string, RouteDoc> = {
  WebhookPut: {
    summary: "Register or change the account's completion webhook",
    tags: ['webhooks'],
    bearer: 'required',
    description:
      'Paid keys. `url`: https:// on port 443 resolving to public addresses only (checked now and at every ' +
      'delivery). `events`: audio.completed, audio.failed (default both). 201 with the secret (once); later 200.',
    body: { schema: PutBody, contentTypes: ['application/json'] },
    responses: {
      200: { description: 'Changed (the secret is unchanged and not shown)', schema: EndpointView },
      201: { description: 'Registered: the answer holds `secret`, shown this once', schema: EndpointView },
      401: unauthorized,
      402: { description: 'The subscription lapsed', schema: ErrorDetail },
      409: {
        description: 'Changed by another request at the same moment: read and retry',
        schema: ErrorDetail,
      },
      422: {
        description:
          'Invalid body or URL: `loc ["body", "url"]`, types url_scheme, url_port, url_not_public, url_unresolvable…',
        schema: ValidationError,
      },
      503: { description: 'DNS unavailable for the host right now: retry', schema: ErrorDetail },
    },
  },
  WebhookGet: {
    summary: "The account's completion webhook",
    tags: ['webhooks'],
    bearer: 'required',
    description: 'URL, events, dates and a hint of the secret (never the secret).',
    responses: {
      200: { description: 'The endpoint', schema: EndpointView },
      401: unauthorized,
      404: { description: 'None registered', schema: ErrorDetail },
    },
  },
  WebhookDelete: {
    summary: "Remove the account's completion webhook",
    tags: ['webhooks'],
    bearer: 'required',
    description: 'Conversions ending afterwards send nothing; events already queued are dropped.',
    responses: {
      204: { description: 'Removed' },
      401: unauthorized,
      404: { description: 'None registered', schema: ErrorDetail },
    },
  },
  WebhookRotateSecret: {
    summary: 'Rotate the signing secret',
    tags: ['webhooks'],
    bearer: 'required',
    description:
      'A new secret, shown in this answer only; the previous one keeps signing (a second `v1=` in Voz-Signature) ' +
      'for 24 hours.',
    responses: {
      200: { description: 'The endpoint with its new `secret`', schema: EndpointView },
      401: unauthorized,
      402: { description: 'The subscription lapsed', schema: ErrorDetail },
      404: { description: 'No endpoint registered', schema: ErrorDetail },
    },
  },
  DeleteAudio: {
    summary: 'Delete an audio',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'Removes the audio file(s), segments, timings and record. Allowed to the account that made it (any of its ' +
      'keys) or, for audio made without a key, to the same client address within a day; everyone else gets 404 ' +
      'like an unknown id. Afterwards GET /audio/{id} is 404 and earlier presigned URLs fail.',
    params: [
      {
        name: 'audio_id',
        in: 'path',
        required: true,
        description: 'audio_id (optionally with .mp3/.wav/.ogg)',
      },
    ],
    responses: {
      204: { description: 'Deleted' },
      401: unauthorized,
      404: { description: 'Unknown, already deleted, or not yours', schema: ErrorDetail },
      422: { description: 'Malformed audio_id', schema: ValidationError },
    },
  },
};
