// POST /pay/webhook — Stripe events. The `Stripe-Signature` header is verified with STRIPE_WEBHOOK_SECRET over the
// raw body bytes (base64-decoded if API Gateway encoded them) before anything is parsed: missing or bad → 400.
// Handled: checkout.session.completed (and .async_payment_succeeded) → account + one new API key awaiting pick-up;
// customer.subscription.created/updated/deleted → the account's subscription state, copied onto its keys.
// 200 {received, event_id, outcome}: outcome processed | duplicate (replay: nothing changes) | ignored (other
// event types) | stale (older than what is stored) | awaiting_payment. A failure answers 503 so Stripe retries;
// another delivery of the same event in progress → 409 (Stripe retries later). Secret unset → 503 naming it.
import { payWebhookRoute } from '../../shared/billing/handlers';
import { NARRATION_PAY } from '../billing';
import { awsDeps, type NarrationDeps } from '../deps';

export { WEBHOOK_MAX_BODY_BYTES } from '../../shared/billing/handlers';

export const makeHandler = (deps: NarrationDeps) => payWebhookRoute(NARRATION_PAY, deps);

export const handler = makeHandler(awsDeps());
