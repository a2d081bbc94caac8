// Plans and what each billing state allows. Pure: no I/O, shared by the webhook, the /pay routes and
// resolveCaller (which refuses lapsed keys with 402).
// Narration (planCatalogue below):
//   free      no key, per-IP limits (FREE_PER_HOUR / FREE_PER_DAY)
//   pro       monthly subscription: no limits, priority queue, while the Stripe subscription is in good standing
//   lifetime  one payment: Pro forever
// Documents sells pro, scale (both monthly subscriptions) and lifetime with monthly allowances
// (lambdas/documents/domain/plans.ts). Which service sells what: catalogue.ts.
import type { Config } from '../config';
import type { PaidPlan } from '../auth/keys';

export type { PaidPlan } from '../auth/keys';
/** Narration's paid plans (its GET /pay/checkout/{plan} accepts these). */
export const PAID_PLANS = ['pro', 'lifetime'] as const satisfies readonly PaidPlan[];
/** Every paid plan of either service. */
export const ALL_PAID_PLANS = ['pro', 'scale', 'lifetime'] as const satisfies readonly PaidPlan[];

export const PLAN_NAMES: Record<PaidPlan, string> = { pro: 'Pro', scale: 'Scale', lifetime: 'Lifetime' };

/**
 * Stripe subscription statuses that keep paid access. `past_due`: Stripe is still retrying the card (Smart
 * Retries); access ends when it gives up and moves the subscription to `canceled` or `unpaid` (dashboard setting).
 * A lifetime account's status is always `active`.
 */
const PAID_ACCESS = new Set(['active', 'trialing', 'past_due']);

/** Statuses a subscription never leaves (Stripe cannot reactivate them): an older event must not overwrite them. */
export const TERMINAL_SUBSCRIPTION_STATUSES = ['canceled', 'incomplete_expired'] as const;

export function hasPaidAccess(billingStatus: string): boolean {
  return PAID_ACCESS.has(billingStatus);
}

export function isTerminal(status: string): boolean {
  return (TERMINAL_SUBSCRIPTION_STATUSES as readonly string[]).includes(status);
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

export interface PlanInfo {
  id: 'free' | PaidPlan;
  name: string;
  /** null for free. */
  price: { amount_cents: number; currency: string; interval: 'month' | null } | null;
  limits: { per_hour: number; per_day: number } | null;
  priority_queue: boolean;
  /** Where to buy it (relative path); null for free. */
  checkout: string | null;
}

/** Narration's plans as its GET /pay/status shows them; prices from configuration (the Stripe prices decide the charge). */
export function planCatalogue(cfg: Config): PlanInfo[] {
  return [
    {
      id: 'free',
      name: 'Free',
      price: null,
      limits: { per_hour: cfg.FREE_PER_HOUR, per_day: cfg.FREE_PER_DAY },
      priority_queue: false,
      checkout: null,
    },
    {
      id: 'pro',
      name: 'Pro',
      price: { amount_cents: cfg.PRICE_PRO_CENTS, currency: cfg.PRICE_CURRENCY, interval: 'month' },
      limits: null,
      priority_queue: true,
      checkout: '/pay/checkout/pro',
    },
    {
      id: 'lifetime',
      name: 'Lifetime',
      price: { amount_cents: cfg.PRICE_LIFETIME_CENTS, currency: cfg.PRICE_CURRENCY, interval: null },
      limits: null,
      priority_queue: true,
      checkout: '/pay/checkout/lifetime',
    },
  ];
}
