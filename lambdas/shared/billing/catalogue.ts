// What each service sells through Stripe: its paid plans, the settings that name their Stripe prices, and the
// settings of its own webhook endpoint and public address. The billing code (service.ts, stripe.ts, handlers.ts) is
// one implementation; the service's catalogue (lambdas/<service>/billing.ts) is its parameter. No I/O, no Stripe.
//
// Both services may sell from ONE Stripe account, so Stripe sends every event to both webhook endpoints. Checkouts
// (and the subscriptions they create) carry `metadata.service`; a service acts only on its own. Narration sold
// before this existed and never stamps its sessions, so a missing `service` means narration (LEGACY_SERVICE).
import type { PaidPlan } from '../auth/keys';
import { checkoutMode } from '../auth/paid-access';

/** The settings of a service's config `C` whose value is a string (optional or not): price ids, secrets, URLs. */
export type StringSetting<C> = {
  [K in keyof C]-?: C[K] extends string | undefined ? K : never;
}[keyof C] &
  string;

export type BillingServiceId = 'narration' | 'documents';

export interface PaidOffer<S extends string = string> {
  plan: PaidPlan;
  /** Setting holding the Stripe price id: a recurring monthly price for subscriptions, one-time for lifetime. */
  priceSetting: S;
}

/**
 * A service's catalogue (lambdas/<service>/billing.ts). `S`: the names of its settings, `StringSetting<its Config>`
 * there, so a misspelt setting does not compile.
 */
export interface BillingCatalogue<S extends string = string> {
  service: BillingServiceId;
  /** The plans GET /pay/checkout/{plan} sells, in display order. */
  offers: readonly PaidOffer<S>[];
  settings: {
    /** Signing secret of this service's webhook endpoint. */
    webhookSecret: S;
    /** Public address of this API (Checkout's success_url); unset → the request's host. */
    publicBaseUrl: S;
    /** Where Checkout's back button and the portal return; unset → <public base>/pay/status. */
    returnUrl: S;
  };
}

type HouseSetting<Prefix extends string, Plan extends string> =
  | `${Prefix}STRIPE_PRICE_${Uppercase<Plan>}`
  | `${Prefix}${'STRIPE_WEBHOOK_SECRET' | 'PUBLIC_BASE_URL' | 'BILLING_RETURN_URL'}`;

/**
 * A catalogue whose settings follow the house names, `prefix` first: `STRIPE_PRICE_<PLAN>` per plan (in display
 * order), `STRIPE_WEBHOOK_SECRET`, `PUBLIC_BASE_URL`, `BILLING_RETURN_URL`.
 */
export function stripeCatalogue<const Prefix extends string, const Plan extends PaidPlan>(
  service: BillingServiceId,
  prefix: Prefix,
  plans: readonly Plan[],
): BillingCatalogue<HouseSetting<Prefix, Plan>> {
  return {
    service,
    offers: plans.map((plan) => ({
      plan,
      priceSetting: `${prefix}STRIPE_PRICE_${plan.toUpperCase() as Uppercase<Plan>}` as const,
    })),
    settings: {
      webhookSecret: `${prefix}STRIPE_WEBHOOK_SECRET`,
      publicBaseUrl: `${prefix}PUBLIC_BASE_URL`,
      returnUrl: `${prefix}BILLING_RETURN_URL`,
    },
  };
}

/** The service of sessions and subscriptions without `metadata.service` (narration's, made before the stamp). */
export const LEGACY_SERVICE: BillingServiceId = 'narration';

export function offeredPlans(cat: BillingCatalogue): PaidPlan[] {
  return cat.offers.map((o) => o.plan);
}

/** Whether a session or subscription with this `metadata.service` belongs to the catalogue's service. */
export function ownsService(cat: BillingCatalogue, service: string | undefined): boolean {
  return (service || LEGACY_SERVICE) === cat.service;
}

/** The `metadata.service` stamped on this service's checkouts; none for narration (its sessions never had one). */
export function serviceStamp(cat: BillingCatalogue): string | undefined {
  return cat.service === LEGACY_SERVICE ? undefined : cat.service;
}

/** A string setting's value; empty counts as unset. */
export function setting(cfg: object, name: string): string | undefined {
  const v = (cfg as Record<string, unknown>)[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The subscription plan of this service billed at a Stripe price (its offers' price settings), or undefined for
 * a price it does not sell as a subscription (another service's, a lifetime price, an unset setting).
 */
export function subscriptionPlanOfPrice(
  cat: BillingCatalogue,
  cfg: object,
  priceId: string,
): PaidPlan | undefined {
  return cat.offers.find(
    (o) => checkoutMode(o.plan) === 'subscription' && setting(cfg, o.priceSetting) === priceId,
  )?.plan;
}
