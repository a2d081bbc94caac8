// POST /pay/webhook — Stripe events. The `Stripe-Signature` header is verified with STRIPE_WEBHOOK_SECRET over the
// raw body bytes (base64-decoded if API Gateway encoded them) before anything is parsed: missing or bad → 400.
// Handled: checkout.session.completed (and .async_payment_succeeded) → account + one new API key awaiting pick-up;
// customer.subscription.created/updated/deleted → the account's subscription state, copied onto its keys.
// 200 {received, event_id, outcome}: outcome processed | duplicate (replay: nothing changes) | ignored (other
// event types) | stale (older than what is stored) | awaiting_payment. A failure answers 503 so Stripe retries;
// another delivery of the same event in progress → 409 (Stripe retries later). Secret unset → 503 naming it.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { billingDeps } from '../../shared/billing/deps';
import { processEvent } from '../../shared/billing/service';
import { BillingNotConfiguredError, verifyWebhook } from '../../shared/billing/stripe';
import { HttpError, ServiceUnavailableError } from '../../shared/http/errors';
import { logger } from '../../shared/logger';
import { awsDeps, type NarrationDeps } from '../deps';

/** Stripe events are a few KiB; the largest (many line items or expanded objects) stay well below this. */
export const WEBHOOK_MAX_BODY_BYTES = 256 * 1024;

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req) => {
      const secret = deps.config.STRIPE_WEBHOOK_SECRET;
      if (!secret) throw new BillingNotConfiguredError('STRIPE_WEBHOOK_SECRET', 'the webhook signing secret');
      const event = verifyWebhook(req.rawBody(), req.headers['stripe-signature'], secret);
      let outcome;
      try {
        outcome = await processEvent(billingDeps(deps), event);
      } catch (err) {
        if (err instanceof HttpError) throw err;
        logger.error('stripe event failed', { error: err as Error, eventId: event.id, type: event.type });
        throw new ServiceUnavailableError('The event could not be processed now; Stripe will retry it.', 60);
      }
      logger.info('stripe event', { eventId: event.id, type: event.type, outcome });
      return json(200, { received: true, event_id: event.id, type: event.type, outcome });
    },
    { maxBodyBytes: WEBHOOK_MAX_BODY_BYTES },
  );

export const handler = makeHandler(awsDeps());
