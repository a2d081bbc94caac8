// Billing use cases over the ports: Stripe events → accounts and keys, the one-time key pick-up, key rotation.
// Guarantees (each tested in test/integration/billing-*.test.ts and test/e2e/billing.test.ts):
// - Idempotent per event id: a replay changes nothing. Effects are idempotent too (one key per Checkout Session,
//   whoever fulfils it: the webhook or GET /pay/success), so a crash midway is repaired by Stripe's retry.
// - Out-of-order tolerant: subscription state only moves forward (event `created`), an ended subscription never
//   comes back, and copies of the state on keys carry the account's version so an older copy never wins.
import type { PlatformConfig as Config } from '../config';
import { Conflict, NotFound } from '../errors';
import { logger } from '../logger';
import { generateKey, hashKey, type ApiKeyRecord, type KeyStore, type PaidPlan } from '../auth/keys';
import { accountPlan, accountStatus, keyStateOf, normalizeEmail, type Account } from './account';
import { offeredPlans, ownsService, subscriptionPlanOfPrice, type BillingCatalogue } from './catalogue';
import { openKey, sealKey, sessionRef } from './pickup';
import { checkoutMode, hasPaidAccess } from '../auth/paid-access';
import type { AccountStore, BillingEvent, CheckoutFacts, PaymentGateway, PurchaseRecord } from './ports';

export interface BillingDeps {
  /** What this service sells (its lambdas/<service>/billing.ts). */
  readonly catalogue: BillingCatalogue;
  readonly config: Config;
  readonly accounts: AccountStore;
  readonly keys: KeyStore;
  now(): Date;
  /** Called once per new purchase (A/B attribution of `ref`); must not throw. */
  onPurchase?(purchase: PurchaseRecord, sessionId: string): Promise<void>;
}

/** What issuing, rotating and replacing keys use: no catalogue (a key carries its account's plan). */
export type KeyDeps = Pick<BillingDeps, 'accounts' | 'keys' | 'now'>;

export type EventOutcome = 'processed' | 'duplicate' | 'ignored' | 'stale' | 'awaiting_payment';

/** A Stripe delivery of an event another delivery is processing right now: Stripe retries a non-2xx later. */
export class EventBusyError extends Conflict {
  constructor() {
    super('This event is being processed by another delivery; Stripe will retry it.');
  }
}

/** How long a delivery owns an event before a retry may take it over (above the webhook function's timeout). */
const EVENT_LEASE_S = 60;

export const KEY_PREFIX_CHARS = 10;

export async function processEvent(deps: BillingDeps, event: BillingEvent): Promise<EventOutcome> {
  if (event.kind === 'ignored') return 'ignored';
  const now = deps.now();
  const claim = await deps.accounts.claimEvent(event.id, event.type, now, EVENT_LEASE_S);
  if (claim === 'done') return 'duplicate';
  if (claim === 'busy') throw new EventBusyError();
  try {
    const outcome =
      event.kind === 'checkout'
        ? await applyCheckout(deps, event.session)
        : await applySubscription(deps, event);
    await deps.accounts.completeEvent(event.id, deps.now());
    return outcome;
  } catch (err) {
    await deps.accounts
      .releaseEvent(event.id)
      .catch((e) =>
        logger.error('could not release a failed event', { error: e as Error, eventId: event.id }),
      );
    throw err;
  }
}

/**
 * The plan a completed checkout bought: `metadata.plan` as GET /pay/checkout sets it, only if this service sold it
 * (`metadata.service`, one of its plans) and the session's mode matches. Anything else sold on the same Stripe
 * account (the other service, a payment link, a donation) grants nothing here.
 */
export function planOf(facts: CheckoutFacts, cat: BillingCatalogue): PaidPlan | undefined {
  const plan = facts.plan;
  if (!plan || !ownsService(cat, facts.service) || !offeredPlans(cat).includes(plan)) return undefined;
  return checkoutMode(plan) === facts.mode ? plan : undefined;
}

/** Whether a checkout is ready to fulfil: ours, complete and, for a one-time payment, paid (OXXO etc. pay later). */
function readiness(
  facts: CheckoutFacts,
  cat: BillingCatalogue,
): 'ready' | 'not_ours' | 'not_complete' | 'awaiting_payment' {
  const plan = planOf(facts, cat);
  if (!plan) return 'not_ours';
  if (facts.status !== 'complete') return 'not_complete';
  if (checkoutMode(plan) === 'payment' && facts.paymentStatus !== 'paid') return 'awaiting_payment';
  return 'ready';
}

async function applyCheckout(deps: BillingDeps, facts: CheckoutFacts): Promise<EventOutcome> {
  const ready = readiness(facts, deps.catalogue);
  if (ready === 'not_ours') {
    logger.warn('checkout without a plan of ours ignored', { mode: facts.mode, plan: facts.plan });
    return 'ignored';
  }
  if (ready === 'not_complete') return 'ignored';
  if (ready === 'awaiting_payment') return 'awaiting_payment';
  await fulfilCheckout(deps, facts);
  return 'processed';
}

async function applySubscription(
  deps: BillingDeps,
  event: Extract<BillingEvent, { kind: 'subscription' }>,
): Promise<EventOutcome> {
  const { service: _stamp, ...s } = event.subscription;
  const cat = deps.catalogue;
  // A plan switch in the customer portal changes the subscription's price: the price names the plan.
  const plan = s.priceId ? subscriptionPlanOfPrice(cat, deps.config, s.priceId) : undefined;
  if (s.priceId && !plan)
    logger.warn('subscription price is not one of this service’s subscription plans; plan kept', {
      subscriptionId: s.subscriptionId,
      priceId: s.priceId,
    });
  const updated = await deps.accounts.applySubscription({
    ...s,
    ...(plan ? { plan } : {}),
    service: cat.service,
    eventAt: event.created,
    now: deps.now(),
  });
  // Stale or not, bring the keys in line with the account: repairs a crash between the two writes.
  const account = updated ?? (await deps.accounts.get(s.customerId));
  if (account) await syncKeys(deps, account);
  return updated ? 'processed' : 'stale';
}

/** Copies the account's state onto each of its keys (each copy refuses to go back to an older version). */
export async function syncKeys(deps: Pick<BillingDeps, 'keys'>, account: Account): Promise<void> {
  const state = keyStateOf(account);
  await Promise.all(account.keyHashes.map((h) => deps.keys.syncBilling(h, state)));
}

/**
 * Gives a completed checkout its account and exactly one API key, whichever caller gets here first (webhook or
 * GET /pay/success) and however often. The purchase record, written last, marks it done.
 */
export async function fulfilCheckout(deps: BillingDeps, facts: CheckoutFacts): Promise<PurchaseRecord> {
  const ref = sessionRef(facts.sessionId);
  const done = await deps.accounts.getPurchase(ref);
  if (done) {
    const account = await deps.accounts.get(done.accountId);
    if (account) await syncKeys(deps, account);
    return done;
  }
  const now = deps.now();
  const plan = planOf(facts, deps.catalogue);
  if (!plan) throw new Conflict('This checkout did not buy a plan of this service.');
  const email = facts.email ? normalizeEmail(facts.email) : undefined;
  // Checkout is asked to always create a customer; a guest purchase still gets an account (without a portal).
  const accountId = facts.customerId ?? `guest_${ref.slice(0, 24)}`;
  let account = await deps.accounts.recordPurchase({
    accountId,
    email,
    plan,
    ...(checkoutMode(plan) === 'subscription'
      ? {
          subscriptionId: facts.subscriptionId ?? undefined,
          seedStatus: facts.paymentStatus === 'unpaid' ? 'incomplete' : 'active',
        }
      : {}),
    ref: facts.ref,
    service: deps.catalogue.service,
    now,
  });

  // A fresh key, unless an earlier attempt for this session already sealed one (then that one is used).
  const apiKey = generateKey();
  const pickup = await deps.accounts.createPickup({
    sessionRef: ref,
    keyHash: hashKey(apiKey),
    keyPrefix: apiKey.slice(0, KEY_PREFIX_CHARS),
    sealed: sealKey(apiKey, facts.sessionId),
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + deps.config.KEY_PICKUP_HOURS * 3600,
  });
  const state = keyStateOf(account);
  await deps.keys.putIfAbsent({
    keyHash: pickup.keyHash,
    keyPrefix: pickup.keyPrefix,
    plan: state.plan,
    status: 'active',
    email: email ?? '',
    createdAt: now.toISOString(),
    accountId,
    billingStatus: state.billingStatus,
    accountVersion: state.accountVersion,
  });
  account = await deps.accounts.addKey(accountId, pickup.keyHash);
  if (email) await deps.accounts.linkEmail(email, accountId);
  const purchase = await deps.accounts.putPurchase({
    sessionRef: ref,
    accountId,
    plan,
    keyHash: pickup.keyHash,
    keyPrefix: pickup.keyPrefix,
    ...(email ? { email } : {}),
    ...(facts.ref ? { ref: facts.ref } : {}),
    createdAt: now.toISOString(),
  });
  // After addKey: a subscription event that changed the account meanwhile missed this key; this catches it up.
  await syncKeys(deps, account);
  logger.info('checkout fulfilled', { accountId, plan, keyPrefix: pickup.keyPrefix });
  if (deps.onPurchase) await deps.onPurchase(purchase, facts.sessionId);
  return purchase;
}

/**
 * The account of this service, bought with `email`, whose subscription keeps paid access (active, trialing,
 * past_due): a second subscription checkout would bill the customer twice. Lifetime accounts are not counted.
 */
export async function subscriptionInGoodStanding(
  deps: Pick<BillingDeps, 'accounts' | 'catalogue'>,
  email: string,
): Promise<Account | undefined> {
  const service = deps.catalogue.service;
  for (const id of await deps.accounts.accountsForEmail(normalizeEmail(email))) {
    const a = await deps.accounts.get(id);
    // Accounts without `service` predate it; in the cloud each service has its own accounts table.
    if (!a || a.lifetime || (a.service ?? service) !== service) continue;
    if (checkoutMode(accountPlan(a)) === 'subscription' && hasPaidAccess(accountStatus(a))) return a;
  }
  return undefined;
}

/**
 * GET /pay/checkout of a subscription plan while the e-mail already has a subscription of this service in good
 * standing: change plan in the portal. Anyone may type an e-mail here, so the answer says only that one exists — not
 * the plan, its status, dates, customer id or key prefixes (docs/billing.md, "Changing plans").
 */
export class SubscriptionExistsError extends Conflict {
  constructor(_existing: Account, email: string) {
    super(
      'This e-mail already has an active subscription to this API; a second checkout would bill it twice. To change ' +
        `plan open the customer portal: POST /pay/portal?email=${encodeURIComponent(email)} with your API key as ` +
        'Bearer, and switch the plan there (your keys follow the new plan). Lifetime can still be bought here; then ' +
        'cancel the subscription in the portal.',
    );
  }
}

export interface SuccessView {
  plan: PaidPlan;
  status: string;
  paid_access: boolean;
  key_prefix: string;
  /** The plaintext key: present in exactly one answer. */
  api_key: string | null;
  message: string;
}

/** What a customer who lost the key can do: the same words in every answer that mentions it. */
export function lostKeyHelp(cfg: Config): string {
  const login = cfg.STRIPE_PORTAL_LOGIN_URL
    ? ` To manage billing without a key, sign in at ${cfg.STRIPE_PORTAL_LOGIN_URL} (Stripe e-mails you a code).`
    : '';
  return (
    'If you still have the key, POST /pay/keys/rotate with it as Bearer replaces it. If it is lost, contact ' +
    'support from the e-mail address you paid with: after checking it, support issues a replacement and the ' +
    `old key stops working.${login}`
  );
}

/**
 * GET /pay/success: the plan, and the key exactly once. When the webhook has not arrived yet, asks Stripe
 * (if configured) and fulfils the checkout here.
 */
export async function pickUpKey(
  deps: BillingDeps,
  sessionId: string,
  gateway: PaymentGateway | undefined,
): Promise<SuccessView> {
  const ref = sessionRef(sessionId);
  let purchase = await deps.accounts.getPurchase(ref);
  // Locally both services share one accounts table: another service's purchase is not picked up here.
  if (purchase && !offeredPlans(deps.catalogue).includes(purchase.plan))
    throw new NotFound('This checkout session did not buy a plan of this service.');
  if (!purchase) {
    const facts = gateway ? await gateway.retrieveCheckout(sessionId) : undefined;
    if (!facts)
      throw new NotFound(
        'Unknown checkout session. Use the link Stripe redirected you to after paying; if you paid a moment ago, retry in a few seconds.',
      );
    const ready = readiness(facts, deps.catalogue);
    if (ready === 'not_ours') throw new NotFound('This checkout session did not buy a plan of this service.');
    if (ready === 'not_complete')
      throw new Conflict(
        'This checkout has not been completed. Finish the payment on the Stripe page first.',
        { status: facts.status },
      );
    if (ready === 'awaiting_payment')
      throw new Conflict(
        'The payment is still pending (some methods, such as cash vouchers, confirm later). Come back to this page once it is confirmed; the key waits for you.',
        { status: 'awaiting_payment' },
        60,
      );
    purchase = await fulfilCheckout(deps, facts);
  }
  const account = await deps.accounts.get(purchase.accountId);
  const status = account ? accountStatus(account) : 'active';
  const base = {
    plan: purchase.plan,
    status,
    paid_access: account ? hasPaidAccess(accountStatus(account)) : true,
    key_prefix: purchase.keyPrefix,
  };
  const taken = await deps.accounts.takePickup(ref, deps.now());
  if (taken.state === 'picked') {
    return {
      ...base,
      api_key: openKey(taken.pickup.sealed, sessionId),
      message:
        'Store this API key now: it is shown only this once. Send it as `Authorization: Bearer <key>`.',
    };
  }
  const why =
    taken.state === 'taken'
      ? `The API key for this purchase (${purchase.keyPrefix}…) was already shown${taken.pickedUpAt ? ` at ${taken.pickedUpAt}` : ''}; it is never shown twice.`
      : `The ${deps.config.KEY_PICKUP_HOURS}-hour window to pick up the API key for this purchase (${purchase.keyPrefix}…) has passed.`;
  return { ...base, api_key: null, message: `${why} ${lostKeyHelp(deps.config)}` };
}

/**
 * Replaces a key: a new key with the account's state, then the old one is revoked. If a concurrent rotation of
 * the same key won, the new key is withdrawn and 409 returned, so one old key yields one new key.
 */
export async function rotateKey(
  deps: KeyDeps,
  old: ApiKeyRecord,
): Promise<{ apiKey: string; record: ApiKeyRecord }> {
  if (!old.accountId)
    throw new Conflict(
      'This key was issued by an administrator, not by a purchase, so it cannot be rotated here. Contact support.',
    );
  const issued = await issueKey(deps, old.accountId, old.email);
  const now = deps.now();
  if (!(await deps.keys.revoke(old.keyHash, now, { onlyIfActive: true }))) {
    await deps.keys.revoke(issued.record.keyHash, now);
    await deps.accounts.removeKey(old.accountId, issued.record.keyHash);
    throw new Conflict('This key was already rotated. Use the key the rotation returned.');
  }
  await deps.accounts.removeKey(old.accountId, old.keyHash);
  return issued;
}

/** A new key for an account, carrying its current state. */
export async function issueKey(
  deps: KeyDeps,
  accountId: string,
  emailHint?: string,
): Promise<{ apiKey: string; record: ApiKeyRecord }> {
  const account = await deps.accounts.get(accountId);
  if (!account) throw new NotFound(`No billing account ${accountId}.`);
  const apiKey = generateKey();
  const state = keyStateOf(account);
  const record: ApiKeyRecord = {
    keyHash: hashKey(apiKey),
    keyPrefix: apiKey.slice(0, KEY_PREFIX_CHARS),
    plan: state.plan,
    status: 'active',
    email: account.email ?? emailHint ?? '',
    createdAt: deps.now().toISOString(),
    accountId,
    billingStatus: state.billingStatus,
    accountVersion: state.accountVersion,
  };
  await deps.keys.put(record);
  const latest = await deps.accounts.addKey(accountId, record.keyHash);
  await syncKeys(deps, latest);
  return { apiKey, record };
}

/**
 * Support's replacement for a lost key (bin/keys.ts `replace`): revokes every key of the accounts of an e-mail
 * and issues one new key per account. Run only after checking the requester controls the e-mail.
 */
export async function replaceKeysForEmail(
  deps: KeyDeps,
  email: string,
): Promise<{ accountId: string; apiKey: string; revoked: number }[]> {
  const out: { accountId: string; apiKey: string; revoked: number }[] = [];
  for (const accountId of await deps.accounts.accountsForEmail(normalizeEmail(email))) {
    const before = await deps.accounts.get(accountId);
    if (!before) continue;
    const { apiKey, record } = await issueKey(deps, accountId, email);
    let revoked = 0;
    for (const h of before.keyHashes) {
      if (await deps.keys.revoke(h, deps.now(), { onlyIfActive: true })) revoked++;
      await deps.accounts.removeKey(accountId, h);
    }
    logger.info('keys replaced by support', { accountId, keyPrefix: record.keyPrefix, revoked });
    out.push({ accountId, apiKey, revoked });
  }
  return out;
}
