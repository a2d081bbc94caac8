// DELETE /v1/webhook — removes the account's webhook endpoint (and its secret): 204. Events of jobs finishing later
// are not sent; deliveries already queued are recorded as skipped. 404 when none is registered; no key → 401.
// The route itself is the platform's (lambdas/shared/webhooks/handlers.ts).
import { webhookDeleteHandler } from '../../shared/webhooks/handlers';
import { awsDeps, type DocumentsDeps } from '../deps';
import { DOCUMENTS_WEBHOOKS } from '../use-cases/webhooks';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'webhooks'>) =>
  webhookDeleteHandler(deps, DOCUMENTS_WEBHOOKS);

export const handler = makeHandler(awsDeps());
