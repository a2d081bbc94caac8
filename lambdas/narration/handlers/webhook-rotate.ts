// POST /v1/webhook/rotate-secret — a new signing secret for the account's completion webhook: 200 {..., secret}
// (shown this once). The previous secret keeps signing, as a second v1= in Voz-Signature, for
// WEBHOOK_SECRET_OVERLAP_S (a day). Paid keys; 404 without an endpoint; no key → 401. The platform's route.
import { webhookRotateHandler } from '../../shared/webhooks/handlers';
import { awsDeps, type NarrationDeps } from '../deps';
import { NARRATION_WEBHOOKS } from '../use-cases/webhooks';
import { webhookRotateSecretRoute as route } from './webhook-rotate.route';

export const makeHandler = (
  deps: Pick<NarrationDeps, 'keys' | 'webhooks' | 'webhookPolicy' | 'config' | 'now'>,
) => webhookRotateHandler(deps, NARRATION_WEBHOOKS, { maxBodyBytes: route.maxBodyBytes });

export const handler = makeHandler(awsDeps());
