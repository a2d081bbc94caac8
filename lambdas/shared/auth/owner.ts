// What a key's resources (documents jobs, narration audio, webhook endpoints) belong to.
import type { ApiKeyRecord } from './keys';

/**
 * The billing account of the key (every key of the account, including one that replaced a rotated key, sees
 * them), or the key itself for keys made without an account (admin CLI).
 */
export function ownerOf(key: ApiKeyRecord): string {
  return key.accountId ? `acct:${key.accountId}` : `key:${key.keyHash.slice(0, 32)}`;
}
