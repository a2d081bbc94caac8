// The documents API's paid path over HTTP, offline: GET /pay/checkout/{pro|scale|lifetime} (the real stripe SDK
// talks to a local stand-in that checks what it sends) → webhook signed for the documents endpoint → account + key
// picked up once → POST /v1/render counts against the plan's monthly allowance → subscription deleted → 402.
// One Stripe account serves both APIs: each webhook ignores the other service's checkouts and subscriptions.
// A tripwire proves no connection leaves loopback.
import {
  TEST_DOCS_PRICE_LIFETIME,
  TEST_DOCS_PRICE_PRO,
  TEST_DOCS_PRICE_SCALE,
  TEST_DOCS_WEBHOOK_SECRET,
  TEST_WEBHOOK_SECRET,
  checkoutObject,
  sign,
  stripeEvent,
  subscriptionObject,
  type StripeStandIn,
} from '../helpers/billing-stripe';
import {
  bearer,
  billingE2e,
  getJson,
  outcome,
  paidCheckout as checkout,
  postWebhook,
} from '../helpers/billing-e2e';
import type { BillingRuntime } from '../helpers/billing-runtime';
import { sameWindow, windowOf } from '../helpers/quota-window';
import { postJson } from '../helpers/runtime';

jest.setTimeout(120_000);

const e2e = billingE2e({
  DOCS_STRIPE_WEBHOOK_SECRET: TEST_DOCS_WEBHOOK_SECRET,
  DOCS_STRIPE_PRICE_PRO: TEST_DOCS_PRICE_PRO,
  DOCS_STRIPE_PRICE_SCALE: TEST_DOCS_PRICE_SCALE,
  DOCS_STRIPE_PRICE_LIFETIME: TEST_DOCS_PRICE_LIFETIME,
});
let stripe: StripeStandIn;
let app: BillingRuntime;
beforeAll(() => ({ stripe, app } = e2e));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const docs = (path: string) => app.docsUrl(path);

/** POST the payload to a /pay/webhook; signed for the documents endpoint unless told otherwise. */
const webhook = (payload: string, opts: { base?: 'docs' | 'narration'; signature?: string | null } = {}) => {
  const base = opts.base ?? 'docs';
  const signature =
    opts.signature === undefined
      ? sign(payload, base === 'docs' ? TEST_DOCS_WEBHOOK_SECRET : TEST_WEBHOOK_SECRET)
      : opts.signature;
  return postWebhook((base === 'docs' ? docs : app.url)('/pay/webhook'), payload, signature);
};

const success = (sessionId: string, base: 'docs' | 'narration' = 'docs') =>
  getJson((base === 'docs' ? docs : app.url)(`/pay/success?session_id=${sessionId}`));

async function status(key?: string) {
  const res = await getJson(docs('/pay/status'), key ? bearer(key) : {});
  expect(res.status).toBe(200);
  return res.body;
}

/** A cheap document (csv: no Chromium) as a paid or free caller. */
const VENTAS = {
  template: 'ventas',
  format: 'csv',
  data: { title: 'Ventas', rows: [{ product: 'A', units: 2, revenue: 10 }] },
};
const render = (key?: string) => postJson(docs('/v1/render'), VENTAS, key ? bearer(key) : {});

/** A documents checkout started through the API and completed on the stand-in, as Stripe would after payment. */
const paidCheckout = (plan: 'pro' | 'scale' | 'lifetime', email: string) =>
  checkout(stripe, docs(`/pay/checkout/${plan}?email=${encodeURIComponent(email)}`), email);

/** Buys a plan, delivers the webhook, picks up the key. */
async function buy(plan: 'pro' | 'scale' | 'lifetime', email: string) {
  const paid = await paidCheckout(plan, email);
  expect(await outcome(await webhook(stripeEvent('checkout.session.completed', paid.session)))).toBe(
    'processed',
  );
  const picked = await success(paid.sessionId);
  expect(picked.status).toBe(200);
  expect(picked.body.api_key).toMatch(/^key_/);
  return { ...paid, key: picked.body.api_key as string };
}

describe('GET /pay/checkout/{plan} on the documents API', () => {
  test('scale: a subscription at the documents price, stamped service=documents, returning to the documents API', async () => {
    const before = stripe.requests.length;
    const res = await fetch(docs('/pay/checkout/scale?email=ops%40example.com&ref=landing'), {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${stripe.base}/c/pay/cs_test_`));
    expect(stripe.requests).toHaveLength(before + 1);
    const sent = stripe.requests.at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.form).toEqual({
      mode: 'subscription',
      'line_items[0][price]': TEST_DOCS_PRICE_SCALE,
      'line_items[0][quantity]': '1',
      success_url: docs('/pay/success?session_id={CHECKOUT_SESSION_ID}'),
      cancel_url: docs('/pay/status'),
      'metadata[plan]': 'scale',
      'metadata[service]': 'documents',
      'metadata[ref]': 'landing',
      customer_email: 'ops@example.com',
      client_reference_id: 'landing',
      'subscription_data[metadata][plan]': 'scale',
      'subscription_data[metadata][service]': 'documents',
      'subscription_data[metadata][ref]': 'landing',
    });
  });

  test.each([
    ['pro', 'subscription', TEST_DOCS_PRICE_PRO],
    ['lifetime', 'payment', TEST_DOCS_PRICE_LIFETIME],
  ])('%s: mode %s at the documents price', async (plan, mode, price) => {
    const res = await fetch(docs(`/pay/checkout/${plan}`), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ plan, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1/) });
    expect(stripe.requests.at(-1)!.form).toMatchObject({
      mode,
      'line_items[0][price]': price,
      'metadata[plan]': plan,
      'metadata[service]': 'documents',
    });
  });

  test.each([
    ['/pay/checkout/gold', ['path', 'plan'], "Input should be 'pro', 'scale' or 'lifetime'"],
    ['/pay/checkout/pro?email=no-es-un-correo', ['query', 'email'], undefined],
  ])('%s → 400 in the documents shape, Stripe not called', async (path, loc, msg) => {
    const before = stripe.requests.length;
    const res = await fetch(docs(path), { redirect: 'manual' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(body.detail).toEqual([expect.objectContaining({ loc, ...(msg ? { msg } : {}) })]);
    expect(stripe.requests).toHaveLength(before);
  });

  test('narration still sells only its own plans: /pay/checkout/scale there is a 422', async () => {
    const res = await fetch(app.url('/pay/checkout/scale'), { redirect: 'manual' });
    expect(res.status).toBe(422);
  });
});

describe('Scale: webhook → key once → 10,000 documents a month → subscription ends → 402', () => {
  let paid: Awaited<ReturnType<typeof paidCheckout>>;
  let key: string;
  const t0 = Math.floor(Date.now() / 1000);
  const periodEnd = t0 + 30 * 86400;
  const subscriptionEvent = (status: string, created: number) =>
    stripeEvent(
      status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
      subscriptionObject({
        id: paid.session.subscription!,
        customer: paid.session.customer,
        status,
        periodEnd,
        metadata: { plan: 'scale', service: 'documents' },
      }),
      created,
    );

  test('the documents endpoint verifies with its own secret; narration’s endpoint ignores the event', async () => {
    paid = await paidCheckout('scale', 'scale@example.com');
    const payload = stripeEvent('checkout.session.completed', paid.session, t0);
    // Signed with narration's endpoint secret: not a delivery for this endpoint.
    const wrong = await webhook(payload, { signature: sign(payload, TEST_WEBHOOK_SECRET) });
    expect(wrong.status).toBe(400);
    // Stripe delivers the same event to both endpoints: narration acknowledges it and does nothing.
    expect(await outcome(await webhook(payload, { base: 'narration' }))).toBe('ignored');
    expect(await outcome(await webhook(payload))).toBe('processed');
    expect(await outcome(await webhook(payload))).toBe('duplicate');
    expect((await success(paid.sessionId, 'narration')).status).toBe(404);
  });

  test('GET /pay/success shows the scale key exactly once', async () => {
    const first = await success(paid.sessionId);
    expect(first.body).toMatchObject({ plan: 'scale', status: 'active', paid_access: true });
    key = first.body.api_key as string;
    expect(key).toMatch(/^key_[A-Za-z0-9_-]{43}$/);
    const again = await success(paid.sessionId);
    expect(again.body).toMatchObject({ plan: 'scale', api_key: null, key_prefix: key.slice(0, 10) });
  });

  test('renders count against the Scale allowance (10,000 per calendar month)', async () => {
    expect(await outcome(await webhook(subscriptionEvent('active', t0 + 10)))).toBe('processed');
    const before = new Date();
    const res = await render(key);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('10000');
    expect(res.headers.get('ratelimit-remaining')).toBe('9999');
    const view = await status(key);
    // The calendar month of the render and of the status read; a run that crosses a month end sees either.
    const after = new Date();
    const monthEnd = (d: Date) =>
      new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString();
    const crossed = monthEnd(before) !== monthEnd(after);
    expect(view).toMatchObject({
      plan: 'scale',
      status: 'active',
      paid_access: true,
      key_prefix: key.slice(0, 10),
      account: { email: 'scale@example.com', cancel_at_period_end: false },
      usage: {
        limited: true,
        windows: [
          crossed
            ? { period: 'month', limit: 10000 }
            : { period: 'month', limit: 10000, used: 1, remaining: 9999 },
        ],
      },
    });
    expect([monthEnd(before), monthEnd(after)]).toContain(view.usage.windows[0].reset_at);
    expect(view.account.current_period_end).toBe(new Date(periodEnd * 1000).toISOString());
  });

  test('customer.subscription.deleted → the key gets 402 naming the Scale checkout; narration ignores the event', async () => {
    const deleted = subscriptionEvent('canceled', t0 + 20);
    expect(await outcome(await webhook(deleted, { base: 'narration' }))).toBe('ignored');
    expect((await render(key)).status).toBe(200);
    expect(await outcome(await webhook(deleted))).toBe('processed');
    const res = await render(key);
    expect(res.status).toBe(402);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ plan: 'scale', status: 'canceled' });
    expect(body.detail).toMatch(/Scale subscription/);
    expect(body.detail).toMatch(/GET \/pay\/checkout\/scale/);
    expect(body.detail).toMatch(/POST \/pay\/portal/);
    expect(await status(key)).toMatchObject({ plan: 'scale', status: 'canceled', paid_access: false });
    // An older "active" update never brings it back.
    expect(await outcome(await webhook(subscriptionEvent('active', t0 + 30)))).toBe('stale');
    expect((await render(key)).status).toBe(402);
  });

  test('POST /pay/portal opens the customer portal returning to the documents API', async () => {
    const res = await fetch(docs('/pay/portal?email=SCALE%40example.com'), {
      method: 'POST',
      headers: bearer(key),
    });
    expect(res.status).toBe(200);
    expect(stripe.requests.at(-1)!.form).toEqual({
      customer: paid.session.customer,
      return_url: docs('/pay/status'),
    });
    const missing = await fetch(docs('/pay/portal'), { method: 'POST', headers: bearer(key) });
    expect(missing.status).toBe(400);
  });
});

describe('Pro and Lifetime on the documents API', () => {
  test('a pro key renders with 1,000 a month and custom_html; rotating it keeps plan and counter rules', async () => {
    const { key } = await buy('pro', 'pro-docs@example.com');
    const custom = await postJson(
      docs('/v1/render'),
      { custom_html: '<p>{{ n }}</p>', format: 'txt', data: { n: 7 } },
      bearer(key),
    );
    expect(custom.status).toBe(200);
    expect(custom.headers.get('ratelimit-limit')).toBe('1000');
    expect((await custom.text()).trim()).toBe('7');

    const rotated = await fetch(docs('/pay/keys/rotate'), { method: 'POST', headers: bearer(key) });
    expect(rotated.status).toBe(200);
    const body = (await rotated.json()) as { api_key: string; plan: string };
    expect(body.plan).toBe('pro');
    expect((await render(body.api_key)).headers.get('ratelimit-limit')).toBe('1000');
    expect((await render(key)).status).toBe(401);
  });

  test('a lifetime key: 1,000 a month, and a subscription ending on its customer changes nothing', async () => {
    const { key, session } = await buy('lifetime', 'vida-docs@example.com');
    expect((await status(key)).plan).toBe('lifetime');
    const ended = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({
        id: 'sub_other',
        customer: session.customer,
        status: 'canceled',
        metadata: { service: 'documents' },
      }),
    );
    expect(await outcome(await webhook(ended))).toBe('processed');
    const res = await render(key);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('1000');
  });
});

describe('changing plan: Pro → Scale', () => {
  let pro: Awaited<ReturnType<typeof buy>>;
  const email = 'cambio@example.com';
  const t0 = Math.floor(Date.now() / 1000);
  const updated = (
    price: string,
    created: number,
    customer = pro.session.customer,
    id = pro.session.subscription!,
  ) =>
    stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({
        id,
        customer,
        status: 'active',
        metadata: { plan: 'pro', service: 'documents' },
        price,
      }),
      created,
    );

  test('a second checkout for scale while Pro is active → 409 naming the portal; Stripe is not called', async () => {
    pro = await buy('pro', email);
    expect(await outcome(await webhook(updated(TEST_DOCS_PRICE_PRO, t0)))).toBe('processed');
    const before = stripe.requests.length;
    const res = await fetch(docs(`/pay/checkout/scale?email=${encodeURIComponent('Cambio@Example.com')}`), {
      redirect: 'manual',
    });
    expect(res.status).toBe(409);
    const body = (await res.json()) as Json;
    expect(body.detail).toMatch(/^This e-mail already has an active subscription to this API/);
    expect(body.detail).toContain('POST /pay/portal?email=Cambio%40Example.com');
    expect(stripe.requests).toHaveLength(before);
    // The same e-mail may still buy narration (another service) and documents Lifetime (an upgrade).
    expect((await fetch(app.url(`/pay/checkout/pro?email=${email}`), { redirect: 'manual' })).status).toBe(
      302,
    );
    expect((await fetch(docs(`/pay/checkout/lifetime?email=${email}`), { redirect: 'manual' })).status).toBe(
      302,
    );
  });

  test('the portal switch arrives as customer.subscription.updated at the Scale price → the key renders with 10,000', async () => {
    expect((await render(pro.key)).headers.get('ratelimit-limit')).toBe('1000');
    expect(await outcome(await webhook(updated(TEST_DOCS_PRICE_SCALE, t0 + 10)))).toBe('processed');
    const res = await render(pro.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('10000');
    expect(await status(pro.key)).toMatchObject({ plan: 'scale', status: 'active', paid_access: true });
    // A price this service does not sell keeps the plan.
    expect(await outcome(await webhook(updated('price_unknown', t0 + 20)))).toBe('processed');
    expect((await render(pro.key)).headers.get('ratelimit-limit')).toBe('10000');
    // Now the checkout names Scale.
    const again = await getJson(docs(`/pay/checkout/pro?email=${email}`));
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/already has an active subscription/); // the switched one still counts
  });

  test('a lifetime account is never downgraded by a subscription event', async () => {
    const life = await buy('lifetime', 'vida-cambio@example.com');
    const sub = updated(TEST_DOCS_PRICE_PRO, t0 + 30, life.session.customer, 'sub_vida');
    expect(await outcome(await webhook(sub))).toBe('processed');
    expect(await status(life.key)).toMatchObject({ plan: 'lifetime', status: 'active' });
    expect((await render(life.key)).headers.get('ratelimit-limit')).toBe('1000');
  });
});

describe('one Stripe account, two services', () => {
  test('a narration checkout (no service stamp) is ignored by the documents webhook and not picked up there', async () => {
    const res = await fetch(app.url('/pay/checkout/pro'), { headers: { accept: 'application/json' } });
    const sessionId = ((await res.json()) as { url: string }).url.split('/').pop()!;
    const session = stripe.complete(sessionId, { email: 'voz@example.com' });
    const payload = stripeEvent('checkout.session.completed', session);
    expect(await outcome(await webhook(payload))).toBe('ignored');
    // Before narration's own webhook: documents asks Stripe, sees a narration purchase, refuses it.
    const there = await success(sessionId);
    expect(there.status).toBe(404);
    expect(there.body.detail).toMatch(/not buy a plan of this service/);
    expect(await outcome(await webhook(payload, { base: 'narration' }))).toBe('processed');
    expect((await success(sessionId, 'narration')).body.api_key).toMatch(/^key_/);
  });

  test('a documents session whose mode does not match its plan grants nothing', async () => {
    const odd = checkoutObject({ mode: 'payment', plan: 'pro', service: 'documents' });
    expect(await outcome(await webhook(stripeEvent('checkout.session.completed', odd)))).toBe('ignored');
  });
});

describe('without a key', () => {
  test('GET /pay/status: the free tier of this IP, monthly, and the plans with their checkout paths', async () => {
    const rendered = await render();
    expect(rendered.status).toBe(200);
    const view = await status();
    expect(view).toMatchObject({ plan: 'free', status: 'free', paid_access: false, account: null });
    // The month of the render, or one begun since (none used yet).
    const monthOfRender = new Date(windowOf(rendered, 'month') * 1000);
    const used = sameWindow('month', monthOfRender, new Date(Date.parse(view.usage.windows[0].reset_at) - 1))
      ? 1
      : 0;
    expect(view.usage.windows).toEqual([
      expect.objectContaining({ period: 'month', limit: 50, used, remaining: 50 - used }),
    ]);
    expect(view.plans.map((p: Json) => [p.id, p.checkout])).toEqual([
      ['free', null],
      ['pro', '/pay/checkout/pro'],
      ['scale', '/pay/checkout/scale'],
      ['lifetime', '/pay/checkout/lifetime'],
    ]);
  });

  test('GET /pricing names the checkout path of each paid plan', async () => {
    const res = await fetch(docs('/pricing'));
    const body = (await res.json()) as { plans: { id: string; checkout: string | null }[] };
    expect(body.plans.find((p) => p.id === 'scale')!.checkout).toBe('/pay/checkout/scale');
  });

  test('an unsigned delivery to the documents webhook is 400', async () => {
    const payload = stripeEvent('invoice.paid', { id: 'in_1', object: 'invoice' });
    expect((await webhook(payload, { signature: null })).status).toBe(400);
  });
});
