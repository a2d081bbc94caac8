// The billing account: one per Stripe customer (Checkout creates one per purchase). It is the source of truth
// for paid access; its keys carry a copy of the derived state (see KeyBillingState) that the webhook refreshes.
import type { KeyBillingState, PaidPlan } from '../auth/keys';
import type { BillingServiceId } from './catalogue';

export interface Account {
  /** The Stripe customer id (cus_…); `guest_…` if Checkout made no customer (not expected: we ask for one). */
  accountId: string;
  email?: string;
  /**
   * The service whose checkout or subscription made it (catalogue.ts). Absent on accounts made before it was
   * recorded: in the cloud each service has its own accounts table, so those are the table's service.
   */
  service?: BillingServiceId;
  /**
   * Set by a completed checkout, then by subscription events whose price maps to another subscription plan (a
   * switch in the customer portal); absent while only subscription events with unknown prices have arrived.
   */
  plan?: PaidPlan;
  /** A lifetime purchase was paid: paid access forever, whatever happens to any subscription. */
  lifetime?: boolean;
  subscriptionId?: string;
  /** Stripe's subscription status (active, past_due, canceled, …). */
  subscriptionStatus?: string;
  /** `created` (epoch s) of the newest subscription event applied; absent when only seeded by the checkout. */
  subscriptionEventAt?: number;
  /** Epoch seconds. */
  currentPeriodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  /** Hashes of the account's keys (active or not). */
  keyHashes: string[];
  /** Attribution reference given to GET /pay/checkout (first purchase). */
  ref?: string;
  createdAt: string;
  updatedAt: string;
  /** Grows with every change; orders the copies of the state kept on keys. */
  version: number;
}

export function accountPlan(a: Account): PaidPlan {
  return a.lifetime ? 'lifetime' : (a.plan ?? 'pro');
}

/** `active` for lifetime; otherwise the subscription's status (`incomplete` until one is known). */
export function accountStatus(a: Account): string {
  if (a.lifetime) return 'active';
  return a.subscriptionStatus ?? 'incomplete';
}

export function keyStateOf(a: Account): KeyBillingState {
  return { plan: accountPlan(a), billingStatus: accountStatus(a), accountVersion: a.version };
}

/** Normalised e-mail (trimmed, lower-case) used for pointers and comparisons. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
