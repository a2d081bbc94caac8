// POST /pay/portal?email= — a Stripe customer-portal session (cancel, change card, invoices): 200 {url}.
// Requires the account's API key as Bearer and the account's e-mail; every request without a key gets the same 401
// whatever the e-mail, so the endpoint reveals nothing about who is a customer. 400 bad/missing e-mail; 503 Stripe
// not configured; 403 e-mail not the key's account; 409 key without a billing account (issued by an administrator).
import { payPortalRoute } from '../../shared/billing/handlers';
import { DOCUMENTS_PAY } from '../billing';
import { awsDeps, type DocumentsDeps } from '../deps';

export const makeHandler = (deps: Pick<DocumentsDeps, 'config' | 'keys' | 'accounts' | 'payments'>) =>
  payPortalRoute(DOCUMENTS_PAY, deps);

export const handler = makeHandler(awsDeps());
