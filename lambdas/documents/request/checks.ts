// The checks of a POST /v1/render body beyond its schema that validate.ts runs on every request: zod issues in
// pydantic's words, and the option rules (protection, expiry, metadata limits, require_xml). Each returns problems.
import type { z } from 'zod';
import { InvalidInput } from '../../shared/errors';
import { validate } from '../../shared/validation';
import type { DocumentProblem } from '../errors';
import { METADATA_MAX_BYTES, METADATA_MAX_KEYS, PASSWORD_MAX_BYTES } from './schema';
import type { BuiltInTemplate } from '../../../templates/kit/template-types';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * zod issues → pydantic-style items (the shared mapper), with pydantic's wording where the shared mapper has none
 * yet: exclusive bounds ("greater than 0") and list lengths ("at least 1 item").
 */
export function problemsOf(
  schema: z.ZodType,
  input: unknown,
  prefix: (string | number)[],
): DocumentProblem[] {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return [];
  let items: DocumentProblem[] = [];
  try {
    validate(schema, input, prefix);
  } catch (err) {
    if (!(err instanceof InvalidInput)) throw err;
    items = err.items;
  }
  return items.map((item, i) => {
    const issue = result.error.issues[i];
    if (!issue || (issue.code !== 'too_small' && issue.code !== 'too_big')) return item;
    const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
    if (issue.origin === 'array') {
      return issue.code === 'too_small'
        ? { ...item, msg: `List should have at least ${plural(bound, 'item')}`, type: 'too_short' }
        : { ...item, msg: `List should have at most ${plural(bound, 'item')}`, type: 'too_long' };
    }
    if (issue.origin === 'number' && !issue.inclusive) {
      return issue.code === 'too_small'
        ? { ...item, msg: `Input should be greater than ${bound}`, type: 'greater_than' }
        : { ...item, msg: `Input should be less than ${bound}`, type: 'less_than' };
    }
    return item;
  });
}

export function listText(values: readonly string[]): string {
  return values.length <= 1
    ? values.join('')
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/**
 * options.password / options.permissions: only for format pdf, a password of at most 127 UTF-8 bytes, and never with
 * options.pdfa true (PDF/A forbids encryption; the cfdi_xml default of PDF/A gives way to an explicit protection).
 */
export function protectionProblems(options: unknown, format: string | undefined): DocumentProblem[] {
  if (options === null || typeof options !== 'object') return [];
  const o = options as { password?: unknown; permissions?: unknown; pdfa?: unknown };
  const asked = (['password', 'permissions'] as const).filter((k) => o[k] !== undefined);
  if (asked.length === 0) return [];
  const out: DocumentProblem[] = [];
  if (typeof o.password === 'string' && Buffer.byteLength(o.password, 'utf8') > PASSWORD_MAX_BYTES)
    out.push({
      loc: ['body', 'options', 'password'],
      msg: `The password is ${Buffer.byteLength(o.password, 'utf8')} bytes as UTF-8; PDF readers use at most ${PASSWORD_MAX_BYTES}: choose a shorter one`,
      type: 'string_too_long',
      ctx: { max_bytes: PASSWORD_MAX_BYTES },
    });
  if (format && format !== 'pdf')
    for (const k of asked)
      out.push({
        loc: ['body', 'options', k],
        msg: `options.${k} protects a PDF: send format 'pdf', or drop options.${k} for '${format}'`,
        type: 'unsupported_option',
      });
  if (o.pdfa === true)
    out.push({
      loc: ['body', 'options', 'pdfa'],
      msg: `PDF/A forbids encryption, so a PDF/A cannot carry options.${asked.join(' or options.')}: drop options.pdfa (or send false) to protect the PDF, or drop the protection to get a PDF/A`,
      type: 'option_conflict',
      ctx: { conflicts_with: asked.map((k) => `options.${k}`) },
    });
  return out;
}

/** options.expires_in is about an async job's stored result: without options.async there is none to keep. */
export function expiryProblems(options: unknown): DocumentProblem[] {
  if (options === null || typeof options !== 'object') return [];
  const o = options as { expires_in?: unknown; async?: unknown };
  if (o.expires_in === undefined || o.async === true) return [];
  return [
    {
      loc: ['body', 'options', 'expires_in'],
      msg: 'options.expires_in is how long the result of an async render is kept: send options.async true with it, or drop it (a synchronous render answers the document itself)',
      type: 'unsupported_option',
    },
  ];
}

/** metadata beyond its limits (its type is the schema's): the size as JSON and the number of keys. */
export function metadataProblems(metadata: unknown): DocumentProblem[] {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return [];
  const keys = Object.keys(metadata).length;
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  const out: DocumentProblem[] = [];
  if (keys > METADATA_MAX_KEYS)
    out.push({
      loc: ['body', 'metadata'],
      msg: `metadata has ${keys} keys; at most ${METADATA_MAX_KEYS}: keep ids and references, store the rest on your side`,
      type: 'metadata_too_large',
      ctx: { max_keys: METADATA_MAX_KEYS },
    });
  if (bytes > METADATA_MAX_BYTES)
    out.push({
      loc: ['body', 'metadata'],
      msg: `metadata is ${bytes} bytes as JSON; at most ${METADATA_MAX_BYTES}: keep ids and references, store the rest on your side`,
      type: 'metadata_too_large',
      ctx: { max_bytes: METADATA_MAX_BYTES },
    });
  return out;
}

/** Templates that print options.marca. */
export const MARCA_TEMPLATES = new Set(['factura']);

/** options.require_xml: the fields the template's XML still needs, or the option refused where it has no XML. */
export function requiredXmlProblems(
  template: BuiltInTemplate,
  data: unknown,
  options: unknown,
): DocumentProblem[] {
  const required = (options as { require_xml?: unknown } | undefined)?.require_xml === true;
  if (!required) return [];
  if (!template.requiredAttachmentProblems)
    return [
      {
        loc: ['body', 'options', 'require_xml'],
        msg: `Template '${template.meta.slug}' has no XML to require`,
        type: 'unsupported_option',
      },
    ];
  return template.requiredAttachmentProblems(data as never).map((p) => ({
    loc: ['body', 'data', p.field],
    msg: p.msg,
    type: 'missing',
  }));
}
