// GET /pay/status — what the caller's plan allows. With `Authorization: Bearer <key>`: the key's plan, billing
// status, paid access, account (e-mail, renewal date, cancel at period end) and this month's usage of the plan's
// allowance. A lapsed key is answered too (status says why); unknown or revoked keys get 401. Without a key: this
// IP's free-tier usage this month. Both list the plans (as GET /pricing). Windows are calendar months in UTC.
import { ipSubject } from '../../shared/auth/resolve-caller';
import { payStatusRoute } from '../../shared/billing/handlers';
import { awsDeps, type DocumentsDeps } from '../deps';
import { monthlyRules, quotaSubject } from '../core/plans';
import { pricedPlans } from '../core/pricing';

export const makeHandler = (deps: Pick<DocumentsDeps, 'config' | 'keys' | 'accounts' | 'quotas' | 'now'>) =>
  payStatusRoute(deps, {
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

export const handler = makeHandler(awsDeps());
