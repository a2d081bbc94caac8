// Typed failures of the Chromium renderer, split by whose fault they are (docs/documents-rendering.md):
// - RenderInputError (and RenderTimeoutError): the caller's HTML or options cannot be rendered as given. They are
//   InvalidRequest errors (400, the contract's "invalid request"), so the shared error middleware answers
//   `{"detail": "..."}` with a message that names the fix. A page that does not finish within the render timeout is
//   the caller's document (a CSS filter on 200 huge boxes, 20,000 paragraphs): 400, never 500.
// - RenderCrashError: Chromium failed to start, crashed twice in a row, or failed in a way no input explains. It is
//   NOT a domain error, so the middleware answers 500 with the request id and logs it (the contract's "rendering error").
import { InvalidRequest } from '../../shared/errors';

export class RenderInputError extends InvalidRequest {
  constructor(
    detail: string,
    /** Request field the problem is in, e.g. `options.page_size` (for handlers that build per-field messages). */
    readonly field?: string,
  ) {
    super(detail);
  }
}

export class RenderTimeoutError extends RenderInputError {
  constructor(readonly timeoutMs: number) {
    super(
      `The document did not finish rendering within ${(timeoutMs / 1000).toFixed(1)} s. Make it lighter: fewer ` +
        'elements or pages, smaller images, no CSS filters/shadows on large areas.',
    );
  }
}

export class RenderCrashError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RenderCrashError';
  }
}
