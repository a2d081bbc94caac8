// GET /pay/checkout/{plan}?email=&ref= — starts a Stripe Checkout for pro (monthly subscription) or lifetime
// (one payment). Browsers get 302 to Stripe's page; clients sending `Accept: application/json` get 200
// {plan, url, expires_at}. Unknown plan, bad e-mail or ref → 422. Stripe not configured → 503 naming the variable.
import { apiHandler } from '../../shared/http/api-handler';
import { json, redirect } from '../../shared/http/response';
import { validate } from '../../shared/http/validation';
import { CheckoutQuery, PlanParam } from '../../shared/billing/requests';
import { requireGateway, requirePriceId } from '../../shared/billing/stripe';
import { NO_STORE, publicBase, returnUrl, wantsJson } from '../../shared/billing/web';
import { awsDeps, type NarrationDeps } from '../deps';

export const makeHandler = (deps: Pick<NarrationDeps, 'config' | 'payments'>) =>
  apiHandler(async (req) => {
    const { plan } = validate(PlanParam, req.pathParams, ['path']);
    const query = validate(CheckoutQuery, req.query, ['query']);
    const cfg = deps.config;
    const gateway = requireGateway(await deps.payments());
    const priceId = requirePriceId(plan, cfg);
    const session = await gateway.createCheckout({
      plan,
      priceId,
      email: query.email,
      ref: query.ref,
      // Stripe substitutes the session id: the buyer's credential to pick up the key once.
      successUrl: `${publicBase(req, cfg)}/pay/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: returnUrl(req, cfg),
    });
    if (wantsJson(req.headers['accept']))
      return json(
        200,
        { plan, url: session.url, expires_at: new Date(session.expiresAt * 1000).toISOString() },
        NO_STORE,
      );
    return redirect(session.url, NO_STORE);
  });

export const handler = makeHandler(awsDeps());
