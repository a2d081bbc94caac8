// The /pay handlers, once for both services: each service's lambdas/<service>/handlers/billing.ts only wires its
// PayRoutes (what it sells, catalogue.ts; its validation shape: narration 422, documents 400), its deps and its
// plans into billingHandlers, with the limits of the specs ./routes.ts built. Behaviour, statuses and bodies are
// described in docs/billing.md.
import { resolveKeyHolder } from '../auth/resolve-caller';
import type { ApiKeyRecord, KeyStore } from '../auth/keys';
import type { PlatformConfig as Config } from '../config';
import type { GrowthStore } from '../growth/ports';
import { apiHandler } from '../http/api-handler';
import { lazyHandlers } from '../http/route-handlers';
import { Conflict, DomainError, Forbidden, Unavailable, Unauthenticated } from '../errors';
import type { ApiRequest } from '../http/request';
import { NO_STORE, json, redirect } from '../http/response';
import type { RouteSpec } from '../manifest';
import { validate } from '../validation';
import { logger } from '../logger';
import type { QuotaStore, WindowRule } from '../quota/windows';
import { accountPlan, accountStatus, normalizeEmail } from './account';
import { serviceStamp, setting } from './catalogue';
import { billingDeps } from './deps';
import { checkoutMode, hasPaidAccess } from '../auth/paid-access';
import type { AccountStore, PaymentGateway } from './ports';
import { CheckoutQuery, PortalQuery, SuccessQuery, catalogueSchemas } from './requests';
import type { BillingRouteId, PayRoutes } from './routes';
import {
  SubscriptionExistsError,
  lostKeyHelp,
  pickUpKey,
  processEvent,
  rotateKey,
  subscriptionInGoodStanding,
} from './service';
import { BillingNotConfiguredError, requireGateway, requirePriceId, verifyWebhook } from './stripe';
import { publicBase, returnUrl, wantsJson } from './web';

/** A route's limits, from its spec (./routes.ts). */
type Limits = Pick<RouteSpec, 'maxBodyBytes'>;

/** What the /pay routes use from a service's deps (both NarrationDeps and DocumentsDeps provide it). */
export interface PayDeps {
  readonly config: Config;
  readonly keys: KeyStore;
  readonly accounts: AccountStore;
  readonly growth?: GrowthStore;
  payments(): Promise<PaymentGateway | undefined>;
  now(): Date;
}

/** BillingDeps of a route, read lazily (getters) so a route builds only the stores it touches. */
function billingOf(p: PayRoutes, deps: PayDeps) {
  return billingDeps(deps, p.catalogue, { abAttribution: p.abAttribution !== false });
}

/**
 * GET /pay/checkout/{plan}: 302 to Stripe Checkout, or 200 {plan, url, expires_at} for JSON clients. A subscription
 * plan for an e-mail whose subscription of this service is in good standing → 409 naming the portal (a second
 * subscription would bill twice). That check reads `accounts` (the route needs read access to the accounts table);
 * deps without an `accounts` property skip it.
 */
export function payCheckoutRoute(
  p: PayRoutes,
  deps: Pick<PayDeps, 'config' | 'payments'> & { readonly accounts?: AccountStore },
  limits: Limits = {},
) {
  const { PlanParam } = catalogueSchemas(p.catalogue);
  return apiHandler(
    async (req) => {
      const { plan } = validate(PlanParam, req.pathParams, ['path']);
      const query = validate(CheckoutQuery, req.query, ['query']);
      const cfg = deps.config;
      const gateway = requireGateway(await deps.payments());
      const priceId = requirePriceId(plan, cfg, p.catalogue);
      if (query.email && checkoutMode(plan) === 'subscription' && deps.accounts) {
        const existing = await subscriptionInGoodStanding(
          { accounts: deps.accounts, catalogue: p.catalogue },
          query.email,
        );
        if (existing) throw new SubscriptionExistsError(existing, query.email);
      }
      const service = serviceStamp(p.catalogue);
      const session = await gateway.createCheckout({
        plan,
        priceId,
        ...(service ? { service } : {}),
        email: query.email,
        ref: query.ref,
        // Stripe substitutes the session id: the buyer's credential to pick up the key once.
        successUrl: `${publicBase(req, cfg, p.catalogue)}${p.pages?.success ?? '/pay/success'}?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: returnUrl(req, cfg, p.catalogue, p.pages?.back),
      });
      if (wantsJson(req.headers['accept']))
        return json(
          200,
          { plan, url: session.url, expires_at: new Date(session.expiresAt * 1000).toISOString() },
          NO_STORE,
        );
      return redirect(session.url, NO_STORE);
    },
    { ...limits, invalidStatus: p.invalidStatus },
  );
}

/** GET /pay/success?session_id=: the plan, and the key exactly once. */
export function paySuccessRoute(p: PayRoutes, deps: PayDeps, limits: Limits = {}) {
  return apiHandler(
    async (req) => {
      const { session_id } = validate(SuccessQuery, req.query, ['query']);
      const view = await pickUpKey(billingOf(p, deps), session_id, await deps.payments());
      return json(200, view, NO_STORE);
    },
    { ...limits, invalidStatus: p.invalidStatus },
  );
}

/** POST /pay/webhook: Stripe events, verified with the service's own endpoint secret over the raw body. */
export function payWebhookRoute(p: PayRoutes, deps: PayDeps, limits: Limits = {}) {
  const secretName = p.catalogue.settings.webhookSecret;
  return apiHandler(
    async (req) => {
      const secret = setting(deps.config, secretName);
      if (!secret) throw new BillingNotConfiguredError(secretName, 'the webhook signing secret');
      const event = verifyWebhook(req.rawBody(), req.headers['stripe-signature'], secret, p.catalogue);
      let outcome;
      try {
        outcome = await processEvent(billingOf(p, deps), event);
      } catch (err) {
        if (err instanceof DomainError) throw err;
        logger.error('stripe event failed', { error: err as Error, eventId: event.id, type: event.type });
        throw new Unavailable('The event could not be processed now; Stripe will retry it.', 60);
      }
      logger.info('stripe event', { eventId: event.id, type: event.type, outcome });
      return json(200, { received: true, event_id: event.id, type: event.type, outcome });
    },
    { ...limits, invalidStatus: p.invalidStatus },
  );
}

/** POST /pay/portal?email=: a Stripe customer-portal session for the Bearer key's account. */
export function payPortalRoute(
  p: PayRoutes,
  deps: Pick<PayDeps, 'config' | 'keys' | 'accounts' | 'payments'>,
  limits: Limits = {},
) {
  return apiHandler(
    async (req) => {
      const { email } = validate(PortalQuery, req.query, ['query']);
      const gateway = requireGateway(await deps.payments());
      const key = await resolveKeyHolder(req.headers, deps.keys);
      if (!key)
        throw new Unauthenticated(
          'Send your API key as `Authorization: Bearer <key>` to open the billing portal of its account. ' +
            lostKeyHelp(deps.config),
        );
      const account = key.accountId ? await deps.accounts.get(key.accountId) : undefined;
      if (!account || account.accountId.startsWith('guest_'))
        throw new Conflict(
          'This key has no billing account with the payment provider (it was issued by an administrator). Contact support.',
        );
      if (!account.email || normalizeEmail(email) !== normalizeEmail(account.email))
        throw new Forbidden(
          "This e-mail is not the one of this key's account. Use the e-mail you paid with.",
        );
      const portal = await gateway.createPortal(
        account.accountId,
        returnUrl(req, deps.config, p.catalogue, p.pages?.back),
      );
      return json(200, { url: portal.url }, NO_STORE);
    },
    { ...limits, invalidStatus: p.invalidStatus },
  );
}

/** POST /pay/keys/rotate: a new key for the Bearer key's account; the old one stops working. */
export function payKeysRotateRoute(p: PayRoutes, deps: PayDeps, limits: Limits = {}) {
  return apiHandler(
    async (req) => {
      const key = await resolveKeyHolder(req.headers, deps.keys);
      if (!key) throw new Unauthenticated('Send the API key to replace as `Authorization: Bearer <key>`.');
      const { apiKey, record } = await rotateKey(billingOf(p, deps), key);
      return json(
        200,
        {
          api_key: apiKey,
          key_prefix: record.keyPrefix,
          revoked_key_prefix: key.keyPrefix,
          plan: record.plan,
          status: record.billingStatus ?? 'active',
          message: 'Store this API key now: it is shown only this once. The previous key no longer works.',
        },
        NO_STORE,
      );
    },
    { ...limits, invalidStatus: p.invalidStatus },
  );
}

/** The allowance GET /pay/status reports: counters to read, or null for "not limited". */
export type UsageScope = { subject: string; rules: WindowRule[] } | null;

export interface PayStatusView {
  /** The plans on offer as the service shows them (narration: planCatalogue; documents: its pricing). */
  plans(cfg: Config): unknown[];
  /** The counters of a key holder (key) or of an anonymous caller (undefined, by client IP). */
  usage(key: ApiKeyRecord | undefined, req: ApiRequest): UsageScope;
}

const iso = (epochS: number | undefined) =>
  epochS === undefined ? null : new Date(epochS * 1000).toISOString();

/** GET /pay/status: the key's plan, state, account and usage; or without a key, this IP's free-tier usage. */
export function payStatusRoute(
  deps: Pick<PayDeps, 'config' | 'keys' | 'accounts' | 'now'> & { readonly quotas: QuotaStore },
  view: PayStatusView,
) {
  const usageOf = async (scope: UsageScope) => {
    if (!scope) return { limited: false, windows: [] };
    const now = deps.now();
    const nowS = Math.floor(now.getTime() / 1000);
    const windows = await deps.quotas.peek(scope.subject, scope.rules, now);
    return {
      limited: true,
      windows: windows.map((w) => ({
        period: w.period,
        limit: w.limit,
        used: Math.min(w.used, w.limit),
        remaining: Math.max(0, w.limit - w.used),
        reset_at: iso(w.resetAt),
        reset_in_s: Math.max(0, w.resetAt - nowS),
      })),
    };
  };
  return apiHandler(async (req) => {
    const key = await resolveKeyHolder(req.headers, deps.keys);
    const plans = view.plans(deps.config);
    if (key) {
      const account = key.accountId ? await deps.accounts.get(key.accountId) : undefined;
      // The key's copy of the state is what resolveCaller enforces; the account adds details.
      const status = account ? accountStatus(account) : (key.billingStatus ?? 'active');
      const plan = account ? accountPlan(account) : key.plan;
      const subscription = checkoutMode(plan) === 'subscription';
      return json(
        200,
        {
          plan,
          status,
          paid_access: hasPaidAccess(status),
          key_prefix: key.keyPrefix,
          account: account
            ? {
                email: account.email ?? null,
                since: account.createdAt,
                current_period_end: subscription ? iso(account.currentPeriodEnd) : null,
                cancel_at_period_end: subscription ? !!account.cancelAtPeriodEnd : false,
                manage: 'POST /pay/portal?email=<account e-mail> with this key as Bearer',
              }
            : null,
          usage: await usageOf(view.usage(key, req)),
          plans,
        },
        NO_STORE,
      );
    }
    return json(
      200,
      {
        plan: 'free',
        status: 'free',
        paid_access: false,
        key_prefix: null,
        account: null,
        usage: await usageOf(view.usage(undefined, req)),
        plans,
      },
      NO_STORE,
    );
  });
}

/**
 * The six /pay handlers of a service by route id (each made on first use), with the limits of its specs
 * (`billingRoutes`): the service's handlers/billing.ts dispatches to them (`routeHandler`).
 */
export function billingHandlers(
  p: PayRoutes,
  routes: readonly (RouteSpec & { id: BillingRouteId })[],
  deps: PayDeps & { readonly quotas: QuotaStore },
  status: PayStatusView,
) {
  const limits = (id: BillingRouteId): Limits => {
    const spec = routes.find((r) => r.id === id);
    if (!spec) throw new Error(`the billing routes have no ${id}`);
    return spec.maxBodyBytes === undefined ? {} : { maxBodyBytes: spec.maxBodyBytes };
  };
  return lazyHandlers<BillingRouteId>({
    PayCheckout: () => payCheckoutRoute(p, deps, limits('PayCheckout')),
    PaySuccess: () => paySuccessRoute(p, deps, limits('PaySuccess')),
    PayStatus: () => payStatusRoute(deps, status),
    PayPortal: () => payPortalRoute(p, deps, limits('PayPortal')),
    PayWebhook: () => payWebhookRoute(p, deps, limits('PayWebhook')),
    PayKeysRotate: () => payKeysRotateRoute(p, deps, limits('PayKeysRotate')),
  });
}
