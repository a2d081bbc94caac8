// The ports billing talks to. AccountStore: lambdas/shared/aws/account-store.ts (DynamoDB table `accounts`).
// PaymentGateway and the webhook verifier: lambdas/shared/billing/stripe.ts (the stripe SDK). The event and
// checkout shapes below are the few facts billing needs, mapped from Stripe's objects in stripe.ts, so the
// processing code (service.ts) is tested without Stripe types.
import type { PaidPlan } from '../auth/keys';
import type { Account } from './account';
import type { BillingServiceId } from './catalogue';

/** What billing reads from a Checkout Session. */
export interface CheckoutFacts {
  sessionId: string;
  /** `complete`, `open` or `expired`. */
  status: string;
  /** `paid`, `unpaid` (an asynchronous method such as OXXO still pending) or `no_payment_required`. */
  paymentStatus: string;
  mode: string;
  customerId: string | null;
  email: string | null;
  subscriptionId: string | null;
  /** metadata.plan as set by GET /pay/checkout; undefined for sessions made elsewhere (dashboard, payment links). */
  plan: PaidPlan | undefined;
  ref: string | undefined;
  /** metadata.service: which service sold it (catalogue.ts); absent on narration's sessions. */
  service?: string;
}

export interface SubscriptionFacts {
  subscriptionId: string;
  customerId: string;
  status: string;
  currentPeriodEnd?: number;
  cancelAtPeriodEnd: boolean;
  /** metadata.service copied from the checkout (subscription_data.metadata); absent on narration's. */
  service?: string;
  /** items.data[0].price.id: the price billed now (changes when the plan is switched in the customer portal). */
  priceId?: string;
}

interface EventBase {
  id: string;
  type: string;
  /** Epoch seconds at which Stripe created the event. */
  created: number;
}

export type BillingEvent =
  | (EventBase & { kind: 'checkout'; session: CheckoutFacts })
  | (EventBase & { kind: 'subscription'; subscription: SubscriptionFacts })
  | (EventBase & { kind: 'ignored' });

/** One purchase (one completed Checkout Session). Kept for good: it is what stops a second key for a session. */
export interface PurchaseRecord {
  /** sessionRef(session id): the id itself is a pick-up credential and is not stored. */
  sessionRef: string;
  accountId: string;
  plan: PaidPlan;
  keyHash: string;
  keyPrefix: string;
  email?: string;
  ref?: string;
  createdAt: string;
}

/** The new key waiting to be picked up, sealed with the session id (pickup.ts). */
export interface PickupRecord {
  sessionRef: string;
  keyHash: string;
  keyPrefix: string;
  /** Absent once picked up. */
  sealed?: string;
  createdAt: string;
  /** Epoch seconds: end of the pick-up window (also the item's DynamoDB TTL). */
  expiresAt: number;
  pickedUpAt?: string;
}

export type PickupResult =
  | { state: 'picked'; pickup: PickupRecord & { sealed: string } }
  | { state: 'taken'; pickedUpAt?: string }
  | { state: 'expired' }
  | { state: 'missing' };

export interface PurchaseUpdate {
  accountId: string;
  email?: string;
  plan: PaidPlan;
  /** Pro only: the subscription Checkout created and a first status (subscription events then take over). */
  subscriptionId?: string;
  seedStatus?: string;
  ref?: string;
  /** The service that sold it (catalogue.ts), kept on the account. */
  service?: BillingServiceId;
  now: Date;
}

export interface SubscriptionUpdate extends Omit<SubscriptionFacts, 'service'> {
  /** The event's `created`: an update older than the stored one is ignored. */
  eventAt: number;
  /**
   * The subscription plan its price maps to (catalogue price settings); absent when unknown (the plan is kept).
   * Written with the status; a lifetime account still reports lifetime (accountPlan).
   */
  plan?: PaidPlan;
  /** The service acting on the event (set on the account if it has none yet). */
  service?: BillingServiceId;
  now: Date;
}

export type EventClaim = 'claimed' | 'done' | 'busy';

export interface AccountStore {
  get(accountId: string): Promise<Account | undefined>;
  /** Upserts the account of a completed checkout (never downgrades lifetime, never overwrites a known status). */
  recordPurchase(update: PurchaseUpdate): Promise<Account>;
  /**
   * Applies a subscription's state unless the account holds a newer one or the subscription already ended
   * (canceled / incomplete_expired are final). Returns the new account, or undefined when ignored as stale.
   */
  applySubscription(update: SubscriptionUpdate): Promise<Account | undefined>;
  addKey(accountId: string, keyHash: string): Promise<Account>;
  removeKey(accountId: string, keyHash: string): Promise<void>;
  linkEmail(email: string, accountId: string): Promise<void>;
  accountsForEmail(email: string): Promise<string[]>;

  /** Idempotency per Stripe event id: claimed (process it), done (a replay) or busy (another delivery holds it). */
  claimEvent(eventId: string, type: string, now: Date, leaseS: number): Promise<EventClaim>;
  completeEvent(eventId: string, now: Date): Promise<void>;
  /** Gives a claimed event back after a failure, so Stripe's retry processes it. */
  releaseEvent(eventId: string): Promise<void>;

  getPurchase(sessionRef: string): Promise<PurchaseRecord | undefined>;
  /** Writes the purchase unless one exists; returns the stored one. */
  putPurchase(purchase: PurchaseRecord): Promise<PurchaseRecord>;
  /** Creates the pick-up unless one exists for the session; returns the stored one (whose key wins). */
  createPickup(pickup: PickupRecord & { sealed: string }): Promise<PickupRecord>;
  /** Atomically takes the sealed key out: of concurrent callers exactly one gets `picked`. */
  takePickup(sessionRef: string, now: Date): Promise<PickupResult>;
}

export interface CheckoutRequest {
  plan: PaidPlan;
  priceId: string;
  /** Stamped as metadata.service on the session and its subscription or payment (catalogue.serviceStamp). */
  service?: string;
  email?: string;
  ref?: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/** The payment provider's API (Stripe). */
export interface PaymentGateway {
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** undefined when the provider does not know the session. */
  retrieveCheckout(sessionId: string): Promise<CheckoutFacts | undefined>;
  createPortal(customerId: string, returnUrl: string): Promise<{ url: string }>;
}
