// What GET /api says about webhooks, for any service: the four endpoint routes (./handlers.ts) and how callbacks are
// signed, answered and retried. Each service passes its event types, header names, who may register and its
// validation answer (lambdas/<service>/api/webhooks-doc.ts); its platform.ts passes the route docs
// to the specs (./routes.ts).
import { z } from 'zod';
import type { ResponseDoc, RouteDoc } from '../http/openapi';
import { webhookPutRequest, type WebhookBrand } from './endpoints';
import { DEFAULT_RETRY_SCHEDULE_S } from './schedule';

export interface WebhookDocsOptions {
  eventTypes: readonly string[];
  brand: Omit<WebhookBrand, 'userAgent'>;
  /** Who may register, as a sentence start: "Paid keys (Pro, Lifetime)", "Scale plan". */
  plan: string;
  /** The service's validation answer: narration 422, documents 400, with its `{"detail": [...]}` schema. */
  invalid: { status: 400 | 422; schema: z.ZodType };
  /** The 403 of a plan that may not register (documents: not Scale). */
  notAllowed?: ResponseDoc;
  /** What happens to events once the endpoint is removed. */
  afterDelete: string;
}

const Detail = z.object({ detail: z.string() });
const schedule = DEFAULT_RETRY_SCHEDULE_S.map((s) => (s < 3600 ? `${s / 60} min` : `${s / 3600} h`)).join(
  ', ',
);

export function webhookDocs(o: WebhookDocsOptions) {
  const EventType = z.enum(o.eventTypes as [string, ...string[]]);
  const EndpointView = z.strictObject({
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    events: z.array(EventType),
    created_at: z.string(),
    updated_at: z.string(),
    secret: z.string().optional().meta({
      description: 'whsec_…: only in the answer that created it (PUT 201, rotate-secret). Store it.',
    }),
    secret_hint: z
      .string()
      .meta({ description: 'The first characters of the secret, to tell secrets apart' }),
    previous_secret_expires_at: z
      .string()
      .nullable()
      .meta({ description: 'After a rotation: until when the previous secret still signs (a second v1=)' }),
  });
  const PutBody = webhookPutRequest(o.eventTypes);
  const unauthorized: ResponseDoc = {
    description: 'No, unknown or revoked API key (`WWW-Authenticate: Bearer`)',
    schema: Detail,
  };
  const lapsed: ResponseDoc = { description: 'The subscription lapsed', schema: Detail };
  const none: ResponseDoc = { description: 'None registered', schema: Detail };
  const forbidden: Record<number, ResponseDoc> = o.notAllowed ? { 403: o.notAllowed } : {};
  const routes: Record<'put' | 'get' | 'delete' | 'rotate', RouteDoc> = {
    put: {
      summary: "Register or change the account's webhook endpoint",
      tags: ['webhooks'],
      bearer: 'required',
      description:
        `${o.plan}. \`url\`: https:// on port 443 resolving to public addresses only (checked now and at every ` +
        `delivery). \`events\`: ${o.eventTypes.join(', ')} (default all). The first registration answers 201 with ` +
        'the signing secret (shown once); later calls change the URL/events and keep the secret (200).',
      body: {
        schema: PutBody.extend({
          url: PutBody.shape.url.meta({ description: 'https://… (max 2048 characters)' }),
          events: PutBody.shape.events.meta({
            description: `Event types: ${o.eventTypes.join(', ')} (default all)`,
          }),
        }),
        contentTypes: ['application/json'],
        example: { url: 'https://ejemplo.mx/webhooks/voz', events: [...o.eventTypes] },
      },
      responses: {
        200: { description: 'Changed (the secret is unchanged and not shown)', schema: EndpointView },
        201: { description: 'Registered: the answer holds `secret`, shown this once', schema: EndpointView },
        [o.invalid.status]: {
          description:
            'Invalid body or URL: `loc ["body", "url"]`, types url_scheme, url_port, url_not_public, ' +
            'url_unresolvable, url_credentials…',
          schema: o.invalid.schema,
        },
        401: unauthorized,
        402: lapsed,
        ...forbidden,
        409: { description: 'Changed by another request at the same moment: read and retry', schema: Detail },
        503: { description: 'DNS unavailable for the host right now: retry', schema: Detail },
      },
    },
    get: {
      summary: "The account's webhook endpoint",
      tags: ['webhooks'],
      bearer: 'required',
      description: 'URL, events, dates and a hint of the secret (never the secret).',
      responses: { 200: { description: 'The endpoint', schema: EndpointView }, 401: unauthorized, 404: none },
    },
    delete: {
      summary: "Remove the account's webhook endpoint",
      tags: ['webhooks'],
      bearer: 'required',
      description: o.afterDelete,
      responses: { 204: { description: 'Removed' }, 401: unauthorized, 404: none },
    },
    rotate: {
      summary: 'Rotate the signing secret',
      tags: ['webhooks'],
      bearer: 'required',
      description:
        `${o.plan}. A new secret, shown in this answer only; the previous one keeps signing (a second \`v1=\` in ` +
        `${o.brand.signatureHeader}) for 24 hours, so receivers can switch without missing events.`,
      responses: {
        200: { description: 'The endpoint with its new `secret`', schema: EndpointView },
        401: unauthorized,
        402: lapsed,
        ...forbidden,
        404: { description: 'No endpoint registered', schema: Detail },
      },
    },
  };

  /** The overview section: `intro` and `events` are the service's (what triggers events, what they carry). */
  const overview = (title: string, intro: string, events: string, extraRetries = '') => `
## ${title}

${intro.trim()}

**Endpoint.** One per account: \`PUT /v1/webhook\` \`{"url": "https://…", "events": [...]}\` (events default to all) answers 201 with the signing secret \`whsec_…\`, shown that once; a later PUT changes the URL or events and keeps the secret (200). \`GET /v1/webhook\` shows it without the secret, \`DELETE /v1/webhook\` removes it, \`POST /v1/webhook/rotate-secret\` issues a new secret, while the previous one keeps signing for 24 hours. The URL must be \`https://\` on port 443 and resolve only to public addresses; it is checked when registered and again, on the addresses actually connected to, at every delivery (a name that later resolves to a private address is not contacted). Redirects are not followed.

**Events.** ${events.trim()}

Headers: \`Content-Type: application/json\`, \`${o.brand.signatureHeader}\`, \`${o.brand.eventIdHeader}\` (= \`id\`), \`${o.brand.eventTypeHeader}\`, \`${o.brand.attemptHeader}\` (1, 2, …). Deliveries are at least once: deduplicate on the event id.

**Verifying the signature.** \`${o.brand.signatureHeader}: t=<unix seconds>,v1=<hex>\` where \`<hex>\` is HMAC-SHA256 keyed with your whole secret string (\`whsec_…\`) over \`<t>.<raw body>\` — Stripe's scheme. Compute it over the raw bytes received (before parsing JSON), compare in constant time with every \`v1\` (two during a rotation) and reject timestamps more than 5 minutes from your clock. Node.js (the function this service exports as \`verifySignature\`, lambdas/shared/webhooks/signature.ts):

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

**Answer and retries.** Answer any 2xx within 10 seconds (do the work afterwards); the body is ignored. Anything else — another status, a redirect, a timeout, a connection error — is retried after ${schedule} (${DEFAULT_RETRY_SCHEDULE_S.length + 1} attempts over about 8.6 hours); then the event is set aside (dead-letter queue).${extraRetries}
`;
  return { EventType, EndpointView, routes, overview };
}
