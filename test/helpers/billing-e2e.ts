// The paid path's e2e scaffolding, for both APIs (test/e2e/billing.test.ts, test/e2e/documents-billing.test.ts): a
// loopback tripwire, the local Stripe stand-in and the runtime pointed at it, started in beforeAll and stopped in
// afterAll (which also fails the file if a connection left loopback or the stand-in refused a request), plus the
// steps every paid-path test takes: deliver a webhook, read its outcome, pay a checkout, pick up the key.
import { startBillingRuntime, type BillingRuntime } from './billing-runtime';
import {
  TEST_PRICE_LIFETIME,
  TEST_PRICE_PRO,
  TEST_SECRET_KEY,
  TEST_WEBHOOK_SECRET,
  startStripeStandIn,
  type StripeStandIn,
} from './billing-stripe';
import { installLoopbackTripwire, type Tripwire } from './loopback-only';

export interface BillingE2e {
  /** Set in beforeAll. */
  readonly stripe: StripeStandIn;
  readonly app: BillingRuntime;
}

/**
 * Call at the top of a test file. The runtime gets the Stripe key, the stand-in as API base and narration's
 * webhook secret and prices (one Stripe account sells both services); `env` adds to or overrides them.
 */
export function billingE2e(env: Record<string, string>): BillingE2e {
  let tripwire: Tripwire;
  let stripe: StripeStandIn;
  let app: BillingRuntime;
  beforeAll(async () => {
    tripwire = installLoopbackTripwire();
    stripe = await startStripeStandIn();
    app = await startBillingRuntime({
      STRIPE_SECRET_KEY: TEST_SECRET_KEY,
      STRIPE_API_BASE: stripe.base,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_PRICE_PRO: TEST_PRICE_PRO,
      STRIPE_PRICE_LIFETIME: TEST_PRICE_LIFETIME,
      ...env,
    });
  });
  afterAll(async () => {
    await app?.stop();
    await stripe?.stop();
    tripwire?.uninstall();
    expect(tripwire.attempts).toEqual([]);
    expect(stripe.rejected).toEqual([]);
  });
  return {
    get stripe() {
      return stripe;
    },
    get app() {
      return app;
    },
  };
}

/** POSTs a Stripe event payload to a /pay/webhook URL; `signature` null sends no Stripe-Signature header. */
export function postWebhook(url: string, payload: string, signature: string | null): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body: payload,
  });
}

/** The webhook's `outcome` (processed, duplicate, stale, ignored), after checking it answered 200. */
export async function outcome(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  return ((await res.json()) as { outcome: string }).outcome;
}

/** A type literal (not an interface) so that it stays assignable to stripeEvent's Record<string, unknown>. */
export type CompletedSession = {
  id: string;
  customer: string;
  subscription: string | null;
  metadata: Record<string, string>;
};

/**
 * A checkout started through the API (`checkoutUrl`: GET /pay/checkout/{plan}…, asked for JSON) and completed on
 * the stand-in, as Stripe would after payment.
 */
export async function paidCheckout(
  stripe: StripeStandIn,
  checkoutUrl: string,
  email: string,
): Promise<{ sessionId: string; session: CompletedSession }> {
  const res = await fetch(checkoutUrl, { headers: { accept: 'application/json' } });
  expect(res.status).toBe(200);
  const { url } = (await res.json()) as { url: string };
  const sessionId = url.split('/').pop()!;
  const session = stripe.complete(sessionId, { email }) as CompletedSession;
  return { sessionId, session };
}

/** GET of a JSON answer (GET /pay/success?session_id=…, /pay/status…): its status and parsed body. */
export async function getJson(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
