// Typed errors: every non-2xx answer becomes a VozError subclass carrying the HTTP status, the contract's `detail`
// (a message, or FastAPI-style items {loc, msg, type} for invalid input: narration 422, documents 400), a stable
// machine-readable `code` (the API's X-Error-Code: the same whatever the language) and the request id to quote to
// support. With `language: 'es'` the APIs answer the message (and each item's `msg`) in Spanish.

/** One problem of an invalid request, as the APIs list them. */
export interface ErrorItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'invalid_request',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'unavailable',
};

export class VozError extends Error {
  /** HTTP status (0 when no answer arrived). */
  readonly status: number;
  /**
   * Stable code, the same in every language: the API's X-Error-Code (e.g. `lexicon_not_found`), else the body's
   * `code`, else the first item's `type` (invalid input), else one per status.
   */
  readonly code: string;
  /** The body's `detail` as sent: a message or the list of problems. */
  readonly detail: string | ErrorItem[] | undefined;
  /** The problems of an invalid request ([] otherwise). */
  readonly items: ErrorItem[];
  readonly requestId: string | undefined;
  /** Seconds the API asks to wait before retrying (Retry-After), when it says. */
  readonly retryAfterS: number | undefined;
  /** The parsed JSON body (or undefined). */
  readonly body: unknown;

  constructor(
    message: string,
    init: {
      status?: number;
      code?: string;
      detail?: string | ErrorItem[];
      requestId?: string;
      retryAfterS?: number;
      body?: unknown;
      cause?: unknown;
    } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status ?? 0;
    this.detail = init.detail;
    this.items = Array.isArray(init.detail) ? init.detail : [];
    this.code = init.code ?? this.items[0]?.type ?? CODE_BY_STATUS[this.status] ?? `http_${this.status}`;
    this.requestId = init.requestId;
    this.retryAfterS = init.retryAfterS;
    this.body = init.body;
  }
}

export class InvalidRequestError extends VozError {}
export class AuthenticationError extends VozError {}
export class PaymentRequiredError extends VozError {}
export class PermissionDeniedError extends VozError {}
export class NotFoundError extends VozError {}
export class ConflictError extends VozError {}
export class GoneError extends VozError {}
export class PayloadTooLargeError extends VozError {}
export class RateLimitError extends VozError {}
export class ServerError extends VozError {}
export class ServiceUnavailableError extends VozError {}
/** No answer: the connection failed or the request timed out. */
export class ConnectionError extends VozError {}
/** A narration or render job ended `failed` (the API's reason in `detail`). */
export class JobFailedError extends VozError {}
/** A wait for a job gave up (the job may still finish). */
export class WaitTimeoutError extends VozError {}

const CLASS_BY_STATUS: Record<number, typeof VozError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  402: PaymentRequiredError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  413: PayloadTooLargeError,
  422: InvalidRequestError,
  429: RateLimitError,
  500: ServerError,
  503: ServiceUnavailableError,
};

/** The error for an answer with `status`, its JSON body and headers. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): VozError {
  const b = (body && typeof body === 'object' ? body : {}) as {
    detail?: unknown;
    code?: unknown;
    type?: unknown;
  };
  const detail =
    typeof b.detail === 'string' || Array.isArray(b.detail) ? (b.detail as string | ErrorItem[]) : undefined;
  const message =
    typeof detail === 'string'
      ? detail
      : detail?.length
        ? detail.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')
        : `HTTP ${status}`;
  const cls = CLASS_BY_STATUS[status] ?? (status >= 500 ? ServerError : VozError);
  return new cls(message, {
    status,
    code:
      headers.get('x-error-code') ??
      (typeof b.code === 'string' ? b.code : typeof b.type === 'string' ? b.type : undefined),
    detail,
    requestId: headers.get('x-request-id') ?? undefined,
    retryAfterS: parseRetryAfter(headers.get('retry-after')),
    body,
  });
}

/** Retry-After as seconds (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}
