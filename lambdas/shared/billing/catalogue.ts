// What each service sells through Stripe: its paid plans, the settings that name their Stripe prices, and the
// settings of its own webhook endpoint and public address. The billing code (service.ts, stripe.ts, routes.ts) is
// one implementation; the service's catalogue is its parameter. Pure data: no I/O, no Stripe.
//
// Both services may sell from ONE Stripe account, so Stripe sends every event to both webhook endpoints. Checkouts
// (and the subscriptions they create) carry `metadata.service`; a service acts only on its own. Narration sold
// before this existed and never stamps its sessions, so a missing `service` means narration (LEGACY_SERVICE).
import type { PaidPlan } from '../auth/keys';
import type { Config } from '../config';
import { checkoutMode } from './plans';

/** Config settings whose value is a string (optional or not): price ids, secrets, URLs. */
export type StringSetting = {
  [K in keyof Config]-?: Config[K] extends string | undefined ? K : never;
}[keyof Config];

export type BillingServiceId = 'narration' | 'documents';

export interface PaidOffer {
  plan: PaidPlan;
  /** Setting holding the Stripe price id: a recurring monthly price for subscriptions, one-time for lifetime. */
  priceSetting: StringSetting;
}

export interface BillingCatalogue {
  service: BillingServiceId;
  /** The plans GET /pay/checkout/{plan} sells, in display order. */
  offers: readonly PaidOffer[];
  settings: {
    /** Signing secret of this service's webhook endpoint. */
    webhookSecret: StringSetting;
    /** Public address of this API (Checkout's success_url); unset → the request's host. */
    publicBaseUrl: StringSetting;
    /** Where Checkout's back button and the portal return; unset → <public base>/pay/status. */
    returnUrl: StringSetting;
  };
}

/** The service of sessions and subscriptions without `metadata.service` (narration's, made before the stamp). */
export const LEGACY_SERVICE: BillingServiceId = 'narration';

export const NARRATION_BILLING: BillingCatalogue = {
  service: 'narration',
  offers: [
    { plan: 'pro', priceSetting: 'STRIPE_PRICE_PRO' },
    { plan: 'lifetime', priceSetting: 'STRIPE_PRICE_LIFETIME' },
  ],
  settings: {
    webhookSecret: 'STRIPE_WEBHOOK_SECRET',
    publicBaseUrl: 'PUBLIC_BASE_URL',
    returnUrl: 'BILLING_RETURN_URL',
  },
};

export const DOCUMENTS_BILLING: BillingCatalogue = {
  service: 'documents',
  offers: [
    { plan: 'pro', priceSetting: 'DOCS_STRIPE_PRICE_PRO' },
    { plan: 'scale', priceSetting: 'DOCS_STRIPE_PRICE_SCALE' },
    { plan: 'lifetime', priceSetting: 'DOCS_STRIPE_PRICE_LIFETIME' },
  ],
  settings: {
    webhookSecret: 'DOCS_STRIPE_WEBHOOK_SECRET',
    publicBaseUrl: 'DOCS_PUBLIC_BASE_URL',
    returnUrl: 'DOCS_BILLING_RETURN_URL',
  },
};

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
export function setting(cfg: Config, name: StringSetting): string | undefined {
  const v = cfg[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The subscription plan of this service billed at a Stripe price (its offers' price settings), or undefined for
 * a price it does not sell as a subscription (another service's, a lifetime price, an unset setting).
 */
export function subscriptionPlanOfPrice(
  cat: BillingCatalogue,
  cfg: Config,
  priceId: string,
): PaidPlan | undefined {
  return cat.offers.find(
    (o) => checkoutMode(o.plan) === 'subscription' && setting(cfg, o.priceSetting) === priceId,
  )?.plan;
}
