// The platform fakes (test/fakes/platform.ts) and their DynamoDB adapters against the emulator, through one contract
// each: what a use-case unit test sees from a fake is what the adapter does.
import { randomUUID } from 'node:crypto';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoGrowthStore } from '../../lambdas/shared/aws/growth-store';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import type { ApiKeyRecord, KeyStore } from '../../lambdas/shared/auth/keys';
import type { GrowthStore } from '../../lambdas/shared/growth/ports';
import type { QuotaStore, WindowRule } from '../../lambdas/shared/quota/windows';
import { FakeGrowthStore, FakeKeyStore, FakeQuotaStore } from '../fakes/platform';
import { withEmulators } from '../helpers/env';

jest.setTimeout(60_000);

let emu: Awaited<ReturnType<typeof withEmulators>>;
beforeAll(async () => {
  emu = await withEmulators();
});
afterAll(async () => {
  await emu?.cleanup();
});

const T0 = new Date('2026-11-21T10:30:00Z');
const RULES: WindowRule[] = [
  { period: 'hour', limit: 2 },
  { period: 'day', limit: 3 },
];

describe.each<[string, () => QuotaStore]>([
  ['fake', () => new FakeQuotaStore()],
  ['DynamoDB', () => new DynamoQuotaStore(dynamo(), emu.tableNames.quotas)],
])('QuotaStore contract: %s', (_name, make) => {
  test('charges every window up to its limit, refuses without charging, refunds what was charged', async () => {
    const q = make();
    const who = `ip#${randomUUID()}`;
    const a = await q.consume(who, RULES, T0);
    expect(a).toMatchObject({ allowed: true, binding: { period: 'hour', remaining: 1 } });
    expect((await q.consume(who, RULES, T0)).allowed).toBe(true);
    const refused = await q.consume(who, RULES, T0);
    expect(refused).toMatchObject({ allowed: false, charged: [], binding: { period: 'hour', remaining: 0 } });
    expect((await q.peek(who, RULES, T0)).map((w) => w.used)).toEqual([2, 2]);
    // Next hour: the day window (3) is what refuses after one more.
    const later = new Date(T0.getTime() + 3600_000);
    expect((await q.consume(who, RULES, later)).allowed).toBe(true);
    expect(await q.consume(who, RULES, later)).toMatchObject({ allowed: false, binding: { period: 'day' } });
    expect((await q.peek(who, RULES, later)).map((w) => w.used)).toEqual([1, 3]);
    await q.refund(a);
    await q.refund(refused); // charged nothing: gives nothing back
    expect((await q.peek(who, RULES, T0)).map((w) => w.used)).toEqual([1, 2]);
  });

  test('units: all or nothing per charge, once per id; a partial refund with the id gives back once', async () => {
    const q = make();
    const who = `ip#${randomUUID()}`;
    const month: WindowRule[] = [{ period: 'month', limit: 10 }];
    expect(await q.consume(who, month, T0, { units: 11, id: 'big' })).toMatchObject({ allowed: false });
    expect((await q.peek(who, month, T0))[0]!.used).toBe(0);
    const a = await q.consume(who, month, T0, { units: 7, id: 'batch-a' });
    expect(a).toMatchObject({ allowed: true, units: 7, binding: { remaining: 3 } });
    // The same id again (a redelivered step) charges nothing more; 4 more do not fit in the 3 left.
    expect((await q.consume(who, month, T0, { units: 7, id: 'batch-a' })).allowed).toBe(true);
    expect((await q.consume(who, month, T0, { units: 4, id: 'batch-b' })).allowed).toBe(false);
    expect((await q.peek(who, month, T0))[0]!.used).toBe(7);
    // Two of the seven failed: given back once, however often the refund runs.
    await q.refund({ ...a, units: 2 });
    await q.refund({ ...a, units: 2 });
    expect((await q.peek(who, month, T0))[0]!.used).toBe(5);
  });
});

describe.each<[string, () => KeyStore]>([
  ['fake', () => new FakeKeyStore()],
  ['DynamoDB', () => new DynamoKeyStore(dynamo(), emu.tableNames.keys)],
])('KeyStore contract: %s', (_name, make) => {
  test('created once; revoked once when only-if-active; billing copies never go back', async () => {
    const keys = make();
    const email = `${randomUUID()}@example.com`;
    const key: ApiKeyRecord = {
      keyHash: randomUUID(),
      keyPrefix: 'key_AbC1',
      plan: 'pro',
      status: 'active',
      email,
      createdAt: T0.toISOString(),
      accountId: 'cus_1',
    };
    await keys.put(key);
    await expect(keys.put(key)).rejects.toThrow();
    expect(await keys.putIfAbsent({ ...key, plan: 'scale' })).toBe(false);
    expect(await keys.findByHash(key.keyHash)).toEqual(key);
    expect((await keys.listByEmail(email)).map((k) => k.keyHash)).toEqual([key.keyHash]);
    expect(
      await keys.syncBilling(key.keyHash, { plan: 'scale', billingStatus: 'active', accountVersion: 2 }),
    ).toBe(true);
    expect(
      await keys.syncBilling(key.keyHash, { plan: 'pro', billingStatus: 'past_due', accountVersion: 1 }),
    ).toBe(false);
    expect(await keys.syncBilling('nope', { plan: 'pro', billingStatus: 'active', accountVersion: 9 })).toBe(
      false,
    );
    expect(await keys.findByHash(key.keyHash)).toMatchObject({ plan: 'scale', accountVersion: 2 });
    expect(await keys.revoke(key.keyHash, T0, { onlyIfActive: true })).toBe(true);
    expect(await keys.revoke(key.keyHash, T0, { onlyIfActive: true })).toBe(false);
    expect(await keys.findByHash(key.keyHash)).toMatchObject({
      status: 'revoked',
      revokedAt: T0.toISOString(),
    });
    expect(await keys.revoke('nope', T0)).toBe(false);
  });
});

describe.each<[string, () => GrowthStore]>([
  ['fake', () => new FakeGrowthStore()],
  ['DynamoDB', () => new DynamoGrowthStore(dynamo(), emu.tableNames.growth)],
])('GrowthStore contract: %s', (_name, make) => {
  test('putIfAbsent creates once; add counts from zero and sets setOnce attributes only once', async () => {
    const g = make();
    const pk = `test#${randomUUID()}`;
    expect(await g.putIfAbsent(pk, { at: 'x' })).toBe(true);
    expect(await g.putIfAbsent(pk, { at: 'y' })).toBe(false);
    const counter = `count#${randomUUID()}`;
    expect(await g.add(counter, { a: 2, b: 1 }, { first: 'one' })).toEqual({ a: 2, b: 1 });
    expect(await g.add(counter, { a: 3 }, { first: 'two' })).toEqual({ a: 5 });
    const got = await g.getMany([pk, counter, 'missing#1']);
    expect(got.get(pk)).toMatchObject({ at: 'x' });
    expect(got.get(counter)).toMatchObject({ a: 5, b: 1, first: 'one' });
    expect(got.has('missing#1')).toBe(false);
  });
});
