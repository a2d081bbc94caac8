// The Scale webhook routes of webhooks.route.ts, one handler picking each by its route key: the platform's handlers
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
import { webhookHandlers } from '../../shared/webhooks/handlers';
import { routeHandler } from '../../shared/http/route-handlers';
import { awsDeps, type DocumentsDeps } from '../deps';
import { DOCUMENTS_WEBHOOKS } from '../use-cases/webhooks';
import { WEBHOOK_ROUTES } from './webhooks.route';

export const makeHandlers = (deps: DocumentsDeps) =>
  webhookHandlers(DOCUMENTS_WEBHOOKS, WEBHOOK_ROUTES, deps);

export const handler = routeHandler(WEBHOOK_ROUTES, makeHandlers(awsDeps()));
