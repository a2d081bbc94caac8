// POST /v1/render's validation: the body against its schema (request/schema.ts) and everything the schema
// cannot say, every problem at once (400), into a ValidRenderRequest (./valid-request.ts) the pipeline renders.
//
//   const check = validateRenderRequest(body);            // { ok: true, request } | { ok: false, problems }
//   if (!check.ok) throw new DocumentRequestError(check.problems);      // or parseRenderRequest(body)
import { CfdiXmlError } from '../../../templates/kit/cfdi/leer';
import type { BuiltInTemplate, XmlDocument } from '../../../templates/kit/template-types';
import { FORMATS, type Format } from '../core/formats';
import { findTemplate, TEMPLATE_SLUGS } from '../domain/template-registry';
import { DocumentRequestError, type DocumentProblem } from '../errors';
import { renderOptionsSchema, renderRequestSchema } from './schema';
import {
  expiryProblems,
  listText,
  MARCA_TEMPLATES,
  metadataProblems,
  problemsOf,
  protectionProblems,
  requiredXmlProblems,
} from './checks';
import type { SingleRenderRequest, ValidationResult, ValidRenderRequest } from './valid-request';

/** What a part of a merge may carry; everything else belongs to the request. */
const PART_KEYS = ['template', 'data', 'cfdi_xml', 'custom_html'] as const;

/**
 * Checks a POST /v1/render body and returns every problem at once: body shape and types, unknown template
 * (naming the known slugs), a format the template does not render to (naming its formats), and data that fails
 * the template's schema (per field, loc ["body", "data", ...]).
 */
export function validateRenderRequest(body: unknown): ValidationResult {
  const problems = problemsOf(renderRequestSchema, body, ['body']);
  const raw = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  if (raw.documents !== undefined) return validateMerge(raw, problems);
  const custom = typeof raw.custom_html === 'string' && raw.custom_html.length > 0;
  const format =
    typeof raw.format === 'string' && (FORMATS as readonly string[]).includes(raw.format)
      ? raw.format
      : undefined;
  const dataIsObject = raw.data !== null && typeof raw.data === 'object' && !Array.isArray(raw.data);
  let template: BuiltInTemplate | undefined;
  let data: unknown = raw.data;
  const xmlInput = typeof raw.cfdi_xml === 'string' && raw.cfdi_xml.length > 0;
  let xml: XmlDocument | undefined;
  if (raw.data === undefined && !xmlInput)
    problems.push({ loc: ['body', 'data'], msg: 'Field required', type: 'missing' });
  if (custom && xmlInput)
    problems.push({
      loc: ['body', 'cfdi_xml'],
      msg: 'cfdi_xml is read by the factura template, not by custom_html',
      type: 'unsupported_input',
    });

  if (!custom) {
    if (raw.template === undefined || raw.template === null) {
      problems.push({
        loc: ['body', 'template'],
        msg: `Field required: give a template (${listText(TEMPLATE_SLUGS)}) or your own custom_html`,
        type: 'missing',
      });
    } else if (typeof raw.template === 'string') {
      template = findTemplate(raw.template);
      if (!template) {
        problems.push({
          loc: ['body', 'template'],
          msg: `Unknown template '${raw.template}': use one of ${listText(TEMPLATE_SLUGS)}, or send custom_html`,
          type: 'unknown_template',
          ctx: { allowed: TEMPLATE_SLUGS },
        });
      }
    }
    if (template && format && !template.meta.formats.includes(format as Format)) {
      problems.push({
        loc: ['body', 'format'],
        msg: `Template '${template.meta.slug}' renders to ${listText(template.meta.formats)}; '${format}' is not one of them`,
        type: 'unsupported_format',
        ctx: { allowed: template.meta.formats },
      });
    }
    if (template && xmlInput) {
      if (!template.fromXml)
        problems.push({
          loc: ['body', 'cfdi_xml'],
          msg: `Template '${template.meta.slug}' does not read XML: send data, or use the factura or nomina template`,
          type: 'unsupported_input',
        });
      else if (raw.data !== undefined)
        problems.push({
          loc: ['body', 'data'],
          msg: 'Send either data or cfdi_xml, not both',
          type: 'data_and_xml',
        });
      else if (problems.length === 0) {
        try {
          xml = template.fromXml(raw.cfdi_xml as string);
        } catch (err) {
          if (!(err instanceof CfdiXmlError)) throw err;
          problems.push(
            ...err.problems.map((p) => ({ loc: ['body', 'cfdi_xml'], msg: p.msg, type: p.type })),
          );
        }
      }
    } else if (template && dataIsObject) {
      const parsed = template.schema.safeParse(raw.data);
      if (parsed.success) data = parsed.data;
      else problems.push(...problemsOf(template.schema, raw.data, ['body', 'data']));
    }
  }

  if (problems.length === 0 && template && !xmlInput)
    problems.push(...requiredXmlProblems(template, data, raw.options));
  if (
    (raw.options as { marca?: unknown } | undefined)?.marca !== undefined &&
    !(template && MARCA_TEMPLATES.has(template.meta.slug))
  )
    problems.push({
      loc: ['body', 'options', 'marca'],
      msg: `options.marca is printed by the factura template, not by ${template ? `'${template.meta.slug}'` : 'custom_html'}`,
      type: 'unsupported_option',
    });
  if ((raw.options as { pdfa?: unknown } | undefined)?.pdfa === true && format && format !== 'pdf')
    problems.push({
      loc: ['body', 'options', 'pdfa'],
      msg: `PDF/A is a PDF: send format 'pdf' with options.pdfa, or drop options.pdfa for '${format}'`,
      type: 'unsupported_option',
    });
  problems.push(...protectionProblems(raw.options, format));
  problems.push(...expiryProblems(raw.options));
  problems.push(...metadataProblems(raw.metadata));
  if (problems.length > 0) return { ok: false, problems };
  const options = renderOptionsSchema.parse(raw.options ?? {});
  const metadata = raw.metadata as Record<string, unknown> | undefined;
  const request: ValidRenderRequest = template
    ? {
        kind: 'template',
        template,
        format: format as Format,
        data: xml ? xml.data : (data as Record<string, unknown>),
        options,
        ...(xml ? { xml } : {}),
        ...(metadata ? { metadata } : {}),
      }
    : {
        kind: 'custom',
        source: raw.custom_html as string,
        format: format as Format,
        data: raw.data as Record<string, unknown>,
        options,
        ...(metadata ? { metadata } : {}),
      };
  return { ok: true, request };
}

/**
 * A merge (`documents`): the request-level checks (format pdf, options, metadata, no single-document members), then
 * each part as a single pdf request, its problems at ["body", "documents", i, ...].
 */
function validateMerge(raw: Record<string, unknown>, problems: DocumentProblem[]): ValidationResult {
  const format = raw.format;
  if (typeof format === 'string' && format !== 'pdf' && (FORMATS as readonly string[]).includes(format))
    problems.push({
      loc: ['body', 'format'],
      msg: `documents are merged into one PDF: send format 'pdf' (a merge of '${format}' files is not offered)`,
      type: 'unsupported_format',
      ctx: { allowed: ['pdf'] },
    });
  for (const k of PART_KEYS)
    if (raw[k] !== undefined)
      problems.push({
        loc: ['body', k],
        msg: `With documents, each part carries its own ${k}: move it into documents[i], or drop documents to render one document`,
        type: 'documents_conflict',
      });
  problems.push(...protectionProblems(raw.options, 'pdf'));
  problems.push(...expiryProblems(raw.options));
  if (typeof raw.options === 'object' && raw.options !== null) {
    const o = raw.options as Record<string, unknown>;
    if (o.require_xml !== undefined)
      problems.push({
        loc: ['body', 'options', 'require_xml'],
        msg: 'require_xml is about a zip with the CFDI XML; a merge is one PDF: drop options.require_xml',
        type: 'unsupported_option',
      });
  }
  problems.push(...metadataProblems(raw.metadata));
  const items = Array.isArray(raw.documents) ? raw.documents : [];
  const options = renderOptionsSchema.safeParse(raw.options ?? {});
  // What each part is rendered with: the page options; the file-level ones apply to the merged PDF.
  const partOptions = options.success
    ? (({ pdfa: _a, password: _p, permissions: _m, async: _s, require_xml: _r, csv_bom: _c, ...page }) =>
        page)(options.data)
    : {};
  const parts: SingleRenderRequest[] = [];
  items.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return; // the schema said so
    const at = (loc: (string | number)[]) => ['body', 'documents', i, ...loc.slice(1)];
    for (const k of Object.keys(item))
      if (!(PART_KEYS as readonly string[]).includes(k))
        problems.push({
          loc: ['body', 'documents', i, k],
          msg:
            k === 'format' || k === 'options' || k === 'metadata'
              ? `${k} belongs to the request (it applies to the whole merge), not to a part: move it out of documents[${i}]`
              : `Unknown member of a part: a part has ${listText(PART_KEYS)}`,
          type: 'extra_forbidden',
        });
    const part = item as Record<string, unknown>;
    // The brand (options.marca) goes to the parts that print it; the others render without it.
    const { marca, ...unbranded } = partOptions as typeof partOptions & { marca?: unknown };
    const branded = typeof part.template === 'string' && MARCA_TEMPLATES.has(part.template);
    const check = validateRenderRequest({
      ...Object.fromEntries(PART_KEYS.filter((k) => part[k] !== undefined).map((k) => [k, part[k]])),
      format: 'pdf',
      options: { ...(branded && marca !== undefined ? { ...unbranded, marca } : unbranded), pdfa: false },
    });
    if (!check.ok) problems.push(...check.problems.map((p) => ({ ...p, loc: at(p.loc) })));
    else parts.push(check.request as SingleRenderRequest);
  });
  if (problems.length > 0) return { ok: false, problems };
  const metadata = raw.metadata as Record<string, unknown> | undefined;
  return {
    ok: true,
    request: {
      kind: 'merge',
      format: 'pdf',
      parts,
      options: options.success ? options.data : {},
      ...(metadata ? { metadata } : {}),
    },
  };
}

/** validateRenderRequest that throws the 400 (DocumentRequestError) instead of returning the problems. */
export function parseRenderRequest(body: unknown): ValidRenderRequest {
  const r = validateRenderRequest(body);
  if (!r.ok) throw new DocumentRequestError(r.problems);
  return r.request;
}
