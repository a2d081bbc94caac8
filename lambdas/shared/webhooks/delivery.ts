// Webhook delivery, one implementation for every service: one signed POST of an event under the SSRF policy, and
// the retry bookkeeping around it. A service's delivery worker (SQS event source, batch size 1) reads its event,
// builds the body and calls attemptDelivery(); a failed attempt sets the message's visibility to the retry schedule's
// next delay (WEBHOOK_RETRY_SCHEDULE_S: 1 min, 5 min, 30 min, 2 h, 6 h) and throws, so SQS redelivers it then; after
// the last attempt it reappears at once and SQS moves it to the DLQ (maxReceiveCount = attempts).
import { isIP } from 'node:net';
import { safeFetch, SafeFetchError, systemResolver } from '../net/safe-fetch';
import { exempt, secretsFor, type WebhookBrand, type WebhookEndpoint, type WebhookPolicy } from './endpoints';
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
