// The completion-webhook surface. Its routes (../platform.ts), one handler picking each by its route key: the platform's
// handlers (lambdas/shared/webhooks/handlers.ts) bound to narration (NARRATION_WEBHOOKS: audio.completed and
// audio.failed, Voz-* headers, paid keys only, 422 refusals).
//   PUT    /v1/webhook               → 201 {..., secret} (registered; the whsec_… secret shown this once) or 200 (changed).
//                                       The URL must be https:// on port 443 and resolve only to public addresses
//                                       (lambdas/shared/net/safe-fetch.ts; 422 {"detail":[{loc:["body","url"],...}]})
//   GET    /v1/webhook               → 200 {url, events, created_at, updated_at, secret_hint, previous_secret_expires_at}
//   DELETE /v1/webhook               → 204; conversions ending later send nothing, queued events are dropped
//   POST   /v1/webhook/rotate-secret → 200 {..., secret}; the previous secret keeps signing (a second v1= in
//                                       Voz-Signature) for WEBHOOK_SECRET_OVERLAP_S (a day)
// No key → 401; 404 when no endpoint is registered (GET, DELETE, rotate).
// Its delivery worker (DeliveryWorker), fed by narration's `webhooks` queue (SQS event source, batch size 1,
// reportBatchItemFailures): each message is one audio.completed / audio.failed event; deliverAudioEvent
// (use-cases/webhooks.ts) POSTs it, signed, through the platform's delivery (lambdas/shared/webhooks/delivery.ts:
// SSRF boundary, retry by message visibility 1 min … 6 h, then the DLQ).
import { z } from 'zod';
import { webhookHandlers, webhookSurface } from '../../shared/webhooks/handlers';
import { AUDIO_EVENT_TYPES, type AudioEventType } from '../core/audio-events';
import { awsDeps, type NarrationDeps } from '../deps';
import { NARRATION_WEBHOOKS, deliverAudioEvent } from '../use-cases/webhooks';
import { WEBHOOK_ROUTES } from '../platform';

export const makeHandlers = (deps: NarrationDeps) =>
  webhookHandlers(NARRATION_WEBHOOKS, WEBHOOK_ROUTES, deps);

const Message = z.object({
  audioId: z.string().min(1).max(64),
  eventId: z.string().min(1).max(64),
  type: z.enum(AUDIO_EVENT_TYPES as unknown as [AudioEventType, ...AudioEventType[]]),
});

export const handler = webhookSurface(NARRATION_WEBHOOKS, WEBHOOK_ROUTES, awsDeps(), {
  message: Message,
  deliver: deliverAudioEvent,
});
