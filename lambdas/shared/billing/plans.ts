// Plans of the billing engine. Pure: no I/O. What a billing state allows (hasPaidAccess, checkoutMode, the 402 of a
// lapsed key) is in lambdas/shared/auth/paid-access.ts; what each service sells is its lambdas/<service>/billing.ts.
import type { PaidPlan } from '../auth/keys';

export type { PaidPlan } from '../auth/keys';
/** Every paid plan of either service. */
export const ALL_PAID_PLANS = ['pro', 'scale', 'lifetime'] as const satisfies readonly PaidPlan[];

/** Statuses a subscription never leaves (Stripe cannot reactivate them): an older event must not overwrite them. */
export const TERMINAL_SUBSCRIPTION_STATUSES = ['canceled', 'incomplete_expired'] as const;
