// GET /pay/status — what the caller's plan allows. With `Authorization: Bearer <key>`: the key's plan, billing
// status, whether it has paid access, its account (e-mail, renewal date, cancel at period end) and usage (no
// limits). A lapsed key is answered too (status says why) — only unknown or revoked keys get 401. Without a key:
// the free tier's usage for this IP (used, remaining, reset time per window) and the plans on offer.
import { resolveKeyHolder, ipSubject } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { accountStatus, accountPlan } from '../../shared/billing/account';
import { hasPaidAccess, planCatalogue } from '../../shared/billing/plans';
import { NO_STORE } from '../../shared/billing/web';
import { awsDeps, type NarrationDeps } from '../deps';
import { freeRules } from '../domain/conversion';

const iso = (epochS: number | undefined) =>
  epochS === undefined ? null : new Date(epochS * 1000).toISOString();

export const makeHandler = (deps: Pick<NarrationDeps, 'config' | 'keys' | 'accounts' | 'quotas' | 'now'>) =>
  apiHandler(async (req) => {
    const key = await resolveKeyHolder(req.headers, deps.keys);
    const plans = planCatalogue(deps.config);
    if (key) {
      const account = key.accountId ? await deps.accounts.get(key.accountId) : undefined;
      // The key's copy of the state is what resolveCaller enforces; the account adds details.
      const status = account ? accountStatus(account) : (key.billingStatus ?? 'active');
      const plan = account ? accountPlan(account) : key.plan;
      return json(
        200,
        {
          plan,
          status,
          paid_access: hasPaidAccess(status),
          key_prefix: key.keyPrefix,
          account: account
            ? {
                email: account.email ?? null,
                since: account.createdAt,
                current_period_end: plan === 'pro' ? iso(account.currentPeriodEnd) : null,
                cancel_at_period_end: plan === 'pro' ? !!account.cancelAtPeriodEnd : false,
                manage: 'POST /pay/portal?email=<account e-mail> with this key as Bearer',
              }
            : null,
          usage: { limited: false, windows: [] },
          plans,
        },
        NO_STORE,
      );
    }
    const now = deps.now();
    const nowS = Math.floor(now.getTime() / 1000);
    const windows = await deps.quotas.peek(ipSubject(req.clientIp), freeRules(deps), now);
    return json(
      200,
      {
        plan: 'free',
        status: 'free',
        paid_access: false,
        key_prefix: null,
        account: null,
        usage: {
          limited: true,
          windows: windows.map((w) => ({
            period: w.period,
            limit: w.limit,
            used: Math.min(w.used, w.limit),
            remaining: Math.max(0, w.limit - w.used),
            reset_at: iso(w.resetAt),
            reset_in_s: Math.max(0, w.resetAt - nowS),
          })),
        },
        plans,
      },
      NO_STORE,
    );
  });

export const handler = makeHandler(awsDeps());
