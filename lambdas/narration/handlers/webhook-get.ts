// GET /v1/webhook — the account's completion webhook: 200 {url, events, created_at, updated_at, secret_hint,
// previous_secret_expires_at}; never the secret itself. 404 when none; no key → 401. The platform's route.
import { webhookGetHandler } from '../../shared/webhooks/handlers';
import { awsDeps, type NarrationDeps } from '../deps';
import { NARRATION_WEBHOOKS } from '../use-cases/webhooks';

export const makeHandler = (deps: Pick<NarrationDeps, 'keys' | 'webhooks' | 'now'>) =>
  webhookGetHandler(deps, NARRATION_WEBHOOKS);

export const handler = makeHandler(awsDeps());
