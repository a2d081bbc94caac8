// DELETE /v1/webhook — removes the account's completion webhook (and its secret): 204; events of conversions
// ending later are not sent, queued ones are dropped. 404 when none; no key → 401. The platform's route.
import { webhookDeleteHandler } from '../../shared/webhooks/handlers';
import { awsDeps, type NarrationDeps } from '../deps';
import { NARRATION_WEBHOOKS } from '../use-cases/webhooks';

export const makeHandler = (deps: Pick<NarrationDeps, 'keys' | 'webhooks'>) =>
  webhookDeleteHandler(deps, NARRATION_WEBHOOKS);

export const handler = makeHandler(awsDeps());
