// POST /v1/webhook/rotate-secret — a new signing secret for the account's endpoint: 200 {..., secret} (shown this
// once). The previous secret keeps signing, as a second v1= in Docs-Signature, for WEBHOOK_SECRET_OVERLAP_S (a day)
// so receivers can switch without losing events. Scale only (403); 404 without an endpoint; no key → 401.
// The route itself is the platform's (lambdas/shared/webhooks/handlers.ts).
import { webhookRotateHandler } from '../../shared/webhooks/handlers';
import { awsDeps, type DocumentsDeps } from '../deps';
import { DOCUMENTS_WEBHOOKS } from '../use-cases/webhooks';

export const makeHandler = (
  deps: Pick<DocumentsDeps, 'keys' | 'webhooks' | 'webhookPolicy' | 'config' | 'now'>,
) => webhookRotateHandler(deps, DOCUMENTS_WEBHOOKS);

export const handler = makeHandler(awsDeps());
