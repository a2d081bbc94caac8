// BillingDeps from a service's deps: the stores, the clock, and A/B attribution of a purchase's `ref` (a checkout
// that started from an experiment's variant counts as that variant's conversion, once per Checkout Session).
import type { KeyStore } from '../auth/keys';
import type { PlatformConfig as Config } from '../config';
import type { GrowthStore } from '../growth/ports';
import { logger } from '../logger';
import type { BillingCatalogue } from './catalogue';
import type { AccountStore } from './ports';
import type { BillingDeps } from './service';

export interface BillingSources {
  readonly config: Config;
  readonly accounts: AccountStore;
  readonly keys: KeyStore;
  /** Read only when a purchase carries an A/B reference. */
  readonly growth?: GrowthStore;
  now(): Date;
}

/**
 * `catalogue`: what the service sells (its lambdas/<service>/billing.ts). `abAttribution: false` (a service without A/B
 * experiments): a purchase's ref is kept on the purchase only and the growth store is never read.
 */
export function billingDeps(
  src: BillingSources,
  catalogue: BillingCatalogue,
  opts: { abAttribution?: boolean } = {},
): BillingDeps {
  // Getters: a store is made only if the use case touches it (an ignored event touches none).
  return {
    catalogue,
    get config() {
      return src.config;
    },
    get accounts() {
      return src.accounts;
    },
    get keys() {
      return src.keys;
    },
    now: () => src.now(),
    async onPurchase(purchase) {
      if (!purchase.ref?.startsWith('ab:')) return;
      try {
        // A service without A/B experiments passes no growth store: the ref stays on the purchase only.
        const growth = opts.abAttribution === false ? undefined : src.growth;
        if (!growth) return;
        const { recordConversion } = await import('../growth/ab');
        // The session ref (a hash) makes a retried fulfilment count once; the session id itself stays secret.
        await recordConversion(growth, purchase.ref, {
          experiments: src.config.AB_EXPERIMENTS,
          channel: 'checkout',
          dedupeKey: purchase.sessionRef,
        });
      } catch (err) {
        logger.error('A/B attribution of a purchase failed', { error: err as Error });
      }
    },
  };
}
