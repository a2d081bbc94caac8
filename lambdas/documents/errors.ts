// Errors of the documents service that reach callers. The contract answers every invalid request with 400 (not
// narration's 422); the body keeps the house shape, a list of every problem at once:
//   400 {"detail": [{"loc": ["body", "data", "items", 0, "precio"], "msg": "...", "type": "..."}]}
// Template problems carry `ctx: {line, column}` when the engine knows where they are.
// Anything else thrown while rendering is a real fault: the error middleware answers 500 with a request id.
import { InvalidInput, type ValidationItem } from '../shared/errors';

export interface DocumentProblem extends ValidationItem {
  /** Extra facts about the problem (pydantic's `ctx`): allowed values, template line and column. */
  ctx?: Record<string, unknown>;
}

/** A request the service cannot render as sent: 400 (the routes' `invalidStatus`) with the list of problems. */
export class DocumentRequestError extends InvalidInput {
  constructor(readonly problems: DocumentProblem[]) {
    super(problems);
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
