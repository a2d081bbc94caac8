// The one place where failures become HTTP answers: a domain error (lambdas/shared/errors.ts) maps to a status and
// the contract's body `{"detail": "<message>"}`, or for invalid input `{"detail": [{loc, msg, type}]}` (FastAPI
// style). HttpError is for what only the HTTP layer knows (405, 415, a transient AWS failure's 503).
import {
  Conflict,
  DomainError,
  Forbidden,
  Gone,
  InvalidRequest,
  NotFound,
  PaymentRequired,
  QuotaExceeded,
  Unauthenticated,
  Unavailable,
} from '../errors';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** Extra fields merged into the body next to `detail`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

const STATUS: [new (...args: never[]) => DomainError, number][] = [
  [InvalidRequest, 400],
  [Unauthenticated, 401],
  [PaymentRequired, 402],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [Gone, 410],
  [QuotaExceeded, 429],
  [Unavailable, 503],
];

function fromDomain(err: DomainError): HttpError | undefined {
  const status = STATUS.find(([cls]) => err instanceof cls)?.[1];
  if (status === undefined) return undefined;
  const headers: Record<string, string> =
    err instanceof QuotaExceeded
      ? err.rateLimit
      : err instanceof Unauthenticated
        ? { 'www-authenticate': 'Bearer' }
        : err.retryAfterS !== null
          ? { 'retry-after': String(err.retryAfterS) }
          : {};
  return new HttpError(status, err.message, headers, err.extra);
}

// ---- failures of AWS dependencies ----------------------------------------------------------------------------
// An AWS SDK v3 error carries `$metadata` (set by the SDK on every error it throws, network errors included, after
// its own retries). Throttling and unavailability are transient: the caller should retry, so they are 503 with
// Retry-After, not the 500 of an unexpected fault. Anything else from AWS (access denied, a missing table, a
// validation error) is a real fault and stays a 500. Duck-typed on purpose: this module is in every bundle and must
// not pull the SDK in.

/** Error names AWS services use for throttling (the SDK's own list, plus the per-service variants). */
const THROTTLING = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'RequestThrottledException',
  'RequestThrottled',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'SlowDown',
  'BandwidthLimitExceeded',
  'TransactionInProgressException',
  'LimitExceededException',
  'EC2ThrottledException',
  'PriorRequestNotComplete',
]);

/** Node network errors: the service could not be reached or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);

/** The same failures when only a message is left (see classifyDependencyError). */
const NETWORK_MESSAGE = new RegExp(
  `\\b(?:${[...NETWORK_CODES].join('|')}|socket hang up|TimeoutError|Connection timed out)\\b`,
);

const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalError',
  'InternalFailure',
  'InternalServerError',
  'KMS.KMSInternalException',
  'AWS.SimpleQueueService.ServiceUnavailable',
]);

export type DependencyFault = 'throttled' | 'unavailable';

interface AwsLikeError {
  name?: unknown;
  code?: unknown;
  $fault?: unknown;
  $retryable?: { throttling?: boolean } | unknown;
  $metadata?: { httpStatusCode?: number };
}

/** 'throttled' / 'unavailable' for a transient AWS SDK failure; undefined for anything else (a real fault). */
export function classifyDependencyError(err: unknown): DependencyFault | undefined {
  if (err === null || typeof err !== 'object' || !('$metadata' in err)) return undefined;
  const e = err as AwsLikeError;
  const name = typeof e.name === 'string' ? e.name : '';
  const status = e.$metadata?.httpStatusCode;
  const retryable = e.$retryable as { throttling?: boolean } | undefined;
  if (THROTTLING.has(name) || status === 429 || retryable?.throttling) return 'throttled';
  if (
    UNAVAILABLE_NAMES.has(name) ||
    (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) ||
    e.$fault === 'server' ||
    (typeof status === 'number' && status >= 500) ||
    // The SDK wraps a thrown value that is not an Error of its realm ("AWS SDK error wrapper for Error: connect
    // ECONNREFUSED …"), losing `code`: read the network failure from the message.
    (status === undefined && NETWORK_MESSAGE.test(String((err as { message?: unknown }).message ?? '')))
  )
    return 'unavailable';
  return undefined;
}

/** Seconds a caller should wait: throttling clears fast, an outage takes longer. */
export const DEPENDENCY_RETRY_AFTER_S: Record<DependencyFault, number> = { throttled: 2, unavailable: 5 };

/**
 * The answer for an error that reached the error middleware (other than InvalidInput, whose status is the route's):
 * an HttpError as it is; a domain error by its class; a 503 (Retry-After, and the request id in the body like a
 * 500's) for a transient AWS failure; else undefined, and the middleware answers 500 with the request id. Meant for
 * `errorResponse` in lambdas/shared/http/api-handler.ts.
 */
export function toHttpError(err: unknown, requestId?: string): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof DomainError) return fromDomain(err);
  const fault = classifyDependencyError(err);
  if (!fault) return undefined;
  return fromDomain(
    new Unavailable(
      fault === 'throttled'
        ? 'The service is busy right now. Please retry in a moment.'
        : 'A backing service is temporarily unavailable. Please retry in a few seconds.',
      DEPENDENCY_RETRY_AFTER_S[fault],
      requestId === undefined ? {} : { request_id: requestId },
    ),
  );
}
