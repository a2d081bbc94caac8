// The completion-webhook routes of webhooks.route.ts, one handler picking each by its route key: the platform's
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
import { webhookHandlers } from '../../shared/webhooks/handlers';
import { routeHandler } from '../../shared/http/route-handlers';
import { awsDeps, type NarrationDeps } from '../deps';
import { NARRATION_WEBHOOKS } from '../use-cases/webhooks';
import { WEBHOOK_ROUTES } from './webhooks.route';

export const makeHandlers = (deps: NarrationDeps) =>
  webhookHandlers(NARRATION_WEBHOOKS, WEBHOOK_ROUTES, deps);

export const handler = routeHandler(WEBHOOK_ROUTES, makeHandlers(awsDeps()));
