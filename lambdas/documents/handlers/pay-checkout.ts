// GET /pay/checkout/{plan}?email=&ref= — starts a Stripe Checkout for pro ($9/month) or scale ($29/month), both
// subscriptions, or lifetime ($49, one payment), at the DOCS_STRIPE_PRICE_* prices. Browsers get 302 to Stripe's
// page; clients sending `Accept: application/json` get 200 {plan, url, expires_at}. Unknown plan, bad e-mail or
// ref → 400 `{"detail": [{loc, msg, type}]}`. Stripe not configured → 503 naming the variable.
// The session and its subscription carry metadata.service = documents (narration's webhook ignores them).
import { payCheckoutRoute } from '../../shared/billing/handlers';
import { DOCUMENTS_PAY } from '../billing';
import { awsDeps, type DocumentsDeps } from '../deps';

export const makeHandler = (deps: Pick<DocumentsDeps, 'config' | 'payments' | 'accounts'>) =>
  payCheckoutRoute(DOCUMENTS_PAY, deps);

export const handler = makeHandler(awsDeps());
