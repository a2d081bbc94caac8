// Failures a caller should hear about, in domain terms. Use cases, core and the platform's modules throw these; the
// HTTP chain turns them into a status, headers and the contract's body in one place (toHttpError in
// lambdas/shared/http/errors.ts). The message is the contract's `detail`; `extra` fields go next to it.

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class DomainError extends Error {
  constructor(
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Seconds after which a retry may succeed (Retry-After); null: no such hint. */
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }

  get detail(): string {
    return this.message;
  }
}

/** The request is invalid: every problem at once, FastAPI style (422 in narration's contract, 400 in documents'). */
export class InvalidInput extends DomainError {
  constructor(readonly items: ValidationItem[]) {
    super(items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

/** Shorthand for one problem. */
export const invalid = (loc: (string | number)[], msg: string, type: string) =>
  new InvalidInput([{ loc, msg, type }]);

/** The request as a whole cannot be served as sent; the message names the fix. */
export class InvalidRequest extends DomainError {}
/** No (valid) credentials. */
export class Unauthenticated extends DomainError {}
/** The caller's plan has lapsed or does not include this. */
export class PaymentRequired extends DomainError {}
export class Forbidden extends DomainError {}
export class NotFound extends DomainError {
  constructor(message = 'Not Found', extra?: Record<string, unknown>) {
    super(message, extra);
  }
}
export class Conflict extends DomainError {}
/** It existed but is no longer available (an expired id). */
export class Gone extends DomainError {}

/** A quota is spent; `rateLimit` holds its RateLimit-* fields and retry-after (lambdas/shared/quota/windows.ts). */
export class QuotaExceeded extends DomainError {
  constructor(
    message: string,
    readonly rateLimit: Record<string, string>,
  ) {
    super(message);
  }
}

/** A dependency (storage, queue, speech engine, a setting) is unavailable; null: retrying will not help soon. */
export class Unavailable extends DomainError {
  constructor(message: string, retryAfterS: number | null = 5, extra: Record<string, unknown> = {}) {
    super(message, extra, retryAfterS);
  }
}

/**
 * Work stopped by its abort signal (the request was answered 503 at its deadline, or a worker lost its job) after
 * `done` of its `total` steps: a narration's engine calls begun of its chunks, a render's documents of a merge.
 * Never answered to a caller (an internal signal, logged with how far the work got).
 */
export class WorkStopped extends Error {
  constructor(
    readonly done: number,
    readonly total: number,
    readonly unit: 'chunks' | 'documents',
    cause?: unknown,
  ) {
    super(`stopped after ${done} of ${total} ${unit}`, cause === undefined ? undefined : { cause });
    this.name = 'WorkStopped';
  }
}
