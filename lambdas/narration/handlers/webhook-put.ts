// PUT /v1/webhook — registers (201) or changes (200) the account's completion webhook: JSON {url, events?} with
// events among audio.completed, audio.failed. Paid keys only (no key → 401). The URL must be https:// on port 443
// and resolve only to public addresses (lambdas/shared/net/safe-fetch.ts; 422 {"detail":[{loc:["body","url"],...}]}).
// The signing secret (whsec_…) is in the 201 answer only. The route is the platform's (lambdas/shared/webhooks).
import { webhookPutHandler } from '../../shared/webhooks/handlers';
import { awsDeps, type NarrationDeps } from '../deps';
import { NARRATION_WEBHOOKS } from '../use-cases/webhooks';
import { webhookPutRoute as route } from './webhook-put.route';

export const makeHandler = (deps: Pick<NarrationDeps, 'keys' | 'webhooks' | 'webhookPolicy' | 'now'>) =>
  webhookPutHandler(deps, NARRATION_WEBHOOKS, { maxBodyBytes: route.maxBodyBytes });

export const handler = makeHandler(awsDeps());
