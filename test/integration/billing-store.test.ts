// Billing against the DynamoDB emulator: the single-item conditional writes that make Stripe events idempotent
// and order-tolerant, the exactly-once key pick-up, and repair of a crash between two writes by Stripe's retry.
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { hashKey, type KeyBillingState, type KeyStore } from '../../lambdas/shared/auth/keys';
import { resolveCaller } from '../../lambdas/shared/auth/resolve-caller';
import { DynamoAccountStore } from '../../lambdas/shared/aws/account-store';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { parseConfig as parseDocumentsConfig } from '../../lambdas/documents/config';
import { parseConfig } from '../../lambdas/narration/config';
import { sessionRef, sealKey } from '../../lambdas/shared/billing/pickup';
import type { BillingEvent, CheckoutFacts } from '../../lambdas/shared/billing/ports';
import {
  fulfilCheckout,
  pickUpKey,
  processEvent,
  replaceKeysForEmail,
  rotateKey,
  subscriptionInGoodStanding,
  type BillingDeps,
} from '../../lambdas/shared/billing/service';
import { keyStateOf } from '../../lambdas/shared/billing/account';
import { DOCUMENTS_BILLING } from '../../lambdas/documents/billing';
import { NARRATION_BILLING } from '../../lambdas/narration/billing';
import { DomainError } from '../../lambdas/shared/errors';
import { withEmulators } from '../helpers/env';
import { rejectsAsHttp } from '../helpers/as-http';

jest.setTimeout(60_000);

let emu: Awaited<ReturnType<typeof withEmulators>>;
let accounts: DynamoAccountStore;
let keys: DynamoKeyStore;
const config = parseConfig({});

beforeAll(async () => {
  emu = await withEmulators();
  accounts = new DynamoAccountStore(dynamo(), emu.tableNames.accounts);
  keys = new DynamoKeyStore(dynamo(), emu.tableNames.keys);
});
afterAll(async () => emu.cleanup());

let n = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}${(n++).toString(36)}`;

function deps(overrides: Partial<BillingDeps> = {}): BillingDeps {
  return { catalogue: NARRATION_BILLING, config, accounts, keys, now: () => new Date(), ...overrides };
}

function facts(over: Partial<CheckoutFacts> = {}): CheckoutFacts {
  return {
    sessionId: uid('cs_test'),
    status: 'complete',
    paymentStatus: 'paid',
    mode: 'subscription',
    customerId: uid('cus'),
    email: 'Cliente@Example.com',
    subscriptionId: uid('sub'),
    plan: 'pro',
    ref: undefined,
    ...over,
  };
}

const checkoutEvent = (f: CheckoutFacts, created = 1000): BillingEvent => ({
  id: uid('evt'),
  type: 'checkout.session.completed',
  created,
  kind: 'checkout',
  session: f,
});

const subEvent = (
  customerId: string,
  subscriptionId: string,
  status: string,
  created: number,
): BillingEvent => ({
  id: uid('evt'),
  type: 'customer.subscription.updated',
  created,
  kind: 'subscription',
  subscription: { customerId, subscriptionId, status, cancelAtPeriodEnd: false },
});

describe('event idempotency', () => {
  test('20 concurrent claims of one event id: exactly one wins; done is final; a crashed claim can be retaken', async () => {
    const id = uid('evt');
    const now = new Date();
    const claims = await Promise.all(Array.from({ length: 20 }, () => accounts.claimEvent(id, 't', now, 60)));
    expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c === 'busy')).toHaveLength(19);
    // The holder crashed: after its lease another delivery takes over.
    expect(await accounts.claimEvent(id, 't', new Date(now.getTime() + 30_000), 60)).toBe('busy');
    expect(await accounts.claimEvent(id, 't', new Date(now.getTime() + 61_000), 60)).toBe('claimed');
    await accounts.completeEvent(id, now);
    expect(await accounts.claimEvent(id, 't', new Date(now.getTime() + 999_000), 60)).toBe('done');
    await accounts.releaseEvent(id); // a late release never undoes a finished event
    expect(await accounts.claimEvent(id, 't', now, 60)).toBe('done');
    const item = await dynamo().send(
      new GetCommand({ TableName: emu.tableNames.accounts, Key: { pk: `evt#${id}` } }),
    );
    expect(item.Item!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
  });

  test('a failure releases the event so that Stripe’s retry processes it', async () => {
    const f = facts();
    const ev = checkoutEvent(f);
    const failing: KeyStore = Object.assign(Object.create(keys) as KeyStore, {
      putIfAbsent: async () => {
        throw new Error('DynamoDB unavailable');
      },
    });
    await expect(processEvent(deps({ keys: failing }), ev)).rejects.toThrow('DynamoDB unavailable');
    expect(await processEvent(deps(), ev)).toBe('processed');
    expect(await processEvent(deps(), ev)).toBe('duplicate');
    const view = await pickUpKey(deps(), f.sessionId, undefined);
    expect(view.api_key).toMatch(/^key_/);
  });
});

describe('subscription state only moves forward', () => {
  test.each([
    // [initial status, its created, incoming status, incoming created, same subscription?, applied?]
    ['active', 100, 'past_due', 101, true, true],
    ['past_due', 100, 'active', 100, true, true], // same second: arrival order
    ['past_due', 100, 'active', 99, true, false],
    ['canceled', 100, 'active', 200, true, false],
    ['incomplete_expired', 100, 'active', 200, true, false],
    ['canceled', 100, 'active', 200, false, true], // a new subscription after the old one ended
    ['canceled', 100, 'active', 50, false, false],
    ['active', 100, 'active', 200, false, false], // another subscription while one is live
  ])('%s@%d then %s@%d (same sub: %s) → applied %s', async (s1, t1, s2, t2, same, applied) => {
    const customerId = uid('cus');
    const sub = uid('sub');
    const now = new Date();
    const base = { customerId, cancelAtPeriodEnd: false, now };
    expect(
      await accounts.applySubscription({ ...base, subscriptionId: sub, status: s1, eventAt: t1 }),
    ).toBeDefined();
    const out = await accounts.applySubscription({
      ...base,
      subscriptionId: same ? sub : uid('sub'),
      status: s2,
      eventAt: t2,
    });
    expect(out !== undefined).toBe(applied);
    expect((await accounts.get(customerId))!.subscriptionStatus).toBe(applied ? s2 : s1);
  });

  test('a subscription event before the checkout: the checkout keeps its status, adds plan, e-mail and key', async () => {
    const f = facts();
    expect(await processEvent(deps(), subEvent(f.customerId!, f.subscriptionId!, 'past_due', 900))).toBe(
      'processed',
    );
    expect(await processEvent(deps(), checkoutEvent(f, 950))).toBe('processed');
    const account = (await accounts.get(f.customerId!))!;
    expect(account).toMatchObject({
      plan: 'pro',
      email: 'cliente@example.com',
      subscriptionStatus: 'past_due',
    });
    expect(account.keyHashes).toHaveLength(1);
    const key = (await keys.findByHash(account.keyHashes[0]!))!;
    expect(key).toMatchObject({ billingStatus: 'past_due', accountVersion: account.version, plan: 'pro' });
  });

  test('key copies refuse an older account version', async () => {
    const keyHash = hashKey(uid('key'));
    await keys.put({
      keyHash,
      keyPrefix: 'key_x',
      plan: 'pro',
      status: 'active',
      email: 'a@b.co',
      createdAt: 'x',
    });
    const state = (v: number, s: string): KeyBillingState => ({
      plan: 'pro',
      billingStatus: s,
      accountVersion: v,
    });
    expect(await keys.syncBilling(keyHash, state(5, 'canceled'))).toBe(true);
    expect(await keys.syncBilling(keyHash, state(4, 'active'))).toBe(false);
    expect(await keys.syncBilling(keyHash, state(5, 'active'))).toBe(false);
    expect((await keys.findByHash(keyHash))!.billingStatus).toBe('canceled');
    expect(await keys.syncBilling(hashKey('never-issued'), state(9, 'active'))).toBe(false);
    expect(await keys.findByHash(hashKey('never-issued'))).toBeUndefined();
  });

  test('a crash between the account write and the key copy is repaired by the retry of the same event', async () => {
    const f = facts();
    await processEvent(deps(), checkoutEvent(f, 1000));
    const key = (await pickUpKey(deps(), f.sessionId, undefined)).api_key!;
    const deleted: BillingEvent = {
      ...subEvent(f.customerId!, f.subscriptionId!, 'canceled', 2000),
      type: 'customer.subscription.deleted',
    };
    const crashing: KeyStore = Object.assign(Object.create(keys) as KeyStore, {
      syncBilling: async () => {
        throw new Error('Lambda timed out');
      },
    });
    await expect(processEvent(deps({ keys: crashing }), deleted)).rejects.toThrow('Lambda timed out');
    // The account already says canceled, the key still says active: paid access until the retry.
    expect((await accounts.get(f.customerId!))!.subscriptionStatus).toBe('canceled');
    await expect(resolveCaller({ authorization: `Bearer ${key}` }, '1.2.3.4', keys)).resolves.toMatchObject({
      kind: 'key',
    });
    expect(await processEvent(deps(), deleted)).toBe('stale'); // the account is already there...
    await expect(
      rejectsAsHttp(resolveCaller({ authorization: `Bearer ${key}` }, '1.2.3.4', keys)),
    ).resolves.toMatchObject({
      statusCode: 402, // ...and the key caught up
    });
  });
});

describe('only our checkouts grant plans', () => {
  test('no metadata.plan, or a plan that does not match the mode → ignored, no account', async () => {
    for (const f of [
      facts({ plan: undefined, mode: 'payment', subscriptionId: null }),
      facts({ plan: 'lifetime', mode: 'subscription' }),
    ]) {
      expect(await processEvent(deps(), checkoutEvent(f))).toBe('ignored');
      expect(await accounts.get(f.customerId!)).toBeUndefined();
    }
  });
});

describe('one key per purchase, picked up once', () => {
  test('5 concurrent fulfilments of one session (webhook retries + success pages) issue one key', async () => {
    const f = facts({ mode: 'payment', plan: 'lifetime', subscriptionId: null });
    const purchases = await Promise.all(Array.from({ length: 5 }, () => fulfilCheckout(deps(), f)));
    expect(new Set(purchases.map((p) => p.keyHash)).size).toBe(1);
    const account = (await accounts.get(f.customerId!))!;
    expect(account.keyHashes).toEqual([purchases[0]!.keyHash]);
    const all = await dynamo().send(new ScanCommand({ TableName: emu.tableNames.keys }));
    expect(all.Items!.filter((k) => k.accountId === f.customerId)).toHaveLength(1);
    expect(await accounts.accountsForEmail('cliente@example.com')).toContain(f.customerId);
  });

  test('20 concurrent pick-ups: one gets the sealed key, the others learn it was taken', async () => {
    const sessionId = uid('cs_test');
    const ref = sessionRef(sessionId);
    await accounts.createPickup({
      sessionRef: ref,
      keyHash: 'h',
      keyPrefix: 'key_abc',
      sealed: sealKey('key_secret', sessionId),
      createdAt: new Date().toISOString(),
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => accounts.takePickup(ref, new Date())));
    expect(results.filter((r) => r.state === 'picked')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'taken')).toHaveLength(19);
  });

  test('after the pick-up window the sealed copy is refused and removed', async () => {
    const sessionId = uid('cs_test');
    const ref = sessionRef(sessionId);
    await accounts.createPickup({
      sessionRef: ref,
      keyHash: 'h',
      keyPrefix: 'key_abc',
      sealed: sealKey('key_secret', sessionId),
      createdAt: new Date().toISOString(),
      expiresAt: Math.floor(Date.now() / 1000) + 60,
    });
    expect(await accounts.takePickup(ref, new Date(Date.now() + 61_000))).toEqual({ state: 'expired' });
    const item = await dynamo().send(
      new GetCommand({ TableName: emu.tableNames.accounts, Key: { pk: `pickup#${ref}` } }),
    );
    expect(item.Item).toBeDefined();
    expect(item.Item!.sealed).toBeUndefined();
    expect(await accounts.takePickup(ref, new Date())).toEqual({ state: 'expired' });
    expect(await accounts.takePickup(sessionRef('cs_never'), new Date())).toEqual({ state: 'missing' });
  });
});

describe('replacing keys', () => {
  test('5 concurrent rotations of one key: one new key, the others 409 and withdrawn', async () => {
    const f = facts({ mode: 'payment', plan: 'lifetime', subscriptionId: null });
    await fulfilCheckout(deps(), f);
    const old = (await pickUpKey(deps(), f.sessionId, undefined)).api_key!;
    const record = (await keys.findByHash(hashKey(old)))!;
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => rotateKey(deps(), record)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
    const account = (await accounts.get(f.customerId!))!;
    expect(account.keyHashes).toHaveLength(1);
    const fresh = (won[0] as PromiseFulfilledResult<{ apiKey: string }>).value.apiKey;
    expect(account.keyHashes[0]).toBe(hashKey(fresh));
    const all = await dynamo().send(new ScanCommand({ TableName: emu.tableNames.keys }));
    const active = all.Items!.filter((k) => k.accountId === f.customerId && k.status === 'active');
    expect(active.map((k) => k.keyHash)).toEqual([hashKey(fresh)]);
  });

  test('support replacement by e-mail revokes the account’s keys and issues one with the same state', async () => {
    const email = `${uid('perdida')}@example.com`;
    const f = facts({ email });
    await fulfilCheckout(deps(), f);
    const lost = (await pickUpKey(deps(), f.sessionId, undefined)).api_key!;
    const [replaced] = await replaceKeysForEmail(deps(), email.toUpperCase());
    expect(replaced).toMatchObject({ accountId: f.customerId, revoked: 1 });
    await expect(
      rejectsAsHttp(resolveCaller({ authorization: `Bearer ${lost}` }, 'ip', keys)),
    ).resolves.toMatchObject({
      statusCode: 401,
    });
    const caller = await resolveCaller({ authorization: `Bearer ${replaced!.apiKey}` }, 'ip', keys);
    expect(caller).toMatchObject({ kind: 'key', key: { plan: 'pro', billingStatus: 'active' } });
  });
});

describe('plan changes (documents: pro ↔ scale)', () => {
  const docsConfig = parseDocumentsConfig({
    DOCS_STRIPE_PRICE_PRO: 'price_docs_pro',
    DOCS_STRIPE_PRICE_SCALE: 'price_docs_scale',
    DOCS_STRIPE_PRICE_LIFETIME: 'price_docs_life',
  });
  const docsDeps = () => deps({ config: docsConfig, catalogue: DOCUMENTS_BILLING });
  const priced = (e: BillingEvent, priceId: string): BillingEvent =>
    e.kind === 'subscription' ? { ...e, subscription: { ...e.subscription, priceId } } : e;

  async function docsPurchase(plan: 'pro' | 'lifetime', email: string) {
    const f = facts({
      plan,
      email,
      service: 'documents',
      mode: plan === 'lifetime' ? 'payment' : 'subscription',
      subscriptionId: plan === 'lifetime' ? null : uid('sub'),
    });
    expect(await processEvent(docsDeps(), checkoutEvent(f, 1000))).toBe('processed');
    const account = (await accounts.get(f.customerId!))!;
    return { f, account, keyHash: account.keyHashes[0]! };
  }

  test('a subscription event at the Scale price moves the account and its key to scale; back to pro likewise', async () => {
    const { f, account, keyHash } = await docsPurchase('pro', uid('p') + '@example.com');
    expect(account).toMatchObject({ plan: 'pro', service: 'documents' });
    const sub = (at: number, price: string) =>
      priced(subEvent(f.customerId!, f.subscriptionId!, 'active', at), price);
    expect(await processEvent(docsDeps(), sub(1100, 'price_docs_scale'))).toBe('processed');
    const scaled = (await accounts.get(f.customerId!))!;
    expect(scaled.plan).toBe('scale');
    expect(await keys.findByHash(keyHash)).toMatchObject({
      plan: 'scale',
      billingStatus: 'active',
      accountVersion: scaled.version,
    });
    // An older event at the old price is stale: the plan does not go back.
    expect(await processEvent(docsDeps(), sub(1050, 'price_docs_pro'))).toBe('stale');
    expect((await keys.findByHash(keyHash))!.plan).toBe('scale');
    expect(await processEvent(docsDeps(), sub(1200, 'price_docs_pro'))).toBe('processed');
    expect((await keys.findByHash(keyHash))!.plan).toBe('pro');
  });

  test('an unknown price (or the lifetime price) keeps the plan', async () => {
    const { f, keyHash } = await docsPurchase('pro', uid('p') + '@example.com');
    for (const [at, price] of [
      [1100, 'price_someone_else'],
      [1200, 'price_docs_life'],
    ] as const)
      expect(
        await processEvent(
          docsDeps(),
          priced(subEvent(f.customerId!, f.subscriptionId!, 'active', at), price),
        ),
      ).toBe('processed');
    expect((await accounts.get(f.customerId!))!.plan).toBe('pro');
    expect((await keys.findByHash(keyHash))!.plan).toBe('pro');
  });

  test('a lifetime account is never downgraded by a subscription event', async () => {
    const { f, keyHash } = await docsPurchase('lifetime', uid('l') + '@example.com');
    const ev = priced(subEvent(f.customerId!, uid('sub'), 'active', 1100), 'price_docs_scale');
    expect(await processEvent(docsDeps(), ev)).toBe('processed');
    const ended = priced(subEvent(f.customerId!, uid('sub'), 'canceled', 1200), 'price_docs_pro');
    await processEvent(docsDeps(), ended);
    const account = (await accounts.get(f.customerId!))!;
    expect(keyStateOf(account)).toMatchObject({ plan: 'lifetime', billingStatus: 'active' });
    expect(await keys.findByHash(keyHash)).toMatchObject({ plan: 'lifetime', billingStatus: 'active' });
  });

  test('subscriptionInGoodStanding: this service’s live subscription of the e-mail only', async () => {
    const email = uid('g') + '@example.com';
    expect(await subscriptionInGoodStanding(docsDeps(), email)).toBeUndefined();
    // The same e-mail bought narration Pro (locally both services share one table): not documents'.
    await processEvent(deps(), checkoutEvent(facts({ email }), 1000));
    expect(await subscriptionInGoodStanding(docsDeps(), email)).toBeUndefined();
    expect(await subscriptionInGoodStanding(deps(), email.toUpperCase())).toMatchObject({
      service: 'narration',
    });
    // Documents lifetime: not a subscription.
    await docsPurchase('lifetime', email);
    expect(await subscriptionInGoodStanding(docsDeps(), email)).toBeUndefined();
    const { f } = await docsPurchase('pro', email);
    expect(await subscriptionInGoodStanding(docsDeps(), email)).toMatchObject({
      accountId: f.customerId,
      plan: 'pro',
    });
    // Once it is canceled, a new checkout is welcome.
    await processEvent(docsDeps(), subEvent(f.customerId!, f.subscriptionId!, 'canceled', 2000));
    expect(await subscriptionInGoodStanding(docsDeps(), email)).toBeUndefined();
  });
});
