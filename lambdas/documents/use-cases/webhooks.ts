// Scale webhooks: one endpoint per account (PUT/GET/DELETE /v1/webhook, POST /v1/webhook/rotate-secret) and the
// delivery of job events to it (handlers/delivery-worker.ts). Event kinds, payload, signature and retries are
// documented for customers in lambdas/documents/api/webhooks-doc.ts.
//
// SSRF: a callback URL is a destination the caller chose, so it goes through the same boundary as narration's URL
// fetcher (lambdas/shared/net/safe-fetch.ts) twice: at registration (checkDestination: scheme, credentials, port,
// every address the name resolves to) and at every delivery (safeFetch checks the addresses inside the socket's
// lookup, so a name that re-resolves to a private address — DNS rebinding — is refused before any connection).
// https:// only; http:// and non-public destinations only for entries of WEBHOOK_URL_ALLOWLIST, a local-test
// setting the stack never sets and the code ignores inside Lambda.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { ApiKeyRecord, KeyStore } from '../../shared/auth/keys';
import { resolveKeyHolder } from '../../shared/auth/resolve-caller';
import { Forbidden, NotFound, Unavailable, Unauthenticated } from '../../shared/errors';
import { logger } from '../../shared/logger';
import {
  checkDestination,
  classifyAddress,
  isAllowedAddress,
  isAllowedHost,
  safeFetch,
  SafeFetchError,
  systemResolver,
  type Allowlist,
  type Resolver,
} from '../../shared/net/safe-fetch';
import { DocumentRequestError } from '../errors';
import { publicJob, WEBHOOK_EVENT_TYPES, type DeliveryMessage } from './jobs';
import {
  MAX_RECORDED_DELIVERIES,
  type DeliveryAttempt,
  type JobFiles,
  type JobRepository,
  type MessageQueue,
  type WebhookEventType,
} from '../ports';
import type { DocumentsPlan } from '../core/plans';
import { SIGNATURE_HEADER, signatureHeader } from '../core/webhooks-signature';

// ---- records and ports -------------------------------------------------------------------------------------

export interface WebhookEndpoint {
  owner: string;
  url: string;
  events: WebhookEventType[];
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

export interface WebhookStore {
  get(owner: string): Promise<WebhookEndpoint | undefined>;
  /**
   * Creates (`previousSecret` undefined: only if none exists) or replaces (only while it still has
   * `previousSecret`) the endpoint; a concurrent change makes it throw 409.
   */
  put(endpoint: WebhookEndpoint, previousSecret?: string): Promise<void>;
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

export const SECRET_PREFIX = 'whsec_';
export const EVENT_ID_HEADER = 'Docs-Event-Id';
export const EVENT_TYPE_HEADER = 'Docs-Event-Type';
export const ATTEMPT_HEADER = 'Docs-Delivery-Attempt';
export const WEBHOOK_USER_AGENT = 'DocsWebhooks/1.0 (+https://docs.example/api#webhooks)';
const MAX_URL_LENGTH = 2048;

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64url');
}

/** Only for display: enough to tell two secrets apart. */
export function secretHint(secret: string): string {
  return `${secret.slice(0, SECRET_PREFIX.length + 4)}…`;
}

// ---- registration --------------------------------------------------------------------------------------------

export const WebhookPutRequest = z.object({
  url: z.string().min(1).max(MAX_URL_LENGTH),
  /** Event types to receive. @default every type */
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]]))
    .min(1)
    .optional(),
});

/** Webhook registration is a Scale feature: 403 naming the caller's plan. */
export function assertWebhooksAllowed(plan: DocumentsPlan): void {
  if (plan === 'scale') return;
  throw new Forbidden(
    `Webhooks are a Scale plan feature; this key is on the ${plan} plan. Upgrade to Scale (GET /pricing) to ` +
      'register a callback URL.',
    { plan },
  );
}

function urlProblem(msg: string, type: string): DocumentRequestError {
  return new DocumentRequestError([{ loc: ['body', 'url'], msg, type }]);
}

/**
 * True when the destination is reachable only thanks to the allowlist (a host name entry, or addresses that are not
 * public but listed): the only destinations plain http:// may go to.
 */
function exempt(host: string, port: number, addresses: string[], allowlist: Allowlist): boolean {
  if (isAllowedHost(host, port, allowlist)) return true;
  return (
    addresses.length > 0 &&
    addresses.every((a) => isAllowedAddress(a, allowlist, port) && !isAllowedAddress(a, [], port))
  );
}

/**
 * Checks a callback URL as registration does: 400 (loc body.url) naming what to change, 503 when DNS is
 * unavailable. Returns the normalised URL.
 */
export async function checkCallbackUrl(raw: string, policy: WebhookPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw urlProblem('Give the full address of your endpoint, starting with https://', 'url_parsing');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw urlProblem(`Webhook URLs must start with https:// (not ${url.protocol}//)`, 'url_scheme');
  if (url.hash) throw urlProblem('Remove the #fragment: it is never sent to a server', 'url_fragment');
  let target: Awaited<ReturnType<typeof checkDestination>>;
  try {
    target = await checkDestination(url, { allowlist: policy.allowlist, resolver: policy.resolver });
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    const host = url.hostname;
    switch (err.code) {
      case 'credentials':
        throw urlProblem(
          'Remove user:password@ from the URL: callbacks are authenticated by their Docs-Signature header',
          'url_credentials',
        );
      case 'port':
        throw urlProblem(
          `Port ${url.port} is not allowed: callbacks go to the standard HTTPS port 443 only`,
          'url_port',
        );
      case 'address': {
        const ip = isIP(host.replace(/^\[|\]$/g, '')) ? host.replace(/^\[|\]$/g, '') : undefined;
        const where = ip
          ? `The address ${ip} is ${classifyAddress(ip).range}`
          : `The host '${host}' resolves to an address that is not public`;
        throw urlProblem(
          `${where}: webhooks are only delivered to endpoints on the public internet`,
          'url_not_public',
        );
      }
      case 'dns':
        throw urlProblem(
          `The host name '${host}' does not resolve. Check it for typos; the endpoint must be reachable when you register it`,
          'url_unresolvable',
        );
      case 'dns_unavailable':
        throw new Unavailable(
          `The host name '${host}' could not be resolved just now. Please retry in a moment.`,
        );
      default:
        throw urlProblem(err.message, 'url_refused');
    }
  }
  const allowlisted = exempt(target.host, target.port, target.addresses, policy.allowlist);
  if (url.protocol === 'http:' && !allowlisted)
    throw urlProblem('Webhook URLs must use https:// (plain http:// is not allowed)', 'url_scheme');
  // The URL parser drops a default port, so a port left on an https URL is not 443 (safe-fetch also allows 80).
  if (url.protocol === 'https:' && url.port !== '' && !allowlisted)
    throw urlProblem(
      `Port ${url.port} is not allowed: callbacks go to the standard HTTPS port 443 only`,
      'url_port',
    );
  return target.url.href;
}

/**
 * The key behind `Authorization: Bearer`, required: 401 without one (jobs and webhooks belong to an account).
 * Lapsed keys are served (they may still read their jobs and remove their endpoint); registration checks the plan.
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

export interface RegisterDeps {
  webhooks: WebhookStore;
  policy: WebhookPolicy;
  now(): Date;
}

/** PUT /v1/webhook: creates the account's endpoint (new secret, shown once) or changes its URL/events (same secret). */
export async function registerEndpoint(
  deps: RegisterDeps,
  owner: string,
  keyPrefix: string,
  body: z.output<typeof WebhookPutRequest>,
): Promise<{ created: boolean; endpoint: WebhookEndpoint }> {
  const url = await checkCallbackUrl(body.url, deps.policy);
  const events = body.events ? [...new Set(body.events)] : [...WEBHOOK_EVENT_TYPES];
  const now = deps.now().toISOString();
  const existing = await deps.webhooks.get(owner);
  const endpoint: WebhookEndpoint = existing
    ? { ...existing, url, events, updatedAt: now, changedBy: keyPrefix }
    : { owner, url, events, secret: newSecret(), createdAt: now, updatedAt: now, changedBy: keyPrefix };
  await deps.webhooks.put(endpoint, existing?.secret);
  return { created: !existing, endpoint };
}

/** POST /v1/webhook/rotate-secret: a new secret; the previous one keeps signing for `overlapS`. */
export async function rotateSecret(
  deps: RegisterDeps,
  owner: string,
  keyPrefix: string,
  overlapS: number,
): Promise<WebhookEndpoint> {
  const existing = await deps.webhooks.get(owner);
  if (!existing)
    throw new NotFound(
      'No webhook endpoint is registered for this account. Register one with PUT /v1/webhook.',
    );
  const now = deps.now();
  const endpoint: WebhookEndpoint = {
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

// ---- delivery --------------------------------------------------------------------------------------------------

export interface DeliveryDeps {
  jobs: JobRepository;
  jobFiles: JobFiles;
  webhooks: WebhookStore;
  deliveryQueue: MessageQueue;
  policy: WebhookPolicy;
  /** Seconds to wait after failed attempt 1, 2, …; attempts = length + 1. */
  retryScheduleS: readonly number[];
  downloadTtlS: number;
  now(): Date;
}

/** The attempt failed; the message is left for its retry (or, after the last attempt, for the DLQ). */
export class DeliveryFailedError extends Error {}

export interface EventEnvelope {
  id: string;
  object: 'event';
  type: WebhookEventType;
  /** Unix seconds: when the job reached its outcome. */
  created: number;
  api_version: 'v1';
  data: { job: Record<string, unknown> };
}

export function secretsFor(endpoint: WebhookEndpoint, now: Date): string[] {
  const out = [endpoint.secret];
  if (endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) * 1000 > now.getTime())
    out.push(endpoint.previousSecret);
  return out;
}

/** One POST of the event under the SSRF policy; the status line is all we read. */
async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: WebhookPolicy,
): Promise<Pick<DeliveryAttempt, 'outcome' | 'statusCode' | 'error'>> {
  const target = new URL(url);
  let resolver = policy.resolver;
  if (target.protocol === 'http:') {
    // Plain http only to allowlisted destinations, checked on the addresses actually connected to.
    const base = policy.resolver;
    resolver = async (host) => {
      const found = await (base ?? systemResolver)(host);
      const port = Number(target.port || 80);
      if (
        !exempt(
          host,
          port,
          found.map((a) => a.address),
          policy.allowlist,
        )
      )
        throw new SafeFetchError('scheme', 'http:// callbacks are only allowed to allowlisted destinations');
      return found;
    };
    const ip = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(ip) && !exempt(ip, Number(target.port || 80), [ip], policy.allowlist))
      return { outcome: 'refused', statusCode: null, error: 'http:// callbacks are refused: use https://' };
  }
  try {
    const res = await safeFetch(url, {
      method: 'POST',
      headers,
      body,
      accept: null,
      requireOk: false,
      // A redirect is not followed (as Stripe): the registered URL is where events go.
      maxRedirects: 0,
      connectTimeoutMs: Math.min(5000, policy.timeoutMs),
      totalTimeoutMs: policy.timeoutMs,
      allowlist: policy.allowlist,
      resolver,
      userAgent: WEBHOOK_USER_AGENT,
      skipBody: true,
    });
    const ok = res.status >= 200 && res.status < 300;
    return ok
      ? { outcome: 'delivered', statusCode: res.status }
      : { outcome: 'failed', statusCode: res.status, error: `The endpoint answered ${res.status}` };
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    const refused = err.code === 'address' || err.code === 'port' || err.code === 'scheme';
    const error =
      err.code === 'too_many_redirects'
        ? 'The endpoint answered with a redirect; webhooks do not follow redirects (register the final URL)'
        : err.code === 'address'
          ? 'Refused: the endpoint resolved to an address that is not on the public internet (no connection was made)'
          : err.message;
    return { outcome: refused ? 'refused' : 'failed', statusCode: null, error: error.slice(0, 300) };
  }
}

/**
 * Delivers one event (one SQS message) and records the attempt on its job. Resolves when the message is done with
 * (delivered, or nothing to deliver); throws DeliveryFailedError after scheduling the retry (the message reappears
 * after the schedule's delay; after the last attempt it reappears at once and SQS moves it to the DLQ).
 */
export async function deliverEvent(
  deps: DeliveryDeps,
  message: DeliveryMessage,
  attempt: number,
  receiptHandle: string,
): Promise<'delivered' | 'skipped'> {
  const maxAttempts = deps.retryScheduleS.length + 1;
  const job = await deps.jobs.get(message.jobId);
  if (!job?.event || job.event.id !== message.eventId) {
    logger.warn('delivery for an unknown job or event, dropped', { ...message });
    return 'skipped';
  }
  const event = job.event;
  if ((job.deliveries ?? []).some((d) => d.eventId === event.id && d.outcome === 'delivered'))
    return 'skipped';
  if ((job.deliveries ?? []).length >= MAX_RECORDED_DELIVERIES) {
    logger.error('delivery record is full; event left to the DLQ', { ...message });
    await deps.deliveryQueue.retryAfter(receiptHandle, 0);
    throw new DeliveryFailedError('too many recorded deliveries');
  }
  const started = deps.now();
  const record = async (a: Pick<DeliveryAttempt, 'outcome' | 'statusCode' | 'error'>, next: Date | null) => {
    await deps.jobs.addDelivery(job.jobId, {
      eventId: event.id,
      type: event.type,
      attempt,
      at: started.toISOString(),
      ...a,
      durationMs: Math.max(0, deps.now().getTime() - started.getTime()),
      nextAttemptAt: next ? next.toISOString() : null,
    });
  };
  const endpoint = await deps.webhooks.get(job.owner);
  if (!endpoint || !endpoint.events.includes(event.type)) {
    await record(
      { outcome: 'skipped', statusCode: null, error: 'No endpoint subscribed to this event any more' },
      null,
    );
    return 'skipped';
  }

  // The download link is signed now, so a retried delivery carries a link that still works.
  let download: { url: string; expiresAt: Date } | undefined;
  if (job.status === 'done' && job.result)
    download = {
      url: await deps.jobFiles.presignResult(job.result, deps.downloadTtlS),
      expiresAt: new Date(started.getTime() + deps.downloadTtlS * 1000),
    };
  const envelope: EventEnvelope = {
    id: event.id,
    object: 'event',
    type: event.type,
    created: Math.floor(new Date(job.completedAt ?? job.updatedAt).getTime() / 1000),
    api_version: 'v1',
    data: { job: publicJob(job, download, { deliveries: false }) },
  };
  const body = JSON.stringify(envelope);
  const timestamp = Math.floor(started.getTime() / 1000);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secretsFor(endpoint, started), timestamp, body),
    [EVENT_ID_HEADER.toLowerCase()]: event.id,
    [EVENT_TYPE_HEADER.toLowerCase()]: event.type,
    [ATTEMPT_HEADER.toLowerCase()]: String(attempt),
  };
  const result = await post(endpoint.url, body, headers, deps.policy);
  if (result.outcome === 'delivered') {
    await record(result, null);
    return 'delivered';
  }
  const last = attempt >= maxAttempts;
  const delayS = last ? 0 : deps.retryScheduleS[attempt - 1]!;
  await record(result, last ? null : new Date(deps.now().getTime() + delayS * 1000));
  await deps.deliveryQueue.retryAfter(receiptHandle, delayS);
  throw new DeliveryFailedError(
    `delivery of ${event.id} attempt ${attempt}/${maxAttempts} ${result.outcome}: ${result.error ?? ''}`,
  );
}
