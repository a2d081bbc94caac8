// Webhook delivery, one implementation for every service: one signed POST of an event under the SSRF policy, and
// the retry bookkeeping around it. A service's delivery worker (SQS event source, batch size 1) reads the subject of
// its event and hands the owner and the payload to deliverEvent() (deliveryStep(): the service declares only how it
// finds the event; ./events.ts: one event model); a failed attempt sets the message's visibility to the retry schedule's
// next delay (WEBHOOK_RETRY_SCHEDULE_S: 1 min, 5 min, 30 min, 2 h, 6 h) and throws, so SQS redelivers it then; after
// the last attempt it reappears at once and SQS moves it to the DLQ (maxReceiveCount = attempts).
import { isIP } from 'node:net';
import { logger } from '../logger';
import { safeFetch, SafeFetchError, systemResolver } from '../net/safe-fetch';
import {
  exempt,
  secretsFor,
  type WebhookBrand,
  type WebhookEndpoint,
  type WebhookPolicy,
  type WebhookStore,
} from './endpoints';
import { webhookEvent } from './events';
import { signatureHeader } from './signature';

/** An SQS queue as the domain sees it. */
export interface MessageQueue {
  send(message: Record<string, unknown>, delayS?: number): Promise<void>;
  /** Makes a received message reappear after `delayS` seconds (its retry), instead of the queue's default. */
  retryAfter(receiptHandle: string, delayS: number): Promise<void>;
}

/** One webhook delivery attempt. */
export interface DeliveryAttempt<E extends string = string> {
  eventId: string;
  type: E;
  /** 1 for the first try. */
  attempt: number;
  /** ISO time the attempt started. */
  at: string;
  /** delivered: 2xx; failed: another status, timeout or network error; refused: the SSRF policy refused the
   * destination (no connection made); skipped: no endpoint subscribed any more. */
  outcome: 'delivered' | 'failed' | 'refused' | 'skipped';
  statusCode: number | null;
  error?: string;
  durationMs: number;
  /** When the next attempt is due; null after the last one. */
  nextAttemptAt?: string | null;
}

/** The attempt failed; the message is left for its retry (or, after the last attempt, for the DLQ). */
export class DeliveryFailedError extends Error {}

type PostResult = Pick<DeliveryAttempt, 'outcome' | 'statusCode' | 'error'>;

/** One POST of the event under the SSRF policy; the status line is all we read. */
export async function postEvent(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: WebhookPolicy,
  userAgent: string,
): Promise<PostResult> {
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
      userAgent,
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

export interface AttemptDeps {
  policy: WebhookPolicy;
  brand: WebhookBrand;
  /** Seconds to wait after failed attempt 1, 2, …; attempts = length + 1. */
  retryScheduleS: readonly number[];
  /** The queue the event's message came from (its visibility is the retry delay). */
  queue: MessageQueue;
  now(): Date;
}

/**
 * Signs and POSTs one event to `endpoint` (attempt `attempt` of the SQS message `receiptHandle`), reports the
 * attempt to `record` (optional: documents keeps a log on the job) and resolves on a 2xx. Otherwise schedules the
 * retry by the message's visibility and throws DeliveryFailedError.
 */
export async function attemptDelivery<E extends string>(
  deps: AttemptDeps,
  input: {
    endpoint: WebhookEndpoint<E>;
    event: { id: string; type: E };
    /** The JSON envelope, exactly the bytes signed and sent. */
    body: string;
    attempt: number;
    receiptHandle: string;
    /** When the attempt started (also the signature's timestamp). */
    started: Date;
    record?(attempt: DeliveryAttempt<E>): Promise<void>;
  },
): Promise<'delivered'> {
  const { endpoint, event, body, attempt, started } = input;
  const maxAttempts = deps.retryScheduleS.length + 1;
  const timestamp = Math.floor(started.getTime() / 1000);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    [deps.brand.signatureHeader.toLowerCase()]: signatureHeader(
      secretsFor(endpoint, started),
      timestamp,
      body,
    ),
    [deps.brand.eventIdHeader.toLowerCase()]: event.id,
    [deps.brand.eventTypeHeader.toLowerCase()]: event.type,
    [deps.brand.attemptHeader.toLowerCase()]: String(attempt),
  };
  const result = await postEvent(endpoint.url, body, headers, deps.policy, deps.brand.userAgent);
  const record = async (next: Date | null) =>
    input.record?.({
      eventId: event.id,
      type: event.type,
      attempt,
      at: started.toISOString(),
      ...result,
      durationMs: Math.max(0, deps.now().getTime() - started.getTime()),
      nextAttemptAt: next ? next.toISOString() : null,
    });
  if (result.outcome === 'delivered') {
    await record(null);
    return 'delivered';
  }
  const last = attempt >= maxAttempts;
  const delayS = last ? 0 : deps.retryScheduleS[attempt - 1]!;
  await record(last ? null : new Date(deps.now().getTime() + delayS * 1000));
  await deps.queue.retryAfter(input.receiptHandle, delayS);
  throw new DeliveryFailedError(
    `delivery of ${event.id} attempt ${attempt}/${maxAttempts} ${result.outcome}: ${result.error ?? ''}`,
  );
}

/** One event to deliver, as a service's delivery worker found it: whose endpoint, which event, what it carries. */
export interface PendingEvent<E extends string, D> {
  /** The endpoint's owner (the subject's account). */
  owner: string;
  id: string;
  type: E;
  /** ISO time the subject reached the outcome (the envelope's `created`). */
  at: string;
  /** The payload (`data`), made only when an endpoint is subscribed (documents signs a download link for it). */
  data(started: Date): D | Promise<D>;
  /** Keeps each attempt (documents: on the job); also the `skipped` one when no endpoint is subscribed any more. */
  record?(attempt: DeliveryAttempt<E>): Promise<void>;
}

export interface EventDeliveryDeps<E extends string> extends AttemptDeps {
  readonly webhooks: Pick<WebhookStore<E>, 'get'>;
}

/**
 * Delivers one event (one SQS message, attempt `attempt`): 'skipped' when its owner's endpoint is gone or no longer
 * subscribes to the type; 'delivered' on a 2xx; otherwise attemptDelivery schedules the retry and throws.
 */
export async function deliverEvent<E extends string, D>(
  deps: EventDeliveryDeps<E>,
  event: PendingEvent<E, D>,
  attempt: number,
  receiptHandle: string,
): Promise<'delivered' | 'skipped'> {
  const started = deps.now();
  const endpoint = await deps.webhooks.get(event.owner);
  if (!endpoint || !endpoint.events.includes(event.type)) {
    logger.info('no endpoint subscribed to this event any more, dropped', {
      eventId: event.id,
      type: event.type,
    });
    await event.record?.({
      eventId: event.id,
      type: event.type,
      attempt,
      at: started.toISOString(),
      outcome: 'skipped',
      statusCode: null,
      error: 'No endpoint subscribed to this event any more',
      durationMs: Math.max(0, deps.now().getTime() - started.getTime()),
      nextAttemptAt: null,
    });
    return 'skipped';
  }
  const body = JSON.stringify(webhookEvent(event.id, event.type, event.at, await event.data(started)));
  return attemptDelivery(deps, {
    endpoint,
    event: { id: event.id, type: event.type },
    body,
    attempt,
    receiptHandle,
    started,
    ...(event.record ? { record: event.record } : {}),
  });
}

/** What a service's delivery step reads from its dependencies (both services' deps objects have these). */
export interface DeliveryStepDeps<E extends string> {
  readonly webhooks: Pick<WebhookStore<E>, 'get'>;
  /** The queue the events come from (its visibility is the retry delay). */
  readonly deliveryQueue: MessageQueue;
  readonly webhookPolicy: WebhookPolicy;
  /** Seconds to wait after failed attempt 1, 2, …; attempts = length + 1. */
  readonly config: { readonly WEBHOOK_RETRY_SCHEDULE_S: readonly number[] };
  now(): Date;
}

/**
 * A service's delivery step (one SQS message, attempt `attempt`): `find` turns the message into the event it stands
 * for, or null when there is nothing to send any more ('skipped'); deliverEvent, signed with `brand`, does the rest.
 */
export function deliveryStep<E extends string, Deps extends DeliveryStepDeps<E>, M, D>(
  brand: WebhookBrand,
  find: (deps: Deps, message: M, receiptHandle: string) => Promise<PendingEvent<E, D> | null>,
): (deps: Deps, message: M, attempt: number, receiptHandle: string) => Promise<'delivered' | 'skipped'> {
  return async (deps, message, attempt, receiptHandle) => {
    const event = await find(deps, message, receiptHandle);
    if (!event) return 'skipped';
    const attemptDeps = {
      webhooks: deps.webhooks,
      policy: deps.webhookPolicy,
      brand,
      retryScheduleS: deps.config.WEBHOOK_RETRY_SCHEDULE_S,
      queue: deps.deliveryQueue,
      now: () => deps.now(),
    };
    return deliverEvent(attemptDeps, event, attempt, receiptHandle);
  };
}
