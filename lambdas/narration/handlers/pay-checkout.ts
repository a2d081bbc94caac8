// GET /pay/checkout/{plan}?email=&ref= — starts a Stripe Checkout for pro (monthly subscription) or lifetime
// (one payment). Browsers get 302 to Stripe's page; clients sending `Accept: application/json` get 200
// {plan, url, expires_at}. Unknown plan, bad e-mail or ref → 422. Stripe not configured → 503 naming the variable.
import { payCheckoutRoute } from '../../shared/billing/handlers';
import { NARRATION_PAY } from '../billing';
import { awsDeps, type NarrationDeps } from '../deps';

export const makeHandler = (deps: Pick<NarrationDeps, 'config' | 'payments' | 'accounts'>) =>
  payCheckoutRoute(NARRATION_PAY, deps);

export const handler = makeHandler(awsDeps());
