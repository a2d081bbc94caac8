// lambdas/shared/auth/key-cache.ts: a key record read once is trusted for the TTL in this process, then read again
// (the revocation bound docs/billing.md states); writes through any cached store drop the entry at once; unknown
// keys are never cached. A counting in-memory store and a hand-moved clock: no sleeps, no timing.
import { cachedKeyStore, clearKeyCache } from '../../lambdas/shared/auth/key-cache';
import type { ApiKeyRecord, KeyStore } from '../../lambdas/shared/auth/keys';

function memoryStore() {
  const rows = new Map<string, ApiKeyRecord>();
  const reads = { n: 0 };
  const store: KeyStore = {
    put: async (r) => void rows.set(r.keyHash, r),
    putIfAbsent: async (r) => (rows.has(r.keyHash) ? false : (rows.set(r.keyHash, r), true)),
    findByHash: async (h) => {
      reads.n++;
      const r = rows.get(h);
      return r && { ...r };
    },
    listByEmail: async (e) => [...rows.values()].filter((r) => r.email === e),
    revoke: async (h, at) => {
      const r = rows.get(h);
      if (!r) return false;
      rows.set(h, { ...r, status: 'revoked', revokedAt: at.toISOString() });
      return true;
    },
    syncBilling: async (h, s) => {
      const r = rows.get(h);
      if (!r) return false;
      rows.set(h, { ...r, plan: s.plan, billingStatus: s.billingStatus, accountVersion: s.accountVersion });
      return true;
    },
  };
  return { store, rows, reads };
}

const record = (keyHash: string): ApiKeyRecord => ({
  keyHash,
  keyPrefix: 'key_abcdef',
  plan: 'pro',
  status: 'active',
  email: 'ana@example.com',
  createdAt: '2026-01-01T00:00:00.000Z',
});

beforeEach(() => clearKeyCache());

test('a record is read once per TTL: repeated lookups inside it do not reach the store', async () => {
  const { store, rows, reads } = memoryStore();
  rows.set('h1', record('h1'));
  let now = 1_000_000;
  const cached = cachedKeyStore(store, 30_000, () => now);
  for (let i = 0; i < 5; i++) expect((await cached.findByHash('h1'))?.status).toBe('active');
  expect(reads.n).toBe(1);
  now += 29_999;
  await cached.findByHash('h1');
  expect(reads.n).toBe(1);
  now += 1;
  await cached.findByHash('h1');
  expect(reads.n).toBe(2);
});

test('a key revoked elsewhere (not through this process) stops working when the TTL runs out', async () => {
  const { store, rows } = memoryStore();
  rows.set('h1', record('h1'));
  let now = 0;
  const cached = cachedKeyStore(store, 30_000, () => now);
  await cached.findByHash('h1');
  await store.revoke('h1', new Date()); // another container or the admin CLI: the cache cannot see it
  now += 10_000;
  expect((await cached.findByHash('h1'))?.status).toBe('active'); // inside the documented bound
  now += 20_000;
  expect((await cached.findByHash('h1'))?.status).toBe('revoked');
});

test('revoke, billing sync and put through any cached store take effect at once in this process', async () => {
  const { store, rows } = memoryStore();
  rows.set('h1', record('h1'));
  rows.set('h2', record('h2'));
  const now = () => 0;
  const reader = cachedKeyStore(store, 30_000, now);
  const writer = cachedKeyStore(store, 30_000, now); // e.g. the rotation route's deps, another instance
  await reader.findByHash('h1');
  await reader.findByHash('h2');
  expect(await writer.revoke('h1', new Date(), { onlyIfActive: true })).toBe(true);
  expect((await reader.findByHash('h1'))?.status).toBe('revoked');
  await writer.syncBilling('h2', { plan: 'pro', billingStatus: 'canceled', accountVersion: 2 });
  expect((await reader.findByHash('h2'))?.billingStatus).toBe('canceled');
  await reader.findByHash('h3');
  await writer.put(record('h3'));
  expect((await reader.findByHash('h3'))?.status).toBe('active');
});

test('unknown keys are not cached: a key issued after a miss works on the next request', async () => {
  const { store, rows, reads } = memoryStore();
  const cached = cachedKeyStore(store, 30_000, () => 0);
  expect(await cached.findByHash('new')).toBeUndefined();
  rows.set('new', record('new'));
  expect((await cached.findByHash('new'))?.status).toBe('active');
  expect(reads.n).toBe(2);
});
