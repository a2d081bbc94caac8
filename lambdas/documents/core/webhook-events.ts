// What documents' webhooks say to a receiver: the event types and the Docs-* headers (the platform's machinery in
// lambdas/shared/webhooks binds them in use-cases/webhooks.ts). Data only, so the route specs and their docs
// (api/webhooks-doc.ts) read it without importing a use case.
import type { WebhookBrand } from '../../shared/webhooks/endpoints';
export const WEBHOOK_EVENT_TYPES = ['document.rendered', 'document.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const SIGNATURE_HEADER = 'Docs-Signature';
export const EVENT_ID_HEADER = 'Docs-Event-Id';
export const EVENT_TYPE_HEADER = 'Docs-Event-Type';
export const ATTEMPT_HEADER = 'Docs-Delivery-Attempt';
export const WEBHOOK_USER_AGENT = 'DocsWebhooks/1.0 (+https://docs.example/api#webhooks)';

export const DOCUMENTS_WEBHOOK_BRAND: WebhookBrand = {
  signatureHeader: SIGNATURE_HEADER,
  eventIdHeader: EVENT_ID_HEADER,
  eventTypeHeader: EVENT_TYPE_HEADER,
  attemptHeader: ATTEMPT_HEADER,
  userAgent: WEBHOOK_USER_AGENT,
};
