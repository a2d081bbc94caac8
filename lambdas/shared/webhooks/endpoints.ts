// Webhook endpoints, one implementation for every service: one endpoint per account (PUT/GET/DELETE /v1/webhook,
// POST /v1/webhook/rotate-secret, see handlers.ts), its signing secret, and the SSRF check of the callback URL at
// registration. Each service brings its event types, its header names (WebhookBrand) and its plan rule.
//
// SSRF: a callback URL is a destination the caller chose, so it goes through the same boundary as narration's URL
// fetcher (lambdas/shared/net/safe-fetch.ts) twice: at registration (checkDestination: scheme, credentials, port,
// every address the name resolves to) and at every delivery (delivery.ts: safeFetch checks the addresses inside the
// socket's lookup, so a name that re-resolves to a private address — DNS rebinding — is refused before any
// connection). https:// only; http:// and non-public destinations only for entries of WEBHOOK_URL_ALLOWLIST, a
// local-test setting the stack never sets and the code ignores inside Lambda (config.ts).
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { ApiKeyRecord, KeyStore } from '../auth/keys';
import { ownerOf } from '../auth/owner';
import { resolveKeyHolder } from '../auth/resolve-caller';
import { NotFound, InvalidInput, Unavailable, Unauthenticated, type ValidationItem } from '../errors';
import {
  checkDestination,
  classifyAddress,
  isAllowedAddress,
  isAllowedHost,
  SafeFetchError,
  type Allowlist,
  type Resolver,
} from '../net/safe-fetch';

// ---- records and ports -------------------------------------------------------------------------------------

export interface WebhookEndpoint<E extends string = string> {
  owner: string;
  url: string;
  events: E[];
  /** whsec_…: the HMAC key. Stored as is (HMAC needs it), in the encrypted accounts table. */
  secret: string;
  /** After a rotation, the previous secret keeps signing until `previousSecretUntil` (epoch seconds). */
  previousSecret?: string;
  previousSecretUntil?: number;
  createdAt: string;
  updatedAt: string;
  /** keyPrefix of the key that last changed it (for support; never the key). */
  changedBy: string;
}

export interface WebhookStore<E extends string = string> {
  get(owner: string): Promise<WebhookEndpoint<E> | undefined>;
  /**
   * Creates (`previousSecret` undefined: only if none exists) or replaces (only while it still has
   * `previousSecret`) the endpoint; a concurrent change makes it throw 409.
   */
  put(endpoint: WebhookEndpoint<E>, previousSecret?: string): Promise<void>;
  /** False when there was none. */
  remove(owner: string): Promise<boolean>;
}

/** Where callbacks may go, and how names resolve. */
export interface WebhookPolicy {
  /** Destinations exempt from the public-address and port rules, the only ones allowed over http://. */
  allowlist: Allowlist;
  resolver?: Resolver;
  timeoutMs: number;
}

/** A service's names for what it sends: headers and User-Agent of its callbacks. */
export interface WebhookBrand {
  signatureHeader: string;
  eventIdHeader: string;
  eventTypeHeader: string;
  attemptHeader: string;
  userAgent: string;
}

/** How a service answers a refused request: narration 422, documents 400 (its own error class). */
export type InvalidRequest = (items: ValidationItem[]) => Error;
const invalid422: InvalidRequest = (items) => new InvalidInput(items);

export const SECRET_PREFIX = 'whsec_';
const MAX_URL_LENGTH = 2048;

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64url');
}

/** Only for display: enough to tell two secrets apart. */
export function secretHint(secret: string): string {
  return `${secret.slice(0, SECRET_PREFIX.length + 4)}…`;
}

export { ownerOf };

// ---- registration --------------------------------------------------------------------------------------------

/** PUT /v1/webhook's body for a service with these event types. */
export function webhookPutRequest<E extends string>(types: readonly E[]) {
  return z.object({
    url: z.string().min(1).max(MAX_URL_LENGTH),
    /** Event types to receive. @default every type */
    events: z
      .array(z.enum(types as unknown as [E, ...E[]]))
      .min(1)
      .optional(),
  });
}

/**
 * True when the destination is reachable only thanks to the allowlist (a host name entry, or addresses that are not
 * public but listed): the only destinations plain http:// may go to.
 */
export function exempt(host: string, port: number, addresses: string[], allowlist: Allowlist): boolean {
  if (isAllowedHost(host, port, allowlist)) return true;
  return (
    addresses.length > 0 &&
    addresses.every((a) => isAllowedAddress(a, allowlist, port) && !isAllowedAddress(a, [], port))
  );
}

/**
 * Checks a callback URL as registration does: a refusal (loc body.url, in the service's shape) naming what to
 * change, 503 when DNS is unavailable. Returns the normalised URL.
 */
export async function checkCallbackUrl(
  raw: string,
  policy: WebhookPolicy,
  opts: { invalid?: InvalidRequest; signatureHeader?: string } = {},
): Promise<string> {
  const refuse = (msg: string, type: string) =>
    (opts.invalid ?? invalid422)([{ loc: ['body', 'url'], msg, type }]);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse('Give the full address of your endpoint, starting with https://', 'url_parsing');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refuse(`Webhook URLs must start with https:// (not ${url.protocol}//)`, 'url_scheme');
  if (url.hash) throw refuse('Remove the #fragment: it is never sent to a server', 'url_fragment');
  let target: Awaited<ReturnType<typeof checkDestination>>;
  try {
    target = await checkDestination(url, { allowlist: policy.allowlist, resolver: policy.resolver });
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    const host = url.hostname;
    switch (err.code) {
      case 'credentials':
        throw refuse(
          `Remove user:password@ from the URL: callbacks are authenticated by their ${opts.signatureHeader ?? 'signature'} header`,
          'url_credentials',
        );
      case 'port':
        throw refuse(
          `Port ${url.port} is not allowed: callbacks go to the standard HTTPS port 443 only`,
          'url_port',
        );
      case 'address': {
        const ip = isIP(host.replace(/^\[|\]$/g, '')) ? host.replace(/^\[|\]$/g, '') : undefined;
        const where = ip
          ? `The address ${ip} is ${classifyAddress(ip).range}`
          : `The host '${host}' resolves to an address that is not public`;
        throw refuse(
          `${where}: webhooks are only delivered to endpoints on the public internet`,
          'url_not_public',
        );
      }
      case 'dns':
        throw refuse(
          `The host name '${host}' does not resolve. Check it for typos; the endpoint must be reachable when you register it`,
          'url_unresolvable',
        );
      case 'dns_unavailable':
        throw new Unavailable(
          `The host name '${host}' could not be resolved just now. Please retry in a moment.`,
        );
      default:
        throw refuse(err.message, 'url_refused');
    }
  }
  const allowlisted = exempt(target.host, target.port, target.addresses, policy.allowlist);
  if (url.protocol === 'http:' && !allowlisted)
    throw refuse('Webhook URLs must use https:// (plain http:// is not allowed)', 'url_scheme');
  // The URL parser drops a default port, so a port left on an https URL is not 443 (safe-fetch also allows 80).
  if (url.protocol === 'https:' && url.port !== '' && !allowlisted)
    throw refuse(
      `Port ${url.port} is not allowed: callbacks go to the standard HTTPS port 443 only`,
      'url_port',
    );
  return target.url.href;
}

/**
 * The key behind `Authorization: Bearer`, required: 401 without one (jobs, audio and webhooks belong to an
 * account). Lapsed keys are served (they may still read their jobs and remove their endpoint); registration checks
 * the plan.
 */
export async function requireKeyHolder(
  headers: Record<string, string>,
  keys: KeyStore,
  what: string,
): Promise<ApiKeyRecord> {
  const key = await resolveKeyHolder(headers, keys);
  if (!key) throw new Unauthenticated(`Send \`Authorization: Bearer <API key>\`: ${what}`);
  return key;
}

export interface RegisterDeps<E extends string = string> {
  webhooks: WebhookStore<E>;
  policy: WebhookPolicy;
  now(): Date;
}

/** PUT /v1/webhook: creates the account's endpoint (new secret, shown once) or changes its URL/events (same secret). */
export async function registerEndpoint<E extends string>(
  deps: RegisterDeps<E>,
  owner: string,
  keyPrefix: string,
  body: { url: string; events?: E[] },
  opts: { allTypes: readonly E[]; invalid?: InvalidRequest; signatureHeader?: string },
): Promise<{ created: boolean; endpoint: WebhookEndpoint<E> }> {
  const url = await checkCallbackUrl(body.url, deps.policy, opts);
  const events = body.events ? [...new Set(body.events)] : [...opts.allTypes];
  const now = deps.now().toISOString();
  const existing = await deps.webhooks.get(owner);
  const endpoint: WebhookEndpoint<E> = existing
    ? { ...existing, url, events, updatedAt: now, changedBy: keyPrefix }
    : { owner, url, events, secret: newSecret(), createdAt: now, updatedAt: now, changedBy: keyPrefix };
  await deps.webhooks.put(endpoint, existing?.secret);
  return { created: !existing, endpoint };
}

/** POST /v1/webhook/rotate-secret: a new secret; the previous one keeps signing for `overlapS`. */
export async function rotateSecret<E extends string>(
  deps: RegisterDeps<E>,
  owner: string,
  keyPrefix: string,
  overlapS: number,
): Promise<WebhookEndpoint<E>> {
  const existing = await deps.webhooks.get(owner);
  if (!existing)
    throw new NotFound(
      'No webhook endpoint is registered for this account. Register one with PUT /v1/webhook.',
    );
  const now = deps.now();
  const endpoint: WebhookEndpoint<E> = {
    ...existing,
    secret: newSecret(),
    updatedAt: now.toISOString(),
    changedBy: keyPrefix,
  };
  if (overlapS > 0) {
    endpoint.previousSecret = existing.secret;
    endpoint.previousSecretUntil = Math.floor(now.getTime() / 1000) + overlapS;
  } else {
    delete endpoint.previousSecret;
    delete endpoint.previousSecretUntil;
  }
  await deps.webhooks.put(endpoint, existing.secret);
  return endpoint;
}

/** The endpoint as the API shows it; `secret` only right after it was made (create or rotation). */
export function publicEndpoint(
  endpoint: WebhookEndpoint,
  opts: { withSecret?: boolean } = {},
  now = new Date(),
) {
  const overlap =
    endpoint.previousSecretUntil && endpoint.previousSecretUntil * 1000 > now.getTime()
      ? new Date(endpoint.previousSecretUntil * 1000).toISOString()
      : null;
  return {
    object: 'webhook_endpoint',
    url: endpoint.url,
    events: endpoint.events,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
    ...(opts.withSecret ? { secret: endpoint.secret } : {}),
    secret_hint: secretHint(endpoint.secret),
    previous_secret_expires_at: overlap,
  };
}

/** The secrets that sign now: the current one, and the previous one during a rotation's overlap. */
export function secretsFor(endpoint: WebhookEndpoint, now: Date): string[] {
  const out = [endpoint.secret];
  if (endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) * 1000 > now.getTime())
    out.push(endpoint.previousSecret);
  return out;
}
