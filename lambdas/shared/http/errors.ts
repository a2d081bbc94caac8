// Errors that reach callers. Domain code throws these; the error middleware maps them to a status and the
// contract's body shape: `{"detail": "<message>"}`, or for 422 `{"detail": [{loc, msg, type}]}` (FastAPI style).

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

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

export class RequestValidationError extends HttpError {
  constructor(readonly items: ValidationItem[]) {
    super(422, items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

export class NotFoundError extends HttpError {
  constructor(detail = 'Not Found') {
    super(404, detail);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(detail: string) {
    super(401, detail, { 'www-authenticate': 'Bearer' });
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(detail: string, headers: Record<string, string>) {
    super(429, detail, headers);
  }
}

/** A dependency (storage, queue, speech engine) is unavailable: the caller may retry. */
export class ServiceUnavailableError extends HttpError {
  constructor(detail: string, retryAfterS = 5) {
    super(503, detail, { 'retry-after': String(retryAfterS) });
  }
}

/** Shorthand for one 422 item. */
export function invalid(loc: (string | number)[], msg: string, type: string): RequestValidationError {
  return new RequestValidationError([{ loc, msg, type }]);
}
