// POST /pay/portal?email= — a Stripe customer-portal session (cancel, change card, invoices): 200 {url}.
// Requires the account's API key as Bearer, and the e-mail must be the account's: a portal link controls a
// subscription and shows billing details, so knowing an e-mail must not be enough — and every request without
// a key gets the same 401 whatever the e-mail, so the endpoint reveals nothing about which e-mails are customers.
// Customers without their key use Stripe's own portal login (STRIPE_PORTAL_LOGIN_URL, named in the 401).
// 422 bad/missing e-mail; 503 Stripe not configured; 403 e-mail not the key's account; 409 key without account.
import { payPortalRoute } from '../../shared/billing/handlers';
import { NARRATION_PAY } from '../billing';
import { awsDeps, type NarrationDeps } from '../deps';

export const makeHandler = (deps: Pick<NarrationDeps, 'config' | 'keys' | 'accounts' | 'payments'>) =>
  payPortalRoute(NARRATION_PAY, deps);

export const handler = makeHandler(awsDeps());
