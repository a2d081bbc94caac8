// Stripe adapter: the official `stripe` SDK (chosen over hand-written HTTP + HMAC because it owns the parts that
// are easy to get subtly wrong: the webhook signature scheme with its timestamp tolerance and constant-time
// compare, form encoding of nested params, idempotency keys on retried POSTs, API version pinning). Maps Stripe's
// objects to the few facts billing uses (ports.ts). STRIPE_API_BASE points the SDK at a local stand-in in tests.
import Stripe from 'stripe';
import type { PlatformConfig as Config } from '../config';
import { InvalidRequest, NotFound, Unavailable } from '../errors';
import { logger } from '../logger';
import type { PaidPlan } from '../auth/keys';
import { ownsService, setting, type BillingCatalogue } from './catalogue';
import { checkoutMode } from '../auth/paid-access';
import { ALL_PAID_PLANS } from './plans';
import type {
  BillingEvent,
  CheckoutFacts,
  CheckoutRequest,
  CheckoutSession,
  PaymentGateway,
  SubscriptionFacts,
} from './ports';

/** Events that change accounts. The contract's three, plus the two that complete a delayed payment. */
const CHECKOUT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

/** Seconds a signed event may be old (Stripe's default): limits replays of a captured request. */
export const SIGNATURE_TOLERANCE_S = 300;

/**
 * Configuration missing for a payment route: a 503 in one plain sentence for the visitor, and an error log naming
 * what to set for the operator (variable names and where secrets come from are not the visitor's business).
 */
export class BillingNotConfiguredError extends Unavailable {
  constructor(
    readonly variable: string,
    readonly what: string,
  ) {
    super(
      'Payments are not available on this server right now. Please try again later or contact support.',
      60,
    );
    logger.error('payments not configured', {
      variable,
      what,
      fix: `set ${variable} on this function; in the cloud the stack passes it from Secrets Manager / SSM`,
    });
  }
}

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v == null ? null : typeof v === 'string' ? v : v.id;

/** The session's facts. `plan` is any known paid plan; whether it is one this service sells is planOf's call. */
export function checkoutFacts(s: Stripe.Checkout.Session): CheckoutFacts {
  const plan = s.metadata?.plan;
  const service = s.metadata?.service || undefined;
  return {
    sessionId: s.id,
    status: s.status ?? 'open',
    paymentStatus: s.payment_status,
    mode: s.mode,
    customerId: idOf(s.customer as string | { id: string } | null),
    email: s.customer_details?.email ?? s.customer_email ?? null,
    subscriptionId: idOf(s.subscription as string | { id: string } | null),
    plan: (ALL_PAID_PLANS as readonly string[]).includes(plan ?? '') ? (plan as PaidPlan) : undefined,
    ref: s.metadata?.ref || undefined,
    ...(service ? { service } : {}),
  };
}

export function subscriptionFacts(s: Stripe.Subscription): SubscriptionFacts {
  // Since API 2025-03-31 the period lives on the items; a one-price subscription has one item.
  const ends = (s.items?.data ?? []).map((i) => i.current_period_end).filter((n) => typeof n === 'number');
  const service = s.metadata?.service || undefined;
  // Our checkouts sell one price per subscription; a portal plan switch replaces that item's price.
  const priceId = idOf(s.items?.data?.[0]?.price as string | { id: string } | null | undefined);
  return {
    subscriptionId: s.id,
    customerId: idOf(s.customer as string | { id: string })!,
    status: s.status,
    ...(ends.length ? { currentPeriodEnd: Math.max(...ends) } : {}),
    cancelAtPeriodEnd: !!s.cancel_at_period_end,
    ...(service ? { service } : {}),
    ...(priceId ? { priceId } : {}),
  };
}

/**
 * The event as this service sees it. Events of the other service's checkouts and subscriptions (one Stripe account
 * sends every event to both endpoints) are `ignored` before anything is stored: not even their event id is claimed.
 */
export function toBillingEvent(event: Stripe.Event, cat: BillingCatalogue): BillingEvent {
  const base = { id: event.id, type: event.type, created: event.created };
  if (CHECKOUT_EVENTS.has(event.type)) {
    const session = checkoutFacts(event.data.object as Stripe.Checkout.Session);
    if (!ownsService(cat, session.service)) return { ...base, kind: 'ignored' };
    return { ...base, kind: 'checkout', session };
  }
  if (SUBSCRIPTION_EVENTS.has(event.type)) {
    const subscription = subscriptionFacts(event.data.object as Stripe.Subscription);
    if (!ownsService(cat, subscription.service)) return { ...base, kind: 'ignored' };
    return { ...base, kind: 'subscription', subscription };
  }
  return { ...base, kind: 'ignored' };
}

/**
 * Verifies `Stripe-Signature` over the exact bytes received (re-serialised JSON would not match) and returns the
 * event; 400 `{"detail": ...}` when the header is missing or the signature does not verify.
 */
export function verifyWebhook(
  raw: Buffer,
  signature: string | undefined,
  secret: string,
  cat: BillingCatalogue,
): BillingEvent {
  if (!signature)
    throw new InvalidRequest(
      'Missing Stripe-Signature header: this endpoint only accepts events sent by Stripe.',
    );
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(raw, signature, secret, SIGNATURE_TOLERANCE_S);
  } catch (err) {
    const msg = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : 'invalid signature';
    throw new InvalidRequest(`Webhook signature verification failed: ${msg}`);
  }
  if (!event || typeof event.id !== 'string' || typeof event.type !== 'string')
    throw new InvalidRequest('The signed payload is not a Stripe event.');
  return toBillingEvent(event, cat);
}

const clients = new Map<string, Stripe>();

/** One SDK client per (key, base) per process. */
export function stripeClient(secretKey: string, apiBase?: string): Stripe {
  const id = `${apiBase ?? ''}|${secretKey}`;
  let client = clients.get(id);
  if (!client) {
    const base = apiBase ? new URL(apiBase) : undefined;
    client = new Stripe(secretKey, {
      maxNetworkRetries: 1,
      // Under the routes' Lambda timeouts, so a slow Stripe answers 503 in our shape.
      timeout: 6000,
      telemetry: false,
      appInfo: { name: 'narration-api' },
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'http:' ? 80 : 443),
            protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
          }
        : {}),
    });
    clients.set(id, client);
  }
  return client;
}

function providerError(action: string, err: unknown): never {
  const e = err as {
    type?: string;
    statusCode?: number;
    code?: string;
    message?: string;
    requestId?: string;
  };
  logger.error(`stripe ${action} failed`, {
    type: e.type,
    statusCode: e.statusCode,
    code: e.code,
    requestId: e.requestId,
    message: e.message,
  });
  throw new Unavailable(`The payment provider could not ${action} right now. Please retry in a moment.`, 10);
}

/** Stripe allows [A-Za-z0-9_-] in client_reference_id (pricing tables drop anything else); metadata keeps `ref` as is. */
export function clientReferenceId(ref: string): string {
  return ref.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200);
}

export class StripeGateway implements PaymentGateway {
  constructor(private readonly stripe: Stripe) {}

  async createCheckout(r: CheckoutRequest): Promise<CheckoutSession> {
    const mode = checkoutMode(r.plan);
    const metadata: Record<string, string> = {
      plan: r.plan,
      ...(r.service ? { service: r.service } : {}),
      ...(r.ref ? { ref: r.ref } : {}),
    };
    const params: Stripe.Checkout.SessionCreateParams = {
      mode,
      line_items: [{ price: r.priceId, quantity: 1 }],
      success_url: r.successUrl,
      cancel_url: r.cancelUrl,
      metadata,
      ...(r.email ? { customer_email: r.email } : {}),
      ...(r.ref ? { client_reference_id: clientReferenceId(r.ref) } : {}),
      ...(mode === 'subscription'
        ? { subscription_data: { metadata } }
        : // A customer for the portal (receipts, invoices) also after a one-time payment.
          { customer_creation: 'always' as const, payment_intent_data: { metadata } }),
    };
    let s: Stripe.Checkout.Session;
    try {
      s = await this.stripe.checkout.sessions.create(params);
    } catch (err) {
      providerError('start a checkout', err);
    }
    if (!s.url) providerError('start a checkout', new Error('session without url'));
    return { id: s.id, url: s.url, expiresAt: s.expires_at };
  }

  async retrieveCheckout(sessionId: string): Promise<CheckoutFacts | undefined> {
    try {
      return checkoutFacts(await this.stripe.checkout.sessions.retrieve(sessionId));
    } catch (err) {
      const e = err as { statusCode?: number; code?: string };
      if (e.statusCode === 404 || e.code === 'resource_missing') return undefined;
      providerError('look up the checkout', err);
    }
  }

  async createPortal(customerId: string, returnUrl: string): Promise<{ url: string }> {
    try {
      const s = await this.stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      });
      return { url: s.url };
    } catch (err) {
      providerError('open the customer portal', err);
    }
  }
}

/** The gateway when STRIPE_SECRET_KEY is set, else undefined. */
export function stripeGateway(cfg: Config): PaymentGateway | undefined {
  return cfg.STRIPE_SECRET_KEY
    ? new StripeGateway(stripeClient(cfg.STRIPE_SECRET_KEY, cfg.STRIPE_API_BASE))
    : undefined;
}

/** The gateway, or 503 naming STRIPE_SECRET_KEY. */
export function requireGateway(gateway: PaymentGateway | undefined): PaymentGateway {
  if (!gateway) throw new BillingNotConfiguredError('STRIPE_SECRET_KEY', 'the Stripe secret API key');
  return gateway;
}

/** The Stripe price id of one of the service's plans, or 503 naming the setting. */
export function requirePriceId(plan: PaidPlan, cfg: Config, cat: BillingCatalogue): string {
  const offer = cat.offers.find((o) => o.plan === plan);
  if (!offer) throw new NotFound(`The ${plan} plan is not sold by this service.`);
  const id = setting(cfg, offer.priceSetting);
  if (!id) throw new BillingNotConfiguredError(offer.priceSetting, `the Stripe price id of the ${plan} plan`);
  return id;
}
