// Documents plans (contract: Free 50, Pro 1,000, Scale 10,000 documents per month; Lifetime = Pro forever).
// Months are calendar months in UTC: the count resets at 00:00 UTC on the 1st (RateLimit-Reset says when).
import type { Caller } from '../../shared/auth/resolve-caller';
import type { WindowRule } from '../../shared/quota/windows';

export type DocumentsPlan = 'free' | 'pro' | 'scale' | 'lifetime';

export interface PlanInfo {
  id: DocumentsPlan;
  name: string;
  price_usd: number;
  billing: 'free' | 'monthly' | 'once';
  documents_per_month: number;
  scope: 'ip' | 'account';
  features: string[];
}

export const PLANS: readonly PlanInfo[] = [
  {
    id: 'free',
    name: 'Free',
    price_usd: 0,
    billing: 'free',
    documents_per_month: 50,
    scope: 'ip',
    features: ['No signup', 'A subtle watermark on PDFs', 'All built-in templates and formats'],
  },
  {
    id: 'pro',
    name: 'Pro',
    price_usd: 9,
    billing: 'monthly',
    documents_per_month: 1000,
    scope: 'account',
    features: ['No watermark', 'Custom templates (custom_html)', 'API key'],
  },
  {
    id: 'scale',
    name: 'Scale',
    price_usd: 29,
    billing: 'monthly',
    documents_per_month: 10000,
    scope: 'account',
    features: ['Everything in Pro', 'Webhooks', 'Priority queue', 'Dedicated support'],
  },
  {
    id: 'lifetime',
    name: 'Lifetime',
    price_usd: 49,
    billing: 'once',
    documents_per_month: 1000,
    scope: 'account',
    features: ['Pro features for life'],
  },
];

export function planOf(caller: Caller): DocumentsPlan {
  if (caller.kind === 'anonymous') return 'free';
  return caller.key.plan;
}

export function monthlyRules(plan: DocumentsPlan): WindowRule[] {
  return [{ period: 'month', limit: PLANS.find((p) => p.id === plan)!.documents_per_month }];
}

/**
 * Counters of the documents service live apart from narration's (a prefix per service). Paid allowances are per
 * account (contract): keys of one account share one counter, so rotating a key does not reset the month. Keys made
 * by the admin CLI without an account count on their own.
 */
export function quotaSubject(caller: Caller): string {
  if (caller.kind === 'key' && caller.key.accountId) return `docs#acct#${caller.key.accountId}`;
  return `docs#${caller.subject}`;
}

/**
 * CFDI batches per plan (POST /v1/batches): how many files one batch may hold, how large its zip may be, and how
 * many of its parts (20 CFDI each) render at once. The free plan (no key: the batch belongs to the address that
 * started it) tries the feature on a few invoices, watermarked; paid plans print a month, Scale a big month fast.
 * The queue's maxConcurrency (routes.ts) bounds all batches together.
 */
export interface BatchLimits {
  maxFiles: number;
  maxZipBytes: number;
  parallelParts: number;
}

const MIB = 1024 * 1024;

export const BATCH_LIMITS: Readonly<Record<DocumentsPlan, BatchLimits>> = {
  free: { maxFiles: 10, maxZipBytes: 2 * MIB, parallelParts: 1 },
  pro: { maxFiles: 1000, maxZipBytes: 100 * MIB, parallelParts: 10 },
  lifetime: { maxFiles: 1000, maxZipBytes: 100 * MIB, parallelParts: 10 },
  scale: { maxFiles: 5000, maxZipBytes: 100 * MIB, parallelParts: 50 },
};
