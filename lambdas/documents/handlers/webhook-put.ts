// PUT /v1/webhook — registers (201) or changes (200) the account's webhook endpoint: JSON {url, events?}. Scale
// plan only (403 naming the plan; no key → 401). The URL must be https:// on port 443 and resolve only to public
// addresses (the SSRF checks of lambdas/shared/net/safe-fetch.ts; 400 {"detail":[{loc:["body","url"],...}]}).
// The signing secret (whsec_…) is in the 201 answer only — store it; a later PUT keeps it (rotate with
// POST /v1/webhook/rotate-secret). The route itself is the platform's (lambdas/shared/webhooks/handlers.ts).
import { webhookPutHandler } from '../../shared/webhooks/handlers';
import { awsDeps, type DocumentsDeps } from '../deps';
import { DOCUMENTS_WEBHOOKS } from '../use-cases/webhooks';
import { webhookPutRoute as route } from './webhook-put.route';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'webhooks' | 'webhookPolicy' | 'now'>) =>
  webhookPutHandler(deps, DOCUMENTS_WEBHOOKS, { maxBodyBytes: route.maxBodyBytes, invalidStatus: 400 });

export const handler = makeHandler(awsDeps());
