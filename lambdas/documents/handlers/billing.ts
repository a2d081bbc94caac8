// The /pay routes of ../platform.ts, one handler picking each by its route key: the platform's handlers
// (lambdas/shared/billing/handlers.ts) with the documents catalogue (pro $9/month and scale $29/month subscriptions,
// lifetime $49 once, at the DOCS_STRIPE_PRICE_* prices; 400 validation; no A/B attribution: ../billing.ts) and its
// plans and monthly usage for GET /pay/status.
//   GET  /pay/checkout/{plan}?email=&ref= → 302 to Stripe (or 200 {plan, url, expires_at} for JSON clients); the
//                                           session and its subscription carry metadata.service = documents
//   GET  /pay/success?session_id=cs_…    → the plan, and the plaintext key in the first answer only; 404 when not a
//                                           documents purchase
//   GET  /pay/status                      → with a key: its plan, state, account and this month's usage; without:
//                                           this IP's free-tier usage this month (calendar months in UTC)
//   POST /pay/portal?email=               → a Stripe portal session for the Bearer key's account (its e-mail)
//   POST /pay/webhook                     → Stripe events, verified with DOCS_STRIPE_WEBHOOK_SECRET over the raw body;
//                                           narration's checkouts and subscriptions are acknowledged as `ignored`
//   POST /pay/keys/rotate                 → a new key for the Bearer key's account; the old one stops working
// Statuses and bodies: docs/billing.md.
import { ipSubject } from '../../shared/auth/resolve-caller';
import { billingHandlers } from '../../shared/billing/handlers';
import { routeHandler } from '../../shared/http/route-handlers';
import { DOCUMENTS_PAY } from '../billing';
import { awsDeps, type DocumentsDeps } from '../deps';
import { monthlyRules, quotaSubject } from '../core/plans';
import { pricedPlans } from '../core/pricing';
import { BILLING_ROUTES } from '../platform';

export const makeHandlers = (deps: DocumentsDeps) =>
  billingHandlers(DOCUMENTS_PAY, BILLING_ROUTES, deps, {
    plans: () => pricedPlans(),
    usage: (key, req) =>
      key
        ? {
            // The caller resolveCaller makes for this key (its subject is `key#` + 32 hex of the hash), so the
            // counter read here is the one POST /v1/render charges.
            subject: quotaSubject({ kind: 'key', subject: 'key#' + key.keyHash.slice(0, 32), key }),
            rules: monthlyRules(key.plan),
          }
        : {
            subject: quotaSubject({ kind: 'anonymous', subject: ipSubject(req.clientIp) }),
            rules: monthlyRules('free'),
          },
  });

export const handler = routeHandler(BILLING_ROUTES, makeHandlers(awsDeps()));
