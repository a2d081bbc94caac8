// Billing test kit: a local stand-in for the Stripe API (127.0.0.1 only) that records and checks what the real
// stripe SDK sends, Stripe-shaped event payloads, and real signatures (stripe.webhooks.generateTestHeaderString).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const TEST_SECRET_KEY = 'sk_test_standin_51Hxyz';
export const TEST_WEBHOOK_SECRET = 'whsec_test_standin_secret';
export const TEST_PRICE_PRO = 'price_pro_test';
export const TEST_PRICE_LIFETIME = 'price_lifetime_test';
/** The documents API's own webhook endpoint secret and prices (DOCS_* settings). */
export const TEST_DOCS_WEBHOOK_SECRET = 'whsec_test_standin_docs_secret';
export const TEST_DOCS_PRICE_PRO = 'price_docs_pro_test';
export const TEST_DOCS_PRICE_SCALE = 'price_docs_scale_test';
export const TEST_DOCS_PRICE_LIFETIME = 'price_docs_lifetime_test';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Form fields as the SDK encodes them: `line_items[0][price]` etc. */
  form: Record<string, string>;
}

interface SessionState {
  id: string;
  params: Record<string, string>;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  customer: string | null;
  subscription: string | null;
  email: string | null;
  created: number;
}

export interface StripeStandIn {
  base: string;
  requests: RecordedRequest[];
  /** Requests refused for a wrong key or a missing Stripe-Version (the test fails on any). */
  rejected: RecordedRequest[];
  /** Marks a session completed as Stripe would after payment; returns its checkout.session.completed object. */
  complete(
    sessionId: string,
    opts?: { paymentStatus?: 'paid' | 'unpaid'; email?: string },
  ): Record<string, unknown>;
  stop(): Promise<void>;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()))));
    req.on('error', reject);
  });
}

function sessionObject(s: SessionState, base: string): Record<string, unknown> {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.params)) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) metadata[m[1]!] = v;
  }
  return {
    id: s.id,
    object: 'checkout.session',
    mode: s.params.mode,
    status: s.status,
    payment_status: s.paymentStatus,
    url: s.status === 'open' ? `${base}/c/pay/${s.id}` : null,
    expires_at: s.created + 86400,
    created: s.created,
    customer: s.customer,
    customer_email: s.params.customer_email ?? null,
    customer_details: s.email ? { email: s.email } : null,
    subscription: s.subscription,
    client_reference_id: s.params.client_reference_id ?? null,
    metadata,
    success_url: s.params.success_url,
    cancel_url: s.params.cancel_url,
  };
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const rejected: RecordedRequest[] = [];
  const sessions = new Map<string, SessionState>();
  let base = '';
  const server: Server = createServer(async (req, res) => {
    const form = await readForm(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const url = new URL(req.url ?? '/', 'http://standin');
    const rec: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, headers, form };
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': rid('req') });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, type: string, message: string, code?: string) =>
      send(status, { error: { type, message, ...(code ? { code } : {}) } });
    if (headers.authorization !== `Bearer ${TEST_SECRET_KEY}` || !headers['stripe-version']) {
      rejected.push(rec);
      return error(401, 'invalid_request_error', 'Invalid API Key provided');
    }
    requests.push(rec);
    if (rec.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const s: SessionState = {
        id: rid('cs_test'),
        params: form,
        status: 'open',
        paymentStatus: 'unpaid',
        customer: null,
        subscription: null,
        email: form.customer_email ?? null,
        created: Math.floor(Date.now() / 1000),
      };
      sessions.set(s.id, s);
      return send(200, sessionObject(s, base));
    }
    const m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (rec.method === 'GET' && m) {
      const s = sessions.get(decodeURIComponent(m[1]!));
      if (!s)
        return error(404, 'invalid_request_error', `No such checkout.session: '${m[1]}'`, 'resource_missing');
      return send(200, sessionObject(s, base));
    }
    if (rec.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      if (!form.customer) return error(400, 'invalid_request_error', 'Missing required param: customer.');
      const id = rid('bps');
      return send(200, {
        id,
        object: 'billing_portal.session',
        customer: form.customer,
        return_url: form.return_url ?? null,
        url: `${base}/p/session/${id}`,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      });
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${rec.method}: ${url.pathname})`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    rejected,
    complete(sessionId, opts = {}) {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`stand-in: unknown session ${sessionId}`);
      s.status = 'complete';
      s.paymentStatus = opts.paymentStatus ?? 'paid';
      s.customer = rid('cus');
      s.email = opts.email ?? s.email ?? 'comprador@example.com';
      if (s.params.mode === 'subscription') s.subscription = rid('sub');
      return sessionObject(s, base);
    },
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

// ── Events ──

let seq = 0;
export const eventId = () => `evt_test_${Date.now().toString(36)}_${(seq++).toString(36)}`;

export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  created = Math.floor(Date.now() / 1000),
  id = eventId(),
): string {
  return JSON.stringify(
    {
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    },
    null,
    2,
  );
}

export interface CheckoutObjectInput {
  id?: string;
  mode: 'subscription' | 'payment';
  plan?: 'pro' | 'lifetime' | 'scale';
  /** metadata.service as the documents API's checkout sets it (narration's sessions have none). */
  service?: string;
  customer?: string | null;
  subscription?: string | null;
  email?: string;
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
  ref?: string;
}

/** A completed Checkout Session as Stripe sends it in checkout.session.completed. */
export function checkoutObject(i: CheckoutObjectInput): Record<string, unknown> & { id: string } {
  const id = i.id ?? rid('cs_test');
  return {
    id,
    object: 'checkout.session',
    mode: i.mode,
    status: 'complete',
    payment_status: i.paymentStatus ?? 'paid',
    customer: i.customer === undefined ? rid('cus') : i.customer,
    customer_details: { email: i.email ?? 'cliente@example.com', name: 'Cliente' },
    customer_email: null,
    subscription: i.mode === 'subscription' ? (i.subscription ?? rid('sub')) : null,
    metadata: {
      ...(i.plan ? { plan: i.plan } : {}),
      ...(i.service ? { service: i.service } : {}),
      ...(i.ref ? { ref: i.ref } : {}),
    },
    url: null,
    expires_at: Math.floor(Date.now() / 1000) + 86400,
  };
}

export function subscriptionObject(i: {
  id: string;
  customer: string;
  status: string;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  /** What Checkout copied from subscription_data.metadata (plan, service). */
  metadata?: Record<string, string>;
  /** The price billed (items.data[0].price.id); narration's Pro price unless told. */
  price?: string;
}): Record<string, unknown> {
  return {
    id: i.id,
    object: 'subscription',
    customer: i.customer,
    status: i.status,
    cancel_at_period_end: i.cancelAtPeriodEnd ?? false,
    ...(i.metadata ? { metadata: i.metadata } : {}),
    items: {
      object: 'list',
      data: [
        {
          id: `si_${i.id}`,
          object: 'subscription_item',
          current_period_end: i.periodEnd ?? Math.floor(Date.now() / 1000) + 30 * 86400,
          price: { id: i.price ?? TEST_PRICE_PRO, object: 'price' },
        },
      ],
    },
  };
}

/** A real `Stripe-Signature` header for `payload`, made by the stripe SDK. */
export function sign(payload: string, secret = TEST_WEBHOOK_SECRET, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}
