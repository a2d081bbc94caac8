// A short-lived, per-process cache of key records in front of a KeyStore: a warm container serving one key reads
// its record at most once per KEY_CACHE_TTL_MS instead of once per request (a DynamoDB GetItem: on the documents
// render path about an eighth of the CPU of a request, measured in bench/request-path.bench.ts).
// The bound this sets, and that docs/billing.md states: a key revoked or lapsed elsewhere (another function's
// container, the admin CLI, the Stripe webhook in another container) stops working on a warm container within
// KEY_CACHE_TTL_MS. Writes made through a cached store in this process (rotation, the Stripe webhook's billing copy)
// take effect at once: they drop the entry. Unknown keys are never cached (a key just issued works at once).
import type { ApiKeyRecord, KeyStore } from './keys';

/** How long a key record read from the table is trusted in this process. */
export const KEY_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/** One cache per process, shared by every cached store, so that a write through any of them drops the entry. */
const entries = new Map<string, { record: ApiKeyRecord; until: number }>();

/** Only for tests: forget every cached record. */
export function clearKeyCache(): void {
  entries.clear();
}

export function cachedKeyStore(store: KeyStore, ttlMs = KEY_CACHE_TTL_MS, now = Date.now): KeyStore {
  const forget = <T>(keyHash: string, write: Promise<T>): Promise<T> => {
    entries.delete(keyHash);
    // Also after the write: a read that started before it may have cached the old record meanwhile.
    return write.finally(() => entries.delete(keyHash));
  };
  return {
    async findByHash(keyHash) {
      const hit = entries.get(keyHash);
      if (hit && hit.until > now()) return hit.record;
      const record = await store.findByHash(keyHash);
      if (record) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(keyHash, { record, until: now() + ttlMs });
      } else entries.delete(keyHash);
      return record;
    },
    listByEmail: (email) => store.listByEmail(email),
    put: (record) => forget(record.keyHash, store.put(record)),
    putIfAbsent: (record) => forget(record.keyHash, store.putIfAbsent(record)),
    revoke: (keyHash, at, opts) => forget(keyHash, store.revoke(keyHash, at, opts)),
    syncBilling: (keyHash, state) => forget(keyHash, store.syncBilling(keyHash, state)),
  };
}
