// API keys: random 256-bit secrets shown once and stored only as SHA-256 hashes. A fast hash is the right tool
// for high-entropy random keys (nothing to brute-force); slow password hashes would only add latency per request.
import { createHash, randomBytes } from 'node:crypto';

export type PaidPlan = 'pro' | 'lifetime';
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
}

export interface KeyStore {
  put(record: ApiKeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  listByEmail(email: string): Promise<ApiKeyRecord[]>;
  revoke(keyHash: string, at: Date): Promise<boolean>;
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
