// The route specs of the /pay routes, built here once and called by each service with what differs (its catalogue,
// its error responses, a few words of its own docs), as ../http/page-routes.ts builds the pages. One handler file per
// service serves them all (lambdas/<service>/handlers/billing.ts, on ./handlers.ts). Plain data, like every spec
// (../manifest.ts): what each function reads (settings, tables) follows from the catalogue, so the two services cannot
// drift apart. Behaviour, statuses and bodies: docs/billing.md.
import type { Access, RouteSpec } from '../manifest';
import type { ParamDoc, ResponseDoc, RouteDoc } from '../http/route-doc';
import { checkoutMode } from '../auth/paid-access';
import { offeredPlans, type BillingCatalogue } from './catalogue';
import { PortalResponse, catalogueSchemas } from './requests';

/** Route ids (CDK construct ids: keep them stable), in the order the manifest lists them. */
export type BillingRouteId =
  'PayCheckout' | 'PaySuccess' | 'PayStatus' | 'PayPortal' | 'PayWebhook' | 'PayKeysRotate';

/** Stripe events are a few KiB; the largest (many line items or expanded objects) stay well below this. */
export const WEBHOOK_MAX_BODY_BYTES = 256 * 1024;

/** What a service's reference says about one route beyond the platform's text: fields replace, responses add. */
export interface BillingRouteDoc {
  summary?: string;
  description?: string;
  params?: ParamDoc[];
  responses?: Record<number, ResponseDoc>;
}

/** How a service's /pay routes behave where the services differ (read by the specs here and by ./handlers.ts). */
export interface PayRoutes {
  catalogue: BillingCatalogue;
  /** Status of an invalid request in the service's contract (narration 422, the default; documents 400). */
  invalidStatus?: 400 | 422;
  /**
   * Count purchases whose `ref` names an A/B variant as conversions (the routes that fulfil a purchase then read
   * the experiments and write the growth table). Default true.
   */
  abAttribution?: boolean;
  /**
   * Pages for people, as paths on the public address: `success` is where Checkout lands the buyer (given
   * `?session_id=`; it calls GET /pay/success and shows the key), `back` where Checkout's back button and the portal
   * return (BILLING_RETURN_URL overrides it). Defaults: the JSON routes /pay/success and /pay/status.
   */
  pages?: { success?: string; back?: string };
}

export interface BillingRoutesOptions extends PayRoutes {
  /** The handler file serving every /pay route (lambdas/<service>/handlers/billing.ts). */
  handler: string;
  /** The service's answers in its own words: invalid request, bad key, unavailable, and its `{"detail"}` schema. */
  errors: {
    invalid: ResponseDoc;
    unauthenticated: ResponseDoc;
    unavailable: ResponseDoc;
    detail: ResponseDoc['schema'];
  };
  /** Settings GET /pay/status reads for the plans it lists (narration: the prices it shows). */
  statusSettings?: string[];
  /**
   * The service's words per route. Checkout's and status's descriptions are the service's own (its prices, its
   * usage windows); the other routes have the platform's text unless the service says more.
   */
  docs: Record<'PayCheckout' | 'PayStatus', BillingRouteDoc & { description: string }> &
    Partial<Record<BillingRouteId, BillingRouteDoc>>;
}

const withDocs = (base: RouteDoc, own: BillingRouteDoc | undefined): RouteDoc => ({
  ...base,
  ...(own?.summary ? { summary: own.summary } : {}),
  ...(own?.description ? { description: own.description } : {}),
  ...(own?.params ? { params: own.params } : {}),
  responses: { ...base.responses, ...own?.responses },
});

/** The six /pay routes: checkout, success, status, portal, Stripe webhook, key rotation. */
export function billingRoutes(o: BillingRoutesOptions): (RouteSpec & { id: BillingRouteId })[] {
  const cat = o.catalogue;
  const { CheckoutResponse, SuccessResponse, RotateResponse } = catalogueSchemas(cat);
  const s = cat.settings;
  const prices = cat.offers.map((offer) => offer.priceSetting);
  // The webhook maps a portal plan switch (subscription updated) to a plan: the subscription plans' prices.
  const subscriptionPrices = cat.offers
    .filter((offer) => checkoutMode(offer.plan) === 'subscription')
    .map((offer) => offer.priceSetting);
  const abAttribution = o.abAttribution !== false;
  const ab = abAttribution ? ['AB_EXPERIMENTS'] : [];
  // Fulfilment (webhook, or success when the webhook is late) creates the account and its key.
  const fulfils: Access['tables'] = {
    accounts: 'rw',
    keys: 'rw',
    ...(abAttribution ? { growth: 'rw' } : {}),
  };
  const invalid = { [o.invalidStatus ?? 422]: o.errors.invalid };
  const base = { handler: o.handler, memoryMb: 256 } as const;
  const spec = (
    id: BillingRouteId,
    rest: Omit<RouteSpec, 'id' | 'handler' | 'memoryMb' | 'docs'>,
    docs: RouteDoc,
  ): RouteSpec & { id: BillingRouteId } => ({ id, ...base, ...rest, docs: withDocs(docs, o.docs[id]) });

  return [
    spec(
      'PayCheckout',
      {
        method: 'GET',
        path: '/pay/checkout/{plan}',
        timeoutS: 15,
        // accounts 'r': a second subscription for an e-mail that already has one is refused (409, portal).
        access: {
          tables: { accounts: 'r' },
          settings: ['STRIPE_SECRET_KEY', ...prices, s.publicBaseUrl, s.returnUrl, ...ab],
        },
      },
      {
        summary: 'Buy a plan (Stripe Checkout)',
        tags: ['billing'],
        params: [
          {
            name: 'plan',
            in: 'path',
            required: true,
            description: offeredPlans(cat)
              .join(', ')
              .replace(/, ([^,]*)$/, ' or $1'),
          },
          { name: 'email', in: 'query', description: 'Prefilled e-mail on the Stripe page (≤ 200)' },
          { name: 'ref', in: 'query', description: 'Attribution reference kept on the purchase (≤ 120)' },
        ],
        responses: {
          200: { description: 'Checkout URL (JSON clients)', schema: CheckoutResponse },
          302: { description: 'Redirect to Stripe Checkout', headers: { Location: 'Checkout page' } },
          ...invalid,
          503: o.errors.unavailable,
        },
      },
    ),
    spec(
      'PaySuccess',
      {
        method: 'GET',
        path: '/pay/success',
        timeoutS: 15,
        access: {
          settings: ['STRIPE_SECRET_KEY', 'STRIPE_PORTAL_LOGIN_URL', 'KEY_PICKUP_HOURS', ...ab],
          tables: fulfils,
        },
      },
      {
        summary: 'Pick up the API key after paying',
        tags: ['billing'],
        description:
          'The first call (within 24 h) returns the plaintext `api_key` once; later calls return the plan with ' +
          '`api_key: null` and how to get a new key (POST /pay/keys/rotate with the key, or support).',
        params: [
          { name: 'session_id', in: 'query', required: true, description: 'cs_… from the Checkout redirect' },
        ],
        responses: {
          200: { description: 'Plan, status and (once) the key', schema: SuccessResponse },
          ...invalid,
          503: o.errors.unavailable,
        },
      },
    ),
    spec(
      'PayStatus',
      {
        method: 'GET',
        path: '/pay/status',
        timeoutS: 5,
        access: {
          ...(o.statusSettings?.length ? { settings: o.statusSettings } : {}),
          tables: { accounts: 'r', keys: 'r', quotas: 'r' },
        },
      },
      {
        summary: 'Plan, status and usage',
        tags: ['billing'],
        bearer: 'optional',
        responses: { 200: { description: 'Status' }, 401: o.errors.unauthenticated },
      },
    ),
    spec(
      'PayPortal',
      {
        method: 'POST',
        path: '/pay/portal',
        timeoutS: 15,
        maxBodyBytes: 1024,
        access: {
          settings: ['STRIPE_SECRET_KEY', s.publicBaseUrl, s.returnUrl, 'STRIPE_PORTAL_LOGIN_URL'],
          tables: { accounts: 'r', keys: 'r' },
        },
      },
      {
        summary: 'Stripe customer portal',
        tags: ['billing'],
        bearer: 'required',
        description:
          "Cancel, change the card, see invoices. Requires the account's API key and its e-mail; without a key " +
          'every e-mail gets the same 401, so the endpoint never reveals who is a customer.',
        params: [{ name: 'email', in: 'query', required: true, description: "The account's e-mail" }],
        responses: {
          200: { description: 'Portal session URL', schema: PortalResponse },
          ...invalid,
          401: o.errors.unauthenticated,
          503: o.errors.unavailable,
        },
      },
    ),
    spec(
      'PayWebhook',
      {
        method: 'POST',
        path: '/pay/webhook',
        timeoutS: 20,
        maxBodyBytes: WEBHOOK_MAX_BODY_BYTES,
        access: {
          settings: [s.webhookSecret, 'KEY_PICKUP_HOURS', ...subscriptionPrices, ...ab],
          tables: fulfils,
        },
      },
      {
        summary: 'Stripe webhook (for Stripe only)',
        tags: ['billing'],
        description:
          "Verifies `Stripe-Signature` on the raw body with this API's own endpoint secret. A completed checkout " +
          'creates the account and one key; subscription updates are copied onto its keys (deleted → 402). ' +
          'Idempotent per event id; older events never overwrite newer state; events of other products are ignored.',
        responses: {
          200: { description: 'Acknowledged (also replays and ignored events)' },
          400: { description: 'Missing or bad signature', schema: o.errors.detail },
          503: o.errors.unavailable,
        },
      },
    ),
    spec(
      'PayKeysRotate',
      {
        method: 'POST',
        path: '/pay/keys/rotate',
        timeoutS: 10,
        maxBodyBytes: 1024,
        access: { settings: ['STRIPE_PORTAL_LOGIN_URL'], tables: { accounts: 'rw', keys: 'rw' } },
      },
      {
        summary: 'Replace an API key',
        tags: ['billing'],
        bearer: 'required',
        description:
          'Issues a new key for the same account and plan and revokes the one sent (it gets 401 from then on); ' +
          'the new key is shown once.',
        responses: {
          200: { description: 'The new key', schema: RotateResponse },
          401: o.errors.unauthenticated,
          409: { description: 'Not a purchased key, or already rotated', schema: o.errors.detail },
        },
      },
    ),
  ];
}
