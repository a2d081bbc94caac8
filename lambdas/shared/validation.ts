// zod → FastAPI/pydantic-style 422 items, so existing clients see the messages and types they know.
import { z } from 'zod';
import { InvalidInput, type ValidationItem } from './errors';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function quoteList(values: readonly unknown[]): string {
  const q = values.map((v) => `'${String(v)}'`);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

function toItem(issue: z.core.$ZodIssue, prefix: (string | number)[]): ValidationItem {
  const loc = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return { loc, msg: 'Field required', type: 'missing' };
      if (issue.expected === 'string')
        return { loc, msg: 'Input should be a valid string', type: 'string_type' };
      if (issue.expected === 'object')
        return {
          loc,
          msg: 'Input should be a valid dictionary or object to extract fields from',
          type: 'model_attributes_type',
        };
      if (issue.expected === 'number')
        return { loc, msg: 'Input should be a valid number', type: 'float_type' };
      if (issue.expected === 'boolean')
        return { loc, msg: 'Input should be a valid boolean', type: 'bool_type' };
      return { loc, msg: `Input should be a valid ${issue.expected}`, type: `${issue.expected}_type` };
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      if (issue.origin === 'string')
        return {
          loc,
          msg: `String should have ${small ? 'at least' : 'at most'} ${plural(Number(bound), 'character')}`,
          type: small ? 'string_too_short' : 'string_too_long',
        };
      return {
        loc,
        msg: `Input should be ${small ? 'greater' : 'less'} than or equal to ${bound}`,
        type: small ? 'greater_than_equal' : 'less_than_equal',
      };
    }
    case 'invalid_value':
      return { loc, msg: `Input should be ${quoteList(issue.values)}`, type: 'literal_error' };
    case 'invalid_format':
      if (issue.format === 'regex')
        return {
          loc,
          msg: `String should match pattern '${(issue as { pattern?: string }).pattern ?? ''}'`,
          type: 'string_pattern_mismatch',
        };
      return { loc, msg: issue.message || `Input should be a valid ${issue.format}`, type: 'value_error' };
    default: {
      const params = (issue as { params?: { type?: string } }).params;
      return { loc, msg: issue.message, type: params?.type ?? 'value_error' };
    }
  }
}

/** Parses `input` with `schema`; throws a 422 listing every problem at once. */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: (string | number)[] = ['body'],
): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new InvalidInput(result.error.issues.map((i) => toItem(i, prefix)));
}

/** A string field whose length limits count characters (code points), as callers do, not UTF-16 units. */
export function chars(min: number, max: number) {
  return z
    .string()
    .superRefine((s, ctx) => {
      const n = [...s].length;
      const issue = { origin: 'string', inclusive: true, input: s, message: '' } as const;
      if (n < min) ctx.addIssue({ ...issue, code: 'too_small', minimum: min });
      else if (n > max) ctx.addIssue({ ...issue, code: 'too_big', maximum: max });
    })
    .meta({ minLength: min, maxLength: max });
}
