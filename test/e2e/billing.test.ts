// The paid path over HTTP, offline: GET /pay/checkout → (a local Stripe stand-in checks what the real SDK sends)
// → signed webhook (real stripe SDK signing) → account + key → key picked up once at /pay/success → the key skips
// the free-tier limits → subscription deleted → 402. Replays, out-of-order events and bad signatures change
// nothing. A tripwire proves no connection leaves loopback.
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { variantKey } from '../../lambdas/shared/growth/ab';
import {
  TEST_PRICE_LIFETIME,
  TEST_PRICE_PRO,
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
import { spendWindow, windowOf } from '../helpers/quota-window';
import { postJson } from '../helpers/runtime';

jest.setTimeout(120_000);

const e2e = billingE2e({
  FREE_PER_HOUR: '1',
  FREE_PER_DAY: '1',
  AB_EXPERIMENTS: JSON.stringify({ precio: { variants: { a: 1, b: 1 }, control: 'a' } }),
});
let stripe: StripeStandIn;
let app: BillingRuntime;
beforeAll(() => ({ stripe, app } = e2e));

/** `signature` null sends no Stripe-Signature header. */
const webhook = (payload: string, signature: string | null = sign(payload)) =>
  postWebhook(app.url('/pay/webhook'), payload, signature);

const success = (sessionId: string) => getJson(app.url(`/pay/success?session_id=${sessionId}`));

async function convert(key?: string, text = 'Hola, cliente.') {
  return postJson(app.url('/convert/text'), { text }, key ? bearer(key) : {});
}

async function status(key?: string) {
  const res = await getJson(app.url('/pay/status'), key ? bearer(key) : {});
  expect(res.status).toBe(200);
  return res.body;
}

/** A checkout started through our API and completed on the stand-in, as Stripe would after payment. */
const paidCheckout = (plan: 'pro' | 'lifetime', email: string) =>
  checkout(stripe, app.url(`/pay/checkout/${plan}?email=${encodeURIComponent(email)}`), email);

describe('GET /pay/checkout/{plan}', () => {
  test('pro: the real SDK asks Stripe for a subscription session with price, e-mail, ref, success URL; browsers get 302', async () => {
    const before = stripe.requests.length;
    const res = await fetch(app.url('/pay/checkout/pro?email=Ana%40Example.com&ref=ab%3Ahero%3Ab'), {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${stripe.base}/c/pay/cs_test_`));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(stripe.requests).toHaveLength(before + 1);
    const sent = stripe.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.headers['stripe-version']).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(sent.headers['idempotency-key']).toBeTruthy();
    expect(sent.form).toEqual({
      mode: 'subscription',
      'line_items[0][price]': TEST_PRICE_PRO,
      'line_items[0][quantity]': '1',
      // The site's pages (NARRATION_PAY.pages): /gracias picks up the key from GET /pay/success.
      success_url: app.url('/gracias?session_id={CHECKOUT_SESSION_ID}'),
      cancel_url: app.url('/#precios'),
      'metadata[plan]': 'pro',
      'metadata[ref]': 'ab:hero:b',
      customer_email: 'Ana@Example.com',
      client_reference_id: 'ab_hero_b',
      'subscription_data[metadata][plan]': 'pro',
      'subscription_data[metadata][ref]': 'ab:hero:b',
    });
  });

  test('lifetime: a one-time payment that always creates a customer; JSON clients get 200 {plan, url, expires_at}', async () => {
    const res = await fetch(app.url('/pay/checkout/lifetime'), { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { plan: string; url: string; expires_at: string };
    expect(body.plan).toBe('lifetime');
    expect(body.url).toMatch(new RegExp(`^${stripe.base}/c/pay/cs_test_`));
    expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.now());
    const sent = stripe.requests.at(-1)!;
    expect(sent.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price]': TEST_PRICE_LIFETIME,
      customer_creation: 'always',
      'metadata[plan]': 'lifetime',
      'payment_intent_data[metadata][plan]': 'lifetime',
    });
    expect(sent.form).not.toHaveProperty('customer_email');
    expect(sent.form).not.toHaveProperty('subscription_data[metadata][plan]');
  });

  test.each([
    ['/pay/checkout/gold', ['path', 'plan'], 'literal_error'],
    ['/pay/checkout/pro?email=no-es-un-correo', ['query', 'email'], 'value_error'],
    [`/pay/checkout/pro?email=${'a'.repeat(195)}%40x.com`, ['query', 'email'], 'string_too_long'],
    [`/pay/checkout/pro?ref=${'r'.repeat(121)}`, ['query', 'ref'], 'string_too_long'],
  ])('%s → 422 in the contract shape, Stripe not called', async (path, loc, type) => {
    const before = stripe.requests.length;
    const res = await fetch(app.url(path), { redirect: 'manual' });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    expect(body.detail).toEqual([expect.objectContaining({ loc, type })]);
    expect(stripe.requests).toHaveLength(before);
  });

  test('limits are inclusive: a 200-character e-mail and a 120-character ref are accepted', async () => {
    const email = `${'a'.repeat(194)}@x.com`;
    expect(email).toHaveLength(200);
    const res = await fetch(
      app.url(`/pay/checkout/pro?email=${encodeURIComponent(email)}&ref=${'r'.repeat(120)}`),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    expect(stripe.requests.at(-1)!.form.customer_email).toBe(email);
  });
});

describe('the paid path: webhook → key picked up once → no limits → subscription ends → 402', () => {
  let sessionId: string;
  let customer: string;
  let subscription: string;
  let key: string;
  /** The free tier's charge of this IP in the test of the limits. */
  let anonymousCharge: Response;
  const email = 'pro@example.com';
  const t0 = Math.floor(Date.now() / 1000);

  test('checkout.session.completed (signed by the SDK) creates the account and a key; a replay changes nothing', async () => {
    const paid = await paidCheckout('pro', email);
    sessionId = paid.sessionId;
    customer = paid.session.customer;
    subscription = paid.session.subscription!;
    const payload = stripeEvent('checkout.session.completed', paid.session, t0);
    const signature = sign(payload);
    expect(await outcome(await webhook(payload, signature))).toBe('processed');
    expect(await outcome(await webhook(payload, signature))).toBe('duplicate');
  });

  test('GET /pay/success shows the key exactly once, then the plan and how to replace a lost key', async () => {
    const first = await success(sessionId);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ plan: 'pro', status: 'active', paid_access: true });
    key = first.body.api_key as string;
    expect(key).toMatch(/^key_[A-Za-z0-9_-]{43}$/);
    expect(first.body.key_prefix).toBe(key.slice(0, 10));

    const again = await success(sessionId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ plan: 'pro', api_key: null, key_prefix: key.slice(0, 10) });
    expect(again.body.message).toMatch(/already shown/);
    expect(again.body.message).toMatch(/\/pay\/keys\/rotate/);
  });

  test('the plaintext key is stored nowhere: keys and accounts tables hold only its hash', async () => {
    for (const table of [app.rt.emulators.tableNames.keys, app.rt.emulators.tableNames.accounts]) {
      const out = await dynamo().send(new ScanCommand({ TableName: table }));
      const dump = JSON.stringify(out.Items, (_k, v) => (v instanceof Set ? [...v] : v));
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(4));
      expect(dump).not.toContain(sessionId);
    }
  });

  test('the key skips the free-tier limits; anonymous callers hit them', async () => {
    // 1 an hour and 1 a day: refused until the UTC day turns (spendWindow follows a turn between the two). Each
    // text differs: a repeat would reuse the first audio, uncharged (docs/reuse.md).
    const { accepted } = await spendWindow(1, (i) => convert(undefined, `Hola, cliente ${i}.`), {
      period: 'day',
    });
    anonymousCharge = accepted.at(-1)!;
    for (let i = 0; i < 2; i++) {
      const res = await convert(key);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  test('GET /pay/status: the account with a key, the free-tier usage of this IP without', async () => {
    const paid = await status(key);
    expect(paid).toMatchObject({
      plan: 'pro',
      status: 'active',
      paid_access: true,
      key_prefix: key.slice(0, 10),
      account: { email, cancel_at_period_end: false },
      usage: { limited: false },
    });
    const free = await status();
    expect(free).toMatchObject({ plan: 'free', status: 'free', paid_access: false });
    const hour = free.usage.windows.find((w: { period: string }) => w.period === 'hour');
    // The hour of the anonymous charge above, or the next one (empty) when the hour turned since.
    const used = Date.parse(hour.reset_at) / 1000 - 3600 === windowOf(anonymousCharge) ? 1 : 0;
    expect(hour).toMatchObject({ limit: 1, used, remaining: 1 - used });
    expect(Date.parse(hour.reset_at)).toBeGreaterThan(Date.now());
    expect(hour.reset_in_s).toBeGreaterThan(0);
    expect(hour.reset_in_s).toBeLessThanOrEqual(3600);
    expect(free.plans.map((p: { id: string }) => p.id)).toEqual(['free', 'pro', 'lifetime']);
    expect(free.plans[1].price).toEqual({ amount_cents: 700, currency: 'usd', interval: 'month' });
  });

  test('POST /pay/portal: with the key and its e-mail → the SDK opens a portal session for the customer', async () => {
    const res = await fetch(app.url(`/pay/portal?email=${encodeURIComponent('PRO@example.com')}`), {
      method: 'POST',
      headers: bearer(key),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string };
    expect(body.url).toMatch(new RegExp(`^${stripe.base}/p/session/bps_`));
    const sent = stripe.requests.at(-1)!;
    expect(sent.path).toBe('/v1/billing_portal/sessions');
    expect(sent.form).toEqual({ customer, return_url: app.url('/#precios') });
  });

  test('a second Pro checkout for the same e-mail → 409 naming the portal (no second subscription); Lifetime is allowed', async () => {
    const before = stripe.requests.length;
    const again = await getJson(app.url(`/pay/checkout/pro?email=${encodeURIComponent(email)}`));
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/^This e-mail already has an active subscription to this API/);
    expect(again.body.detail).toContain(`POST /pay/portal?email=${encodeURIComponent(email)}`);
    expect(stripe.requests).toHaveLength(before);
    // Validation still comes first, in narration's 422 shape.
    expect((await fetch(app.url(`/pay/checkout/pro?email=x&ref=${'r'.repeat(200)}`))).status).toBe(422);
    expect(
      (await getJson(app.url(`/pay/checkout/lifetime?email=${email}`), { accept: 'application/json' }))
        .status,
    ).toBe(200);
  });

  test('POST /pay/portal reveals nothing about e-mails: same 401 for a customer e-mail and an unknown one', async () => {
    const answers = await Promise.all(
      [email, 'nadie@example.com'].map(async (e) => {
        const res = await fetch(app.url(`/pay/portal?email=${encodeURIComponent(e)}`), { method: 'POST' });
        return { status: res.status, body: await res.text() };
      }),
    );
    expect(answers[0]!.status).toBe(401);
    expect(answers[1]).toEqual(answers[0]);
    const wrong = await fetch(app.url('/pay/portal?email=otra%40example.com'), {
      method: 'POST',
      headers: bearer(key),
    });
    expect(wrong.status).toBe(403);
    const missing = await fetch(app.url('/pay/portal'), { method: 'POST', headers: bearer(key) });
    expect(missing.status).toBe(422);
  });

  test('out of order: an older customer.subscription.updated does not overwrite a newer one', async () => {
    const pastDue = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({ id: subscription, customer, status: 'past_due' }),
      t0 + 10,
    );
    expect(await outcome(await webhook(pastDue))).toBe('processed');
    const older = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({ id: subscription, customer, status: 'unpaid' }),
      t0 + 5,
    );
    expect(await outcome(await webhook(older))).toBe('stale');
    expect(await status(key)).toMatchObject({ status: 'past_due', paid_access: true });
    expect((await convert(key)).status).toBe(200);
  });

  test('customer.subscription.deleted revokes paid treatment: 402 pointing to the portal', async () => {
    const deleted = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({ id: subscription, customer, status: 'canceled' }),
      t0 + 20,
    );
    const signature = sign(deleted);
    expect(await outcome(await webhook(deleted, signature))).toBe('processed');
    const res = await convert(key);
    expect(res.status).toBe(402);
    const body = (await res.json()) as { detail: string; status: string; plan: string };
    expect(body).toMatchObject({ status: 'canceled', plan: 'pro' });
    expect(body.detail).toMatch(/\/pay\/portal/);
    expect(body.detail).toMatch(/\/pay\/checkout\/pro/);
    expect(await status(key)).toMatchObject({ status: 'canceled', paid_access: false });
    // The replay is recognised; nothing changes.
    expect(await outcome(await webhook(deleted, signature))).toBe('duplicate');
  });

  test('an ended subscription never comes back, even from a later-dated active update', async () => {
    for (const created of [t0 + 15, t0 + 30]) {
      const resurrect = stripeEvent(
        'customer.subscription.updated',
        subscriptionObject({ id: subscription, customer, status: 'active' }),
        created,
      );
      expect(await outcome(await webhook(resurrect))).toBe('stale');
    }
    expect((await convert(key)).status).toBe(402);
  });

  test('bad, missing, tampered or old signatures get 400 and change nothing', async () => {
    const revive = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({ id: `${subscription}_new`, customer, status: 'active' }),
      t0 + 40,
    );
    const cases: [string, string | null][] = [
      [revive, sign(revive, 'whsec_not_ours')],
      [revive, null],
      [revive.replace('"active"', '"trialing"'), sign(revive)],
      [revive, sign(revive, TEST_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600)],
      [revive, 't=123,v1=deadbeef'],
    ];
    for (const [payload, signature] of cases) {
      const res = await webhook(payload, signature);
      expect(res.status).toBe(400);
      expect(typeof ((await res.json()) as { detail: unknown }).detail).toBe('string');
    }
    expect((await convert(key)).status).toBe(402);
  });

  test('other event types are acknowledged and ignored', async () => {
    const payload = stripeEvent('invoice.paid', { id: 'in_1', object: 'invoice', customer });
    expect(await outcome(await webhook(payload))).toBe('ignored');
  });
});

describe('picking up keys', () => {
  test('10 concurrent GET /pay/success: exactly one gets the key; a lifetime key never expires', async () => {
    const paid = await paidCheckout('lifetime', 'vida@example.com');
    const payload = stripeEvent('checkout.session.completed', paid.session);
    expect(await outcome(await webhook(payload))).toBe('processed');
    const answers = await Promise.all(Array.from({ length: 10 }, () => success(paid.sessionId)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const keys = answers.map((a) => a.body.api_key).filter((k): k is string => typeof k === 'string');
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    expect(answers[0]!.body.plan).toBe('lifetime');
    // Even a subscription ending on that customer does not touch lifetime access.
    const ended = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({ id: 'sub_other', customer: paid.session.customer, status: 'canceled' }),
    );
    expect(await outcome(await webhook(ended))).toBe('processed');
    expect((await convert(key)).status).toBe(200);
    expect(await status(key)).toMatchObject({ plan: 'lifetime', status: 'active', paid_access: true });
  });

  test('success page before the webhook: Stripe is asked, the key is issued once, the late webhook adds none', async () => {
    const paid = await paidCheckout('pro', 'rapido@example.com');
    const first = await success(paid.sessionId);
    expect(first.status).toBe(200);
    expect(first.body.api_key).toMatch(/^key_/);
    expect(stripe.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: `/v1/checkout/sessions/${paid.sessionId}`,
    });
    const late = stripeEvent('checkout.session.completed', paid.session);
    expect(await outcome(await webhook(late))).toBe('processed');
    expect((await success(paid.sessionId)).body.api_key).toBeNull();
    const accounts = await dynamo().send(
      new ScanCommand({ TableName: app.rt.emulators.tableNames.accounts }),
    );
    const account = accounts.Items!.find((i) => i.pk === `acct#${paid.session.customer}`)!;
    expect([...(account.keyHashes as Set<string>)]).toHaveLength(1);
  });

  test('session_id missing → 422; unknown to Stripe → 404; not completed → 409', async () => {
    const missing = await fetch(app.url('/pay/success'));
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual([
      'query',
      'session_id',
    ]);
    expect((await success('cs_test_desconocido')).status).toBe(404);
    const open = await fetch(app.url('/pay/checkout/pro'), { headers: { accept: 'application/json' } });
    const openId = ((await open.json()) as { url: string }).url.split('/').pop()!;
    expect((await success(openId)).status).toBe(409);
  });

  test('a checkout completed before payment (delayed method) issues no key until async_payment_succeeded', async () => {
    const session = checkoutObject({ mode: 'payment', plan: 'lifetime', paymentStatus: 'unpaid' });
    expect(await outcome(await webhook(stripeEvent('checkout.session.completed', session)))).toBe(
      'awaiting_payment',
    );
    const paid = { ...session, payment_status: 'paid' };
    expect(await outcome(await webhook(stripeEvent('checkout.session.async_payment_succeeded', paid)))).toBe(
      'processed',
    );
    expect((await success(session.id)).body.api_key).toMatch(/^key_/);
  });
});

describe('POST /pay/keys/rotate', () => {
  test('the new key works with the same plan; the old one gets 401; rotating it again gets 401', async () => {
    const session = checkoutObject({ mode: 'payment', plan: 'lifetime', email: 'rota@example.com' });
    expect(await outcome(await webhook(stripeEvent('checkout.session.completed', session)))).toBe(
      'processed',
    );
    const old = (await success(session.id)).body.api_key as string;
    const res = await fetch(app.url('/pay/keys/rotate'), { method: 'POST', headers: bearer(old) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { api_key: string; revoked_key_prefix: string; plan: string };
    expect(body.plan).toBe('lifetime');
    expect(body.revoked_key_prefix).toBe(old.slice(0, 10));
    expect(body.api_key).not.toBe(old);
    expect((await convert(body.api_key)).status).toBe(200);
    expect((await convert(old)).status).toBe(401);
    const again = await fetch(app.url('/pay/keys/rotate'), { method: 'POST', headers: bearer(old) });
    expect(again.status).toBe(401);
  });
});

describe('attribution', () => {
  test('a purchase whose ref names an A/B variant counts once as that variant’s checkout conversion', async () => {
    const session = checkoutObject({ mode: 'subscription', plan: 'pro', ref: 'ab:precio:b' });
    const payload = stripeEvent('checkout.session.completed', session);
    expect(await outcome(await webhook(payload))).toBe('processed');
    // Stripe resends the same purchase as a new event (e.g. a manual resend): still one conversion.
    expect(await outcome(await webhook(stripeEvent('checkout.session.completed', session)))).toBe(
      'processed',
    );
    const item = await dynamo().send(
      new GetCommand({
        TableName: app.rt.emulators.tableNames.growth,
        Key: { pk: variantKey('precio', 'b') },
      }),
    );
    expect(item.Item).toMatchObject({ conversions: 1, conv_checkout: 1 });
  });
});
