// Errors of the documents service that reach callers. The contract answers every invalid request with 400 (not
// narration's 422); the body keeps the house shape, a list of every problem at once:
//   400 {"detail": [{"loc": ["body", "data", "items", 0, "precio"], "msg": "...", "type": "..."}]}
// Template problems carry `ctx: {line, column}` when the engine knows where they are.
// Anything else thrown while rendering is a real fault: the error middleware answers 500 with a request id.
import { RequestValidationError, type ValidationItem } from '../shared/http/errors';

export interface DocumentProblem extends ValidationItem {
  /** Extra facts about the problem (pydantic's `ctx`): allowed values, template line and column. */
  ctx?: Record<string, unknown>;
}

/**
 * A request the service cannot render as sent: 400 with `detail` = the list of problems.
 * (It extends RequestValidationError so the shared middleware writes the list body; the middleware must use
 * `err.statusCode` rather than a fixed 422 for this class — see the report of the documents service.)
 */
export class DocumentRequestError extends RequestValidationError {
  constructor(readonly problems: DocumentProblem[]) {
    super(problems, 400);
  }
}

export type TemplateErrorKind = 'syntax' | 'render' | 'include' | 'output' | 'timeout' | 'memory';

const TYPES: Record<TemplateErrorKind, string> = {
  syntax: 'template_syntax_error',
  render: 'template_render_error',
  include: 'template_include_refused',
  output: 'template_output_too_large',
  timeout: 'template_timeout',
  memory: 'template_memory_limit',
};

/** A caller's template failed: bad syntax, an error while rendering, a refused include, or a resource limit. */
export class TemplateError extends DocumentRequestError {
  constructor(
    readonly kind: TemplateErrorKind,
    readonly reason: string,
    readonly line: number | null = null,
    readonly column: number | null = null,
    loc: (string | number)[] = ['body', 'custom_html'],
  ) {
    const where = line !== null ? ` (line ${line}${column !== null ? `, column ${column}` : ''})` : '';
    super([
      {
        loc,
        msg: `${reason}${where}`,
        type: TYPES[kind],
        ...(line !== null ? { ctx: { line, column } } : {}),
      },
    ]);
  }
}
