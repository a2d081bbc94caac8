// GET /v1/webhook — the account's webhook endpoint: 200 {url, events, created_at, updated_at, secret_hint,
// previous_secret_expires_at}; never the secret itself. 404 when none is registered; no key → 401.
// The route itself is the platform's (lambdas/shared/webhooks/handlers.ts).
import { webhookGetHandler } from '../../shared/webhooks/handlers';
import { awsDeps, type DocumentsDeps } from '../deps';
import { DOCUMENTS_WEBHOOKS } from '../use-cases/webhooks';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'webhooks' | 'now'>) =>
  webhookGetHandler(deps, DOCUMENTS_WEBHOOKS);

export const handler = makeHandler(awsDeps());
