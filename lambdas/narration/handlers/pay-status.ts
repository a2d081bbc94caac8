// GET /pay/status — what the caller's plan allows. With `Authorization: Bearer <key>`: the key's plan, billing
// status, whether it has paid access, its account (e-mail, renewal date, cancel at period end) and usage (no
// limits). A lapsed key is answered too (status says why) — only unknown or revoked keys get 401. Without a key:
// the free tier's usage for this IP (used, remaining, reset time per window) and the plans on offer.
import { ipSubject } from '../../shared/auth/resolve-caller';
import { payStatusRoute } from '../../shared/billing/handlers';
import { planCatalogue } from '../billing';
import { awsDeps, type NarrationDeps } from '../deps';
import { freeRules } from '../use-cases/conversion';

export const makeHandler = (deps: Pick<NarrationDeps, 'config' | 'keys' | 'accounts' | 'quotas' | 'now'>) =>
  payStatusRoute(deps, {
    plans: () => planCatalogue(deps.config),
    // Paid keys have no limits; the free tier is counted per IP in fixed hour and day windows.
    usage: (key, req) => (key ? null : { subject: ipSubject(req.clientIp), rules: freeRules(deps) }),
  });

export const handler = makeHandler(awsDeps());
