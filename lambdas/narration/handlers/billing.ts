// The /pay routes of ../platform.ts, one handler picking each by its route key: the platform's handlers
// (lambdas/shared/billing/handlers.ts) with narration's catalogue (pro and lifetime, 422 validation, A/B attribution of
// purchases, buyers landing on /gracias: ../billing.ts) and its plans and free-tier usage for GET /pay/status.
//   GET  /pay/checkout/{plan}?email=&ref= → 302 to Stripe (or 200 {plan, url, expires_at} for JSON clients)
//   GET  /pay/success?session_id=cs_…    → the plan, and the plaintext key in the first answer only
//   GET  /pay/status                      → with a key: its plan, state, account; without: this IP's free-tier usage
//   POST /pay/portal?email=               → a Stripe portal session for the Bearer key's account (its e-mail)
//   POST /pay/webhook                     → Stripe events, verified with STRIPE_WEBHOOK_SECRET over the raw body
//   POST /pay/keys/rotate                 → a new key for the Bearer key's account; the old one stops working
// Statuses and bodies: docs/billing.md.
import { ipSubject } from '../../shared/auth/resolve-caller';
import { billingHandlers } from '../../shared/billing/handlers';
import { routeHandler } from '../../shared/http/route-handlers';
import { NARRATION_PAY, freeTierRules, planCatalogue } from '../billing';
import { awsDeps, type NarrationDeps } from '../deps';
import { BILLING_ROUTES } from '../platform';

export const makeHandlers = (deps: NarrationDeps) =>
  billingHandlers(NARRATION_PAY, BILLING_ROUTES, deps, {
    plans: () => planCatalogue(deps.config),
    // Paid keys have no limits; the free tier is counted per IP in fixed hour and day windows.
    usage: (key, req) =>
      key ? null : { subject: ipSubject(req.clientIp), rules: freeTierRules(deps.config) },
  });

export const handler = routeHandler(BILLING_ROUTES, makeHandlers(awsDeps()));
