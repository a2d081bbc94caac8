// Billing with the documents catalogue, without AWS: which checkouts and subscriptions each service acts on (one
// Stripe account sends every event to both endpoints), the 402 wording per plan, and the documents /pay routes'
// edges: 400 validation, 503 naming the DOCS_* setting that is missing.
import type Stripe from 'stripe';
import { parseConfig } from '../../lambdas/documents/config';
import { parseConfig as parseNarrationConfig } from '../../lambdas/narration/config';
import { DOCUMENTS_BILLING } from '../../lambdas/documents/billing';
import { NARRATION_BILLING } from '../../lambdas/narration/billing';
import { offeredPlans, subscriptionPlanOfPrice } from '../../lambdas/shared/billing/catalogue';
import type { Account } from '../../lambdas/shared/billing/account';
import { checkoutMode, lapsedKeyDetail } from '../../lambdas/shared/auth/paid-access';
import type { AccountStore, CheckoutFacts } from '../../lambdas/shared/billing/ports';
import { planOf } from '../../lambdas/shared/billing/service';
import { logger } from '../../lambdas/shared/logger';
import { toBillingEvent } from '../../lambdas/shared/billing/stripe';
import { makeHandlers } from '../../lambdas/documents/handlers/billing';
import type { DocumentsDeps } from '../../lambdas/documents/deps';
import {
  TEST_DOCS_WEBHOOK_SECRET,
  checkoutObject,
  sign,
  stripeEvent,
  subscriptionObject,
} from '../helpers/billing-stripe';
import { apiEvent as event, callHandler as call, untouchedDeps } from '../helpers/api-event';

const asEvent = (json: string) => JSON.parse(json) as Stripe.Event;
const checkout = (deps: DocumentsDeps) => makeHandlers(deps).PayCheckout;
const webhook = (deps: DocumentsDeps) => makeHandlers(deps).PayWebhook;

describe('which service acts on an event', () => {
  const docsSession = checkoutObject({ mode: 'subscription', plan: 'scale', service: 'documents' });
  const narrationSession = checkoutObject({ mode: 'subscription', plan: 'pro' });

  test('checkouts: documents acts only on sessions stamped service=documents, narration only on unstamped ones', () => {
    const docsEvent = asEvent(stripeEvent('checkout.session.completed', docsSession));
    const narrEvent = asEvent(stripeEvent('checkout.session.completed', narrationSession));
    expect(toBillingEvent(docsEvent, DOCUMENTS_BILLING)).toMatchObject({
      kind: 'checkout',
      session: { plan: 'scale', service: 'documents' },
    });
    expect(toBillingEvent(docsEvent, NARRATION_BILLING).kind).toBe('ignored');
    expect(toBillingEvent(narrEvent, NARRATION_BILLING).kind).toBe('checkout');
    expect(toBillingEvent(narrEvent, DOCUMENTS_BILLING).kind).toBe('ignored');
  });

  test('subscriptions: by the metadata Checkout copied onto them', () => {
    const sub = (metadata?: Record<string, string>) =>
      asEvent(
        stripeEvent(
          'customer.subscription.updated',
          subscriptionObject({ id: 'sub_1', customer: 'cus_1', status: 'active', metadata }),
        ),
      );
    expect(toBillingEvent(sub({ service: 'documents' }), DOCUMENTS_BILLING).kind).toBe('subscription');
    expect(toBillingEvent(sub({ service: 'documents' }), NARRATION_BILLING).kind).toBe('ignored');
    expect(toBillingEvent(sub(), NARRATION_BILLING).kind).toBe('subscription');
    expect(toBillingEvent(sub(), DOCUMENTS_BILLING).kind).toBe('ignored');
  });

  test('planOf: the plan must be one the service sells, and the mode must match it', () => {
    const facts = (over: Partial<CheckoutFacts>): CheckoutFacts => ({
      sessionId: 'cs_test_1',
      status: 'complete',
      paymentStatus: 'paid',
      mode: 'subscription',
      customerId: 'cus_1',
      email: null,
      subscriptionId: 'sub_1',
      plan: 'scale',
      ref: undefined,
      service: 'documents',
      ...over,
    });
    expect(planOf(facts({}), DOCUMENTS_BILLING)).toBe('scale');
    expect(planOf(facts({ mode: 'payment' }), DOCUMENTS_BILLING)).toBeUndefined();
    expect(planOf(facts({ plan: 'lifetime', mode: 'payment' }), DOCUMENTS_BILLING)).toBe('lifetime');
    // Scale is not a narration plan, even on an unstamped session.
    expect(planOf(facts({ service: undefined }), NARRATION_BILLING)).toBeUndefined();
    expect(planOf(facts({ plan: 'pro', service: undefined }), NARRATION_BILLING)).toBe('pro');
    expect(offeredPlans(DOCUMENTS_BILLING)).toEqual(['pro', 'scale', 'lifetime']);
    expect(offeredPlans(DOCUMENTS_BILLING).map(checkoutMode)).toEqual([
      'subscription',
      'subscription',
      'payment',
    ]);
  });
});

test('the 402 names the lapsed plan and where to buy it again', () => {
  const scale = lapsedKeyDetail('scale', 'unpaid');
  expect(scale).toMatch(/^The Scale subscription of this API key is unpaid/);
  expect(scale).toMatch(/GET \/pay\/checkout\/scale/);
  expect(lapsedKeyDetail('pro', 'canceled')).toMatch(/^The Pro subscription .* GET \/pay\/checkout\/pro\./);
});

// ── The documents /pay routes' edges (nothing stored is touched) ──

/** Deps whose stores must not be touched. */
const untouched = (env: Record<string, string>, payments: unknown = undefined) =>
  untouchedDeps<DocumentsDeps>({
    config: parseConfig(env),
    payments: async () => payments as Awaited<ReturnType<DocumentsDeps['payments']>>,
  });

test.each([
  [
    'webhook without DOCS_STRIPE_WEBHOOK_SECRET (narration’s secret does not count)',
    { STRIPE_WEBHOOK_SECRET: 'whsec_n' },
    'webhook',
    'DOCS_STRIPE_WEBHOOK_SECRET',
  ],
  [
    'checkout without STRIPE_SECRET_KEY',
    { DOCS_STRIPE_PRICE_SCALE: 'price_s' },
    'checkout',
    'STRIPE_SECRET_KEY',
  ],
  [
    'checkout with a key but no DOCS_STRIPE_PRICE_SCALE (narration’s price does not count)',
    { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PRICE_PRO: 'price_n' },
    'checkout',
    'DOCS_STRIPE_PRICE_SCALE',
  ],
] as const)('%s → a plain 503, the operator log naming it', async (_name, env, route, variable) => {
  const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  const deps = untouched(env, route === 'checkout' && 'STRIPE_SECRET_KEY' in env ? {} : undefined);
  const res =
    route === 'webhook'
      ? await call(
          webhook(deps),
          event('POST', '/pay/webhook', { headers: { 'stripe-signature': 't=1,v1=x' }, body: '{}' }),
        )
      : await call(checkout(deps), event('GET', '/pay/checkout/scale', { params: { plan: 'scale' } }));
  expect(res.statusCode).toBe(503);
  expect(res.json.detail).toBe(
    'Payments are not available on this server right now. Please try again later or contact support.',
  );
  expect(logged).toHaveBeenCalledWith('payments not configured', expect.objectContaining({ variable }));
  logged.mockRestore();
  expect(res.headers['retry-after']).toBeDefined();
});

test('webhook: verified with the documents secret; an event of narration’s is acknowledged as ignored', async () => {
  const payload = stripeEvent(
    'checkout.session.completed',
    checkoutObject({ mode: 'payment', plan: 'lifetime' }),
  );
  const deps = untouched({ DOCS_STRIPE_WEBHOOK_SECRET: TEST_DOCS_WEBHOOK_SECRET });
  const res = await call(
    webhook(deps),
    event('POST', '/pay/webhook', {
      headers: { 'stripe-signature': sign(payload, TEST_DOCS_WEBHOOK_SECRET) },
      body: payload,
    }),
  );
  expect(res.statusCode).toBe(200);
  expect(res.json).toMatchObject({ received: true, outcome: 'ignored' });
});

test('validation comes first and is 400 with every problem', async () => {
  const res = await call(
    checkout(untouched({})),
    event('GET', '/pay/checkout/gold', { params: { plan: 'gold' } }),
  );
  expect(res.statusCode).toBe(400);
  expect(res.json.detail).toEqual([
    { loc: ['path', 'plan'], msg: "Input should be 'pro', 'scale' or 'lifetime'", type: 'literal_error' },
  ]);
});

// ── Plan changes: the subscription's price names the plan; a second subscription checkout is refused ──

describe('plan changes', () => {
  // One Stripe account, both services' settings (each service parses its own).
  const env = {
    STRIPE_PRICE_PRO: 'price_n_pro',
    STRIPE_PRICE_LIFETIME: 'price_n_life',
    DOCS_STRIPE_PRICE_PRO: 'price_d_pro',
    DOCS_STRIPE_PRICE_SCALE: 'price_d_scale',
    DOCS_STRIPE_PRICE_LIFETIME: 'price_d_life',
  };
  const cfg = { ...parseNarrationConfig(env), ...parseConfig(env) };

  test('subscription events carry items.data[0].price.id', () => {
    const ev = asEvent(
      stripeEvent(
        'customer.subscription.updated',
        subscriptionObject({
          id: 'sub_1',
          customer: 'cus_1',
          status: 'active',
          metadata: { service: 'documents' },
          price: 'price_d_scale',
        }),
      ),
    );
    expect(toBillingEvent(ev, DOCUMENTS_BILLING)).toMatchObject({
      kind: 'subscription',
      subscription: { priceId: 'price_d_scale' },
    });
  });

  test.each([
    [DOCUMENTS_BILLING, 'price_d_scale', 'scale'],
    [DOCUMENTS_BILLING, 'price_d_pro', 'pro'],
    [DOCUMENTS_BILLING, 'price_d_life', undefined], // one-time: never a subscription's plan
    [DOCUMENTS_BILLING, 'price_n_pro', undefined], // the other service's price
    [NARRATION_BILLING, 'price_n_pro', 'pro'],
    [NARRATION_BILLING, 'price_d_scale', undefined],
  ])('%# price %s → %s', (cat, price, plan) => {
    expect(subscriptionPlanOfPrice(cat, cfg, price)).toBe(plan);
  });

  test('an unset price setting matches nothing', () => {
    expect(subscriptionPlanOfPrice(DOCUMENTS_BILLING, parseConfig({}), '')).toBeUndefined();
  });

  /** An AccountStore holding the given accounts, reading only what the checkout check needs. */
  const storeOf = (email: string, list: Partial<Account>[]) =>
    untouchedDeps<AccountStore>({
      accountsForEmail: async (e: string) => (e === email ? list.map((a) => a.accountId!) : []),
      get: async (id: string) =>
        ({
          keyHashes: [],
          createdAt: 'x',
          updatedAt: 'x',
          version: 1,
          ...list.find((a) => a.accountId === id),
        }) as Account,
    });
  const checkoutWith = (accounts: AccountStore, plan: string, email = 'Pro@Example.com') => {
    const created: unknown[] = [];
    const gateway = {
      createCheckout: async (r: unknown) => {
        created.push(r);
        return { id: 'cs_test_1', url: 'http://127.0.0.1:9/c', expiresAt: 2_000_000_000 };
      },
    };
    const deps = untouchedDeps<DocumentsDeps>({
      config: parseConfig({
        STRIPE_SECRET_KEY: 'sk_test_x',
        DOCS_STRIPE_PRICE_PRO: 'price_d_pro',
        DOCS_STRIPE_PRICE_SCALE: 'price_d_scale',
        DOCS_STRIPE_PRICE_LIFETIME: 'price_d_life',
      }),
      payments: async () => gateway as unknown as Awaited<ReturnType<DocumentsDeps['payments']>>,
      accounts,
    });
    return call(
      checkout(deps),
      event('GET', `/pay/checkout/${plan}`, {
        params: { plan },
        query: { email },
        headers: { accept: 'application/json' },
      }),
    ).then((res) => ({ res, created }));
  };
  const proActive: Partial<Account> = {
    accountId: 'cus_pro',
    service: 'documents',
    plan: 'pro',
    subscriptionStatus: 'active',
    currentPeriodEnd: Date.UTC(2026, 11, 1) / 1000,
  };

  test('scale for an e-mail with an active documents Pro subscription → 409 naming the portal, Stripe not called', async () => {
    const { res, created } = await checkoutWith(storeOf('pro@example.com', [proActive]), 'scale');
    expect(res.statusCode).toBe(409);
    expect(res.json.detail).toMatch(/^This e-mail already has an active subscription to this API/);
    // Anyone may type an e-mail: the answer names neither the plan nor its status.
    expect(String(res.json.detail).replace(/email=\S+/, '')).not.toMatch(
      /\bPro\b|\bScale\b|past_due|status/i,
    );
    expect(res.json.detail).toContain('POST /pay/portal?email=Pro%40Example.com');
    expect(created).toEqual([]);
  });

  test.each<[string, Partial<Account>[], string]>([
    ['lifetime (an upgrade) while Pro is active', [proActive], 'lifetime'],
    [
      'scale after the Pro subscription was canceled',
      [{ ...proActive, subscriptionStatus: 'canceled' }],
      'scale',
    ],
    ['scale while Pro has not been paid yet', [{ ...proActive, subscriptionStatus: 'incomplete' }], 'scale'],
    ['scale for a lifetime account', [{ ...proActive, lifetime: true, plan: 'lifetime' }], 'scale'],
    ['pro when the active subscription is narration’s', [{ ...proActive, service: 'narration' }], 'pro'],
  ])('%s → checkout created', async (_name, list, plan) => {
    const { res, created } = await checkoutWith(storeOf('pro@example.com', list), plan);
    expect(res.statusCode).toBe(200);
    expect(created).toHaveLength(1);
  });

  test('past_due still counts as in good standing (Stripe is retrying the card)', async () => {
    const { res } = await checkoutWith(
      storeOf('pro@example.com', [{ ...proActive, plan: 'scale', subscriptionStatus: 'past_due' }]),
      'pro',
    );
    expect(res.statusCode).toBe(409);
    expect(res.json.detail).toMatch(/already has an active subscription/);
  });
});
