// The Scale webhook surface. Its routes (../platform.ts), one handler picking each by its route key: the platform's handlers
// (lambdas/shared/webhooks/handlers.ts) bound to documents (DOCUMENTS_WEBHOOKS: document.rendered and
// document.failed, Docs-* headers, Scale only, 400 refusals).
//   PUT    /v1/webhook               → 201 {..., secret} (registered; the whsec_… secret shown this once) or 200 (changed;
//                                       a later PUT keeps the secret). The URL must be https:// on port 443 and resolve
//                                       only to public addresses (lambdas/shared/net/safe-fetch.ts; 400
//                                       {"detail":[{loc:["body","url"],...}]})
//   GET    /v1/webhook               → 200 {url, events, created_at, updated_at, secret_hint, previous_secret_expires_at}
//   DELETE /v1/webhook               → 204; jobs finishing later send nothing, queued deliveries are recorded as skipped
//   POST   /v1/webhook/rotate-secret → 200 {..., secret}; the previous secret keeps signing (a second v1= in
//                                       Docs-Signature) for WEBHOOK_SECRET_OVERLAP_S (a day)
// No key → 401; not Scale → 403 naming the plan (PUT, rotate); 404 when no endpoint is registered (GET, DELETE, rotate).
// Its delivery worker (DeliveryWorker), fed by the documents delivery queue (SQS event source, batch size 1,
// reportBatchItemFailures): each message is one webhook event of one job; deliverEvent (use-cases/webhooks.ts) POSTs
// it, signed, through the SSRF boundary and records the attempt on the job. A failed attempt sets the message's
// visibility to the retry schedule's next delay (WEBHOOK_RETRY_SCHEDULE_S: 1 min, 5 min, 30 min, 2 h, 6 h) and
// reports it failed, so SQS redelivers it then; after the last attempt it reappears at once and SQS moves it to the
// DLQ (maxReceiveCount = attempts).
import { z } from 'zod';
import { webhookHandlers, webhookSurface } from '../../shared/webhooks/handlers';
import { awsDeps, type DocumentsDeps } from '../deps';
import { DOCUMENTS_WEBHOOKS, deliverEvent } from '../use-cases/webhooks';
import { WEBHOOK_ROUTES } from '../platform';

export const makeHandlers = (deps: DocumentsDeps) =>
  webhookHandlers(DOCUMENTS_WEBHOOKS, WEBHOOK_ROUTES, deps);

const Message = z.object({ jobId: z.string().min(1).max(64), eventId: z.string().min(1).max(64) });

export const handler = webhookSurface(DOCUMENTS_WEBHOOKS, WEBHOOK_ROUTES, awsDeps(), {
  message: Message,
  deliver: deliverEvent,
});
