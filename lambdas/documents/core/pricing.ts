// The documents plans as GET /pricing and GET /pay/status show them: the contract's four plans (plans.ts) with the
// path where each paid one is bought (the plans DOCUMENTS_BILLING sells). Pure data, no Stripe.
import { offeredPlans } from '../../shared/billing/catalogue';
import { DOCUMENTS_BILLING } from '../billing';
import type { PaidPlan } from '../../shared/auth/keys';
import { PLANS, type PlanInfo } from './plans';

export interface PricedPlan extends PlanInfo {
  /** GET path that starts a Stripe Checkout for the plan (relative to this API); null for free. */
  checkout: string | null;
}

export const QUOTA_RESET =
  'Monthly allowances reset at 00:00 UTC on the 1st of each month (calendar months, UTC).';

export function pricedPlans(): PricedPlan[] {
  const sold = offeredPlans(DOCUMENTS_BILLING) as string[];
  return PLANS.map((p) => ({
    ...p,
    checkout: sold.includes(p.id) ? `/pay/checkout/${p.id as PaidPlan}` : null,
  }));
}
