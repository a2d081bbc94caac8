// Billing's pure parts and handler edges without AWS: the sealed key pick-up, plans and paid access, Stripe
// object mapping, webhook signature checks on raw (also base64) bodies with the real stripe SDK, the 402 for
// lapsed keys, and the 503s that name the missing configuration.
import type Stripe from 'stripe';
import { hashKey, type ApiKeyRecord, type KeyStore } from '../../lambdas/shared/auth/keys';
import { resolveCaller, resolveKeyHolder } from '../../lambdas/shared/auth/resolve-caller';
import { parseConfig } from '../../lambdas/narration/config';
import { openKey, sealKey, sessionRef } from '../../lambdas/shared/billing/pickup';
import { hasPaidAccess, lapsedKeyDetail } from '../../lambdas/shared/auth/paid-access';
import { NARRATION_BILLING, freeTierRules, planCatalogue } from '../../lambdas/narration/billing';
import { clientReferenceId, toBillingEvent, verifyWebhook } from '../../lambdas/shared/billing/stripe';
import { publicBase, wantsJson } from '../../lambdas/shared/billing/web';
import { toApiRequest } from '../../lambdas/shared/http/request';
import { makeHandlers } from '../../lambdas/narration/handlers/billing';
import { BILLING_ROUTES } from '../../lambdas/narration/platform';
import { narrationManifest } from '../../lambdas/narration/routes';
import { documentsManifest } from '../../lambdas/documents/routes';
import { freeRules } from '../../lambdas/narration/use-cases/free-charge';
import { routeHandler } from '../../lambdas/shared/http/route-handlers';
import type { RouteSpec } from '../../lambdas/shared/manifest';
import { logger } from '../../lambdas/shared/logger';
import type { NarrationDeps } from '../../lambdas/narration/deps';
import {
  TEST_WEBHOOK_SECRET,
  checkoutObject,
  sign,
  stripeEvent,
  subscriptionObject,
} from '../helpers/billing-stripe';
import { apiEvent as event, callHandler as call, untouchedDeps } from '../helpers/api-event';
import { rejectsAsHttp, throwsAsHttp } from '../helpers/as-http';

const checkout = (deps: NarrationDeps) => makeHandlers(deps).PayCheckout;
const portal = (deps: NarrationDeps) => makeHandlers(deps).PayPortal;
const webhook = (deps: NarrationDeps) => makeHandlers(deps).PayWebhook;

/** Deps whose stores must not be touched: the edges under test answer before any storage. */
const untouched = (env: Record<string, string>) =>
  untouchedDeps<NarrationDeps>({ config: parseConfig(env), payments: async () => undefined });

describe('sealed key pick-up', () => {
  test('opens only with the session id it was sealed with, and not after tampering', () => {
    const sealed = sealKey('key_secret123', 'cs_test_a');
    expect(sealed).not.toContain('key_secret123');
    expect(sealed).not.toBe(sealKey('key_secret123', 'cs_test_a')); // random salt and IV
    expect(openKey(sealed, 'cs_test_a')).toBe('key_secret123');
    expect(() => openKey(sealed, 'cs_test_b')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('key_other000').toString('base64url');
    expect(() => openKey(parts.join('.'), 'cs_test_a')).toThrow();
  });

  test('sessions are stored under a hash, never by id', () => {
    expect(sessionRef('cs_test_a')).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionRef('cs_test_a')).not.toContain('cs_test_a');
    expect(sessionRef('cs_test_a')).not.toBe(sessionRef('cs_test_b'));
  });
});

describe('plans and paid access', () => {
  test.each([
    ['active', true],
    ['trialing', true],
    ['past_due', true],
    ['unpaid', false],
    ['canceled', false],
    ['incomplete', false],
    ['incomplete_expired', false],
    ['paused', false],
  ])('%s → paid access %s', (status, paid) => {
    expect(hasPaidAccess(status)).toBe(paid);
  });

  test('the 402 message names the cause and the ways out', () => {
    const detail = lapsedKeyDetail('pro', 'canceled');
    expect(detail).toMatch(/was canceled/);
    expect(detail).toMatch(/POST \/pay\/portal/);
    expect(detail).toMatch(/GET \/pay\/checkout\/pro/);
  });

  test('prices come from configuration', () => {
    const plans = planCatalogue(
      parseConfig({ PRICE_PRO_CENTS: '900', PRICE_CURRENCY: 'MXN', FREE_PER_HOUR: '3' }),
    );
    expect(plans.find((p) => p.id === 'pro')!.price).toEqual({
      amount_cents: 900,
      currency: 'mxn',
      interval: 'month',
    });
    expect(plans.find((p) => p.id === 'lifetime')!.price!.amount_cents).toBe(4900);
    expect(plans.find((p) => p.id === 'free')!.limits).toEqual({ per_hour: 3, per_day: 20 });
  });
});

describe('resolveCaller and billing state on keys', () => {
  const record = (over: Partial<ApiKeyRecord>): ApiKeyRecord => ({
    keyHash: hashKey('key_k'),
    keyPrefix: 'key_k',
    plan: 'pro',
    status: 'active',
    email: 'a@b.co',
    createdAt: '',
    ...over,
  });
  const store = (r: ApiKeyRecord) =>
    ({ findByHash: async (h: string) => (h === r.keyHash ? r : undefined) }) as KeyStore;
  const auth = { authorization: 'Bearer key_k' };

  test('lapsed subscription → 402 with plan and status; lifetime and admin keys stay paid', async () => {
    await expect(
      rejectsAsHttp(resolveCaller(auth, 'ip', store(record({ billingStatus: 'canceled' })))),
    ).resolves.toMatchObject({
      statusCode: 402,
      extra: { plan: 'pro', status: 'canceled' },
    });
    for (const r of [
      record({ plan: 'lifetime', billingStatus: 'active' }),
      record({}),
      record({ billingStatus: 'past_due' }),
    ])
      await expect(resolveCaller(auth, 'ip', store(r))).resolves.toMatchObject({ kind: 'key' });
  });

  test('the billing routes still see a lapsed key; revoked and unknown keys are 401 everywhere', async () => {
    await expect(resolveKeyHolder(auth, store(record({ billingStatus: 'canceled' })))).resolves.toMatchObject(
      {
        billingStatus: 'canceled',
      },
    );
    await expect(
      rejectsAsHttp(resolveKeyHolder(auth, store(record({ status: 'revoked' })))),
    ).resolves.toMatchObject({
      statusCode: 401,
    });
    await expect(
      rejectsAsHttp(resolveKeyHolder({ authorization: 'Bearer key_zz' }, store(record({})))),
    ).resolves.toMatchObject({
      statusCode: 401,
    });
    await expect(resolveKeyHolder({}, store(record({})))).resolves.toBeUndefined();
  });
});

describe('Stripe objects → billing facts', () => {
  test('checkout.session.completed: plan from metadata, customer expanded or not, e-mail from customer_details', () => {
    const session = checkoutObject({ mode: 'subscription', plan: 'pro', ref: 'ab:x:y', email: 'a@b.co' });
    const ev = toBillingEvent(
      JSON.parse(stripeEvent('checkout.session.completed', session, 77)) as Stripe.Event,
      NARRATION_BILLING,
    );
    expect(ev).toMatchObject({
      kind: 'checkout',
      created: 77,
      session: { sessionId: session.id, plan: 'pro', ref: 'ab:x:y', email: 'a@b.co', status: 'complete' },
    });
    const expanded = {
      ...session,
      customer: { id: 'cus_X', object: 'customer' },
      metadata: { plan: 'gold' },
    };
    const ev2 = toBillingEvent(
      JSON.parse(stripeEvent('checkout.session.completed', expanded)) as Stripe.Event,
      NARRATION_BILLING,
    );
    expect(ev2).toMatchObject({ session: { customerId: 'cus_X', plan: undefined } });
  });

  test('subscriptions: status and period end (from the items); other types ignored', () => {
    const sub = subscriptionObject({ id: 'sub_1', customer: 'cus_1', status: 'past_due', periodEnd: 1234 });
    expect(
      toBillingEvent(
        JSON.parse(stripeEvent('customer.subscription.deleted', sub)) as Stripe.Event,
        NARRATION_BILLING,
      ),
    ).toMatchObject({
      kind: 'subscription',
      subscription: {
        subscriptionId: 'sub_1',
        customerId: 'cus_1',
        status: 'past_due',
        currentPeriodEnd: 1234,
      },
    });
    expect(
      toBillingEvent(
        JSON.parse(stripeEvent('charge.refunded', { id: 'ch_1' })) as Stripe.Event,
        NARRATION_BILLING,
      ).kind,
    ).toBe('ignored');
  });

  test('client_reference_id keeps only the characters Stripe accepts', () => {
    expect(clientReferenceId('ab:hero:b')).toBe('ab_hero_b');
    expect(clientReferenceId('blog-post_12')).toBe('blog-post_12');
  });
});

describe('webhook signatures (real stripe SDK)', () => {
  const payload = stripeEvent('invoice.paid', { id: 'in_1', object: 'invoice' });

  test('verifies over the exact bytes; anything else is 400', () => {
    expect(
      verifyWebhook(Buffer.from(payload), sign(payload), TEST_WEBHOOK_SECRET, NARRATION_BILLING).kind,
    ).toBe('ignored');
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(payload)));
    for (const [body, sig] of [
      [reformatted, sign(payload)],
      [Buffer.from(payload), sign(payload, 'whsec_other')],
      [Buffer.from(payload), undefined],
      [Buffer.from(payload), 'garbage'],
    ] as const)
      expect(
        throwsAsHttp(() => verifyWebhook(body, sig, TEST_WEBHOOK_SECRET, NARRATION_BILLING)),
      ).toMatchObject({
        statusCode: 400,
      });
  });

  test('a base64-encoded body (API Gateway) is decoded before verifying', async () => {
    const deps = untouched({ STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET });
    const res = await call(
      webhook(deps),
      event('POST', '/pay/webhook', {
        headers: { 'content-type': 'application/octet-stream', 'stripe-signature': sign(payload) },
        body: Buffer.from(payload).toString('base64'),
        base64: true,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json).toMatchObject({ received: true, outcome: 'ignored', type: 'invoice.paid' });
  });

  test('bodies over 256 KiB are refused before verification', async () => {
    const big = stripeEvent('invoice.paid', { id: 'in_2', pad: 'x'.repeat(300 * 1024) });
    const res = await call(
      webhook(untouched({ STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET })),
      event('POST', '/pay/webhook', { headers: { 'stripe-signature': sign(big) }, body: big }),
    );
    expect(res.statusCode).toBe(422);
  });
});

const PAYMENTS_UNAVAILABLE =
  'Payments are not available on this server right now. Please try again later or contact support.';

describe('missing configuration → a plain 503 for the visitor, the variable in the operator log, never a crash', () => {
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  test.each([
    ['checkout without STRIPE_SECRET_KEY', checkout, {}, 'STRIPE_SECRET_KEY'],
    ['webhook without STRIPE_WEBHOOK_SECRET', webhook, {}, 'STRIPE_WEBHOOK_SECRET'],
    ['portal without STRIPE_SECRET_KEY', portal, {}, 'STRIPE_SECRET_KEY'],
  ] as const)('%s', async (_name, make, env, variable) => {
    const isCheckout = make === checkout;
    const isPortal = make === portal;
    const res = await call(
      make(untouched(env)),
      event(
        isCheckout ? 'GET' : 'POST',
        isCheckout ? '/pay/checkout/pro' : isPortal ? '/pay/portal' : '/pay/webhook',
        {
          params: isCheckout ? { plan: 'pro' } : undefined,
          query: isPortal ? { email: 'a@b.co' } : undefined,
          headers: { 'stripe-signature': 't=1,v1=x' },
          body: isCheckout || isPortal ? undefined : '{}',
        },
      ),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json.detail).toBe(PAYMENTS_UNAVAILABLE);
    expect(logged).toHaveBeenCalledWith('payments not configured', expect.objectContaining({ variable }));
    expect(res.headers['retry-after']).toBeDefined();
  });

  test('checkout with a key but no price id logs STRIPE_PRICE_LIFETIME, and shows none of it', async () => {
    const deps = untouched({ STRIPE_SECRET_KEY: 'sk_test_x' });
    (deps as unknown as { payments: () => Promise<unknown> }).payments = async () => ({});
    const res = await call(
      checkout(deps),
      event('GET', '/pay/checkout/lifetime', { params: { plan: 'lifetime' } }),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json.detail).toBe(PAYMENTS_UNAVAILABLE);
    expect(res.body).not.toMatch(/STRIPE|Secrets Manager|SSM/);
    expect(logged).toHaveBeenCalledWith(
      'payments not configured',
      expect.objectContaining({ variable: 'STRIPE_PRICE_LIFETIME' }),
    );
  });

  test('validation comes first: a bad plan is 422 even when Stripe is not configured', async () => {
    const res = await call(
      checkout(untouched({})),
      event('GET', '/pay/checkout/gold', { params: { plan: 'gold' } }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json.detail).toEqual([
      { loc: ['path', 'plan'], msg: "Input should be 'pro' or 'lifetime'", type: 'literal_error' },
    ]);
  });
});

describe('where customers are sent', () => {
  test('PUBLIC_BASE_URL wins; else the request host, http only for loopback', () => {
    const req = (host: string) => toApiRequest(event('GET', '/pay/checkout/pro', { headers: { host } }));
    expect(publicBase(req('api.example.com'), parseConfig({}), NARRATION_BILLING)).toBe(
      'https://api.example.com',
    );
    expect(publicBase(req('127.0.0.1:3000'), parseConfig({}), NARRATION_BILLING)).toBe(
      'http://127.0.0.1:3000',
    );
    expect(
      publicBase(req('x'), parseConfig({ PUBLIC_BASE_URL: 'https://voz.example/' }), NARRATION_BILLING),
    ).toBe('https://voz.example');
  });

  test('JSON only when asked for', () => {
    expect(wantsJson('application/json')).toBe(true);
    expect(wantsJson('text/html,application/xhtml+xml,*/*;q=0.8')).toBe(false);
    expect(wantsJson(undefined)).toBe(false);
  });
});

describe('billing configuration', () => {
  test('all optional; empty URLs count as unset; wrong ones fail naming the variable', () => {
    const cfg = parseConfig({ STRIPE_API_BASE: '', PUBLIC_BASE_URL: '', STRIPE_SECRET_KEY: ' sk_test_x ' });
    expect(cfg.STRIPE_API_BASE).toBeUndefined();
    expect(cfg.STRIPE_SECRET_KEY).toBe('sk_test_x');
    expect(cfg.KEY_PICKUP_HOURS).toBe(24);
    expect(() => parseConfig({ PUBLIC_BASE_URL: 'ftp://voz.example' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => parseConfig({ STRIPE_PORTAL_LOGIN_URL: 'http://billing.example' })).toThrow(
      /STRIPE_PORTAL_LOGIN_URL/,
    );
    expect(() => parseConfig({ KEY_PICKUP_HOURS: '0' })).toThrow(/KEY_PICKUP_HOURS/);
  });
});

describe('the /pay routes: one spec builder and one handler file per service', () => {
  const narration = narrationManifest.routes.filter((r) => r.path.startsWith('/pay/'));
  const documents = documentsManifest.routes.filter((r) => r.path.startsWith('/pay/'));

  test('both services declare the same routes and limits; each reads the settings its catalogue names', () => {
    const shape = (r: RouteSpec) => [r.id, r.method, r.path, r.memoryMb, r.timeoutS, r.maxBodyBytes];
    expect(narration.map(shape)).toEqual(documents.map(shape));
    expect(narration.map((r) => r.id)).toEqual([
      'PayCheckout',
      'PaySuccess',
      'PayStatus',
      'PayPortal',
      'PayWebhook',
      'PayKeysRotate',
    ]);
    const settings = (routes: RouteSpec[], id: string) => routes.find((r) => r.id === id)!.access.settings;
    expect(settings(documents, 'PayCheckout')).toEqual(
      expect.arrayContaining(['DOCS_STRIPE_PRICE_SCALE', 'DOCS_PUBLIC_BASE_URL', 'DOCS_BILLING_RETURN_URL']),
    );
    expect(settings(documents, 'PayCheckout')).not.toContain('STRIPE_PRICE_PRO');
    // The webhook maps plan switches of subscriptions: it reads the subscription prices, not lifetime's.
    expect(settings(narration, 'PayWebhook')).toEqual(
      expect.arrayContaining(['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_PRO', 'AB_EXPERIMENTS']),
    );
    expect(settings(narration, 'PayWebhook')).not.toContain('STRIPE_PRICE_LIFETIME');
    expect(settings(documents, 'PayWebhook')).not.toContain('AB_EXPERIMENTS');
    for (const r of [...narration, ...documents]) expect(r.handler).toMatch(/handlers\/billing\.ts$/);
  });

  test("the file's handler answers each route by its route key, with that route's body limit", async () => {
    const handler = routeHandler(BILLING_ROUTES, makeHandlers(untouched({})));
    const bad = await call(
      handler,
      event('GET', '/pay/checkout/gold', { params: { plan: 'gold' }, routeKey: 'GET /pay/checkout/{plan}' }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json.detail).toEqual([expect.objectContaining({ loc: ['path', 'plan'] })]);
    // POST /pay/portal takes 1 KiB (its spec), refused before the key or Stripe is looked at.
    const big = await call(
      handler,
      event('POST', '/pay/portal', { body: 'x'.repeat(2048), routeKey: 'POST /pay/portal' }),
    );
    expect(big.statusCode).toBe(422);
    expect(JSON.stringify(big.json.detail)).toContain('1024 bytes');
    await expect(call(handler, event('GET', '/voices', { routeKey: 'GET /voices' }))).rejects.toThrow(
      /no handler in this file for route GET \/voices/,
    );
  });

  test('GET /pay/status counts the free tier in the windows POST /convert/* charges', () => {
    const config = parseConfig({ FREE_PER_HOUR: '7', FREE_PER_DAY: '30' });
    expect(freeTierRules(config)).toEqual(freeRules({ config }));
  });
});
