// POST /pay/webhook — Stripe events for the documents API's own endpoint. `Stripe-Signature` is verified with
// DOCS_STRIPE_WEBHOOK_SECRET over the raw body bytes before anything is parsed: missing or bad → 400.
// checkout.session.completed (and .async_payment_succeeded) of a documents checkout → account + one new API key
// (plan pro | scale | lifetime) awaiting pick-up; customer.subscription.* of a documents subscription → the account's
// state, copied onto its keys (a lapsed pro/scale key then gets 402 on POST /v1/render). Events of narration's
// checkouts and subscriptions (same Stripe account) are acknowledged as `ignored`.
// 200 {received, event_id, type, outcome}; 409 another delivery in progress; 503 failure or secret unset.
import { payWebhookRoute } from '../../shared/billing/handlers';
import { DOCUMENTS_PAY } from '../billing';
import { awsDeps, type DocumentsDeps } from '../deps';

export const makeHandler = (deps: DocumentsDeps) => payWebhookRoute(DOCUMENTS_PAY, deps);

export const handler = makeHandler(awsDeps());
