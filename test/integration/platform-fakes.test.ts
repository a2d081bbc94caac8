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

  test('held charges: a commit keeps it; a hold past its time (its process died) is given back once, by the next charge; a commit after that charges once more', async () => {
    const q = make();
    const who = `ip#${randomUUID()}`;
    const month: WindowRule[] = [{ period: 'month', limit: 2 }];
    const used = async () => (await q.peek(who, month, T0))[0]!.used;
    const nowS = Math.floor(Date.now() / 1000);
    const live = (id: string) => ({ hold: { id, untilS: nowS + 600 } });
    const dead = (id: string) => ({ hold: { id, untilS: nowS - 1 } });
    // Delivered: committed, and a refund after the commit gives nothing back.
    const a = await q.consume(who, month, T0, live('a'));
    expect(a).toMatchObject({ allowed: true, hold: 'a' });
    await q.commit(a);
    await q.refund(a);
    expect(await used()).toBe(1);
    // A render whose process died holds the window's last unit (not usage once past its time); the next charge
    // gives it back and fits.
    const gone = await q.consume(who, month, T0, dead('gone'));
    expect(await used()).toBe(1);
    const c = await q.consume(who, month, T0, live('c'));
    expect(c.allowed).toBe(true);
    expect(await used()).toBe(2);
    // Given back once: its own refund, late, gives nothing more; a held charge's refund counts once too.
    await q.refund(gone);
    expect(await used()).toBe(2);
    await q.refund(c);
    await q.refund(c);
    expect(await used()).toBe(1);
    // Work that outlived its hold (given back by another charge meanwhile) and then delivered: charged again, once
    // per charge id (past the limit: it was admitted).
    const late = await q.consume(who, month, T0, { id: 'late', ...dead('late') });
    expect((await q.consume(who, month, T0, live('d'))).allowed).toBe(true);
    expect(await used()).toBe(2);
    await q.commit(late);
    await q.commit(late);
    expect(await used()).toBe(3);
  });

  test('a held charge given back (its work failed) leaves a mark: the acceptance that commits after it charges nothing, a delivery charges it again once; the mark expires without changing the count', async () => {
    const q = make();
    const who = `ip#${randomUUID()}`;
    const month: WindowRule[] = [{ period: 'month', limit: 5 }];
    const used = async () => (await q.peek(who, month, T0))[0]!.used;
    const nowS = Math.floor(Date.now() / 1000);
    const held = (id: string, untilS = nowS + 600) => ({ id, hold: { id, untilS } });
    // An async render's worker failed its job before the route committed the 202: given back once, and the
    // route's commit (it only accepted the work) charges nothing. Before the mark, it charged the failed render.
    const failed = await q.consume(who, month, T0, held('failed'));
    await q.refund(failed);
    await q.refund(failed);
    expect(await used()).toBe(0);
    await q.commit(failed, { unlessRefunded: true });
    expect(await used()).toBe(0);
    expect(await q.hasCharge!(who, month, T0, 'failed')).toBe(false);
    // Delivered after another attempt gave the charge back: a delivery's commit charges it again, once.
    const delivered = await q.consume(who, month, T0, held('delivered'));
    await q.refund(delivered);
    await q.commit(delivered);
    await q.commit(delivered);
    expect(await used()).toBe(1);
    expect(await q.hasCharge!(who, month, T0, 'delivered')).toBe(true);
    // A mark past its time, its id charged again since (unheld): the next held charge removes the mark and leaves
    // that charge as it is.
    const gone = await q.consume(who, month, T0, held('gone', nowS - 1));
    await q.refund(gone);
    await q.consume(who, month, T0, { id: 'gone' });
    expect(await used()).toBe(2);
    await q.consume(who, month, T0, held('next'));
    expect(await used()).toBe(3);
    expect(await q.hasCharge!(who, month, T0, 'gone')).toBe(true);
    await q.commit(gone, { unlessRefunded: true }); // its mark gone with its time: charged once, by its id
    expect(await used()).toBe(3);
  });
});

test('DynamoDB: the local runtime’s start gives back every hold in the table, and only holds', async () => {
  const q = new DynamoQuotaStore(dynamo(), emu.tableNames.quotas);
  const who = `ip#${randomUUID()}`;
  const month: WindowRule[] = [{ period: 'month', limit: 5 }];
  const untilS = Math.floor(Date.now() / 1000) + 600;
  const delivered = await q.consume(who, month, T0, { hold: { id: 'delivered', untilS } });
  await q.commit(delivered);
  await q.consume(who, month, T0, { id: 'keyed', hold: { id: 'keyed', untilS } });
  await q.consume(who, month, T0, { hold: { id: 'plain', untilS } });
  await q.consume(who, month, T0, { id: 'unheld' });
  expect((await q.peek(who, month, T0))[0]!.used).toBe(4);
  expect(await q.releaseAllHolds()).toBeGreaterThanOrEqual(2); // other tests' holds in the table too
  expect((await q.peek(who, month, T0))[0]!.used).toBe(2);
  expect(await q.hasCharge(who, month, T0, 'keyed')).toBe(false);
  expect(await q.hasCharge(who, month, T0, 'unheld')).toBe(true);
  expect(await q.releaseAllHolds()).toBe(0);
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
