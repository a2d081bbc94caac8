// What a key's billing state allows, and the 402 a lapsed key gets. Pure: read by resolveCaller (which refuses
// lapsed keys) and by the billing engine (lambdas/shared/billing), which sets the state.
import type { PaidPlan } from './keys';

export const PLAN_NAMES: Record<PaidPlan, string> = { pro: 'Pro', scale: 'Scale', lifetime: 'Lifetime' };

/**
 * Stripe subscription statuses that keep paid access. `past_due`: Stripe is still retrying the card (Smart
 * Retries); access ends when it gives up and moves the subscription to `canceled` or `unpaid` (dashboard setting).
 * A lifetime account's status is always `active`.
 */
const PAID_ACCESS = new Set(['active', 'trialing', 'past_due']);

export function hasPaidAccess(billingStatus: string): boolean {
  return PAID_ACCESS.has(billingStatus);
}

/** Checkout mode per plan: Lifetime is one payment, Pro and Scale are monthly subscriptions. */
export function checkoutMode(plan: PaidPlan): 'subscription' | 'payment' {
  return plan === 'lifetime' ? 'payment' : 'subscription';
}

const WHY: Record<string, string> = {
  canceled: 'was canceled',
  unpaid: 'is unpaid (the last invoice could not be charged)',
  incomplete: 'has not been paid yet',
  incomplete_expired: 'expired before its first payment',
  paused: 'is paused',
};

/**
 * The 402 a lapsed key gets: what happened and the ways out (portal, new checkout of the same plan, free tier).
 * The paths are the same on both services; a lifetime key never lapses (its status is always active).
 */
export function lapsedKeyDetail(plan: PaidPlan, status: string): string {
  const why = WHY[status] ?? `is in state '${status}'`;
  const subscription = checkoutMode(plan) === 'subscription';
  return (
    `The ${subscription ? `${PLAN_NAMES[plan]} subscription` : 'plan'} of this API key ${why}, so the key has no paid access. ` +
    'Update your card or see invoices at POST /pay/portal?email=<your e-mail> (send this key as Bearer), ' +
    `or subscribe again at GET /pay/checkout/${subscription ? plan : 'pro'}. Without an Authorization header you get the free tier.`
  );
}
