// What narration sells through Stripe (its catalogue: pro and lifetime, the settings naming their prices, its webhook
// endpoint and public address), how its /pay routes behave (422 validation, A/B attribution of purchases), and its
// plans as GET /pay/status shows them. The /pay routes and the billing engine are lambdas/shared/billing.
import { stripeCatalogue, type BillingCatalogue, type StringSetting } from '../shared/billing/catalogue';
import type { PayRoutes } from '../shared/billing/routes';
import type { WindowRule } from '../shared/quota/windows';
import type { PaidPlan } from '../shared/auth/keys';
import type { Config } from './config';

export const NARRATION_BILLING: BillingCatalogue<StringSetting<Config>> = stripeCatalogue('narration', '', [
  'pro',
  'lifetime',
]);

/**
 * Narration: pro and lifetime, 422 validation (the shared default), A/B attribution of purchases. Buyers land on
 * the site's /gracias page (it picks up the key from GET /pay/success, which stays JSON) and come back to the
 * site's pricing.
 */
export const NARRATION_PAY: PayRoutes = {
  catalogue: NARRATION_BILLING,
  pages: { success: '/gracias', back: '/#precios' },
};

/**
 * The free tier's windows, per IP, as GET /pay/status reads them. The same counters as POST /convert/* charges
 * (use-cases/free-charge.ts freeRules; kept apart so the /pay functions do not bundle the conversion pipeline).
 */
export function freeTierRules(cfg: Config): WindowRule[] {
  return [
    { period: 'hour', limit: cfg.FREE_PER_HOUR },
    { period: 'day', limit: cfg.FREE_PER_DAY },
  ];
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
