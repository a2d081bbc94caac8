// API keys: random 256-bit secrets shown once and stored only as SHA-256 hashes. A fast hash is the right tool
// for high-entropy random keys (nothing to brute-force); slow password hashes would only add latency per request.
import { createHash, randomBytes } from 'node:crypto';

/** Paid plans across both services (scale is a Documents plan). */
export type PaidPlan = 'pro' | 'lifetime' | 'scale';
export type KeyStatus = 'active' | 'revoked';

export interface ApiKeyRecord {
  keyHash: string;
  /** First characters of the key, safe to show in listings ("key_AbC1…"). */
  keyPrefix: string;
  plan: PaidPlan;
  status: KeyStatus;
  email: string;
  createdAt: string;
  revokedAt?: string;
  /**
   * Keys issued by billing: the account (Stripe customer id) they belong to, and a copy of its billing state kept
   * current by the Stripe webhook (lambdas/shared/billing). The copy lets resolveCaller decide with the one read
   * it already makes; `accountVersion` orders the copies so an older state never overwrites a newer one.
   * Absent on keys made by the admin CLI without an account: those are paid until revoked.
   */
  accountId?: string;
  billingStatus?: string;
  accountVersion?: number;
}

/** The account state copied onto its keys. */
export type KeyBillingState = Required<Pick<ApiKeyRecord, 'plan' | 'billingStatus' | 'accountVersion'>>;

export interface KeyStore {
  put(record: ApiKeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  listByEmail(email: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; with `onlyIfActive`, false when it was already revoked (a concurrent rotation won). */
  revoke(keyHash: string, at: Date, opts?: { onlyIfActive?: boolean }): Promise<boolean>;
  /** Stores a new key unless one with this hash exists; false when it did (a retried issue). */
  putIfAbsent(record: ApiKeyRecord): Promise<boolean>;
  /** Copies an account's billing state onto the key unless the key holds a newer copy or does not exist. */
  syncBilling(keyHash: string, state: KeyBillingState): Promise<boolean>;
}

export const KEY_PREFIX = 'key_';

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Extracts the token of `Authorization: Bearer <token>`; undefined when no Authorization header is sent. */
export function bearerToken(authorization: string | undefined): string | undefined | null {
  if (authorization === undefined || authorization.trim() === '') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
  return m ? m[1]! : null;
}
