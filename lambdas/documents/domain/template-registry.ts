// The six built-in templates (listed in templates/index.ts): metadata, zod schemas, sample data, view models, and their Jinja2
// sources, plus the built-in partials (templates/_partials/*.j2) that both they and callers' templates may include.
//
// Sources are read from disk at first use. The directory is found by walking up from this file to the one holding
// `templates/_partials` (works under tsx, jest and an esbuild bundle that copies templates/ beside it), or from
// DOCUMENTS_TEMPLATES_DIR when set (the container image sets it).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { TEMPLATES } from '../../../templates';
import type { BuiltInTemplate, TemplateMeta } from '../../../templates/kit/template-types';
import type { Format } from '../core/formats';

export { TEMPLATES };

export const TEMPLATE_SLUGS = TEMPLATES.map((t) => t.meta.slug);

/** Formats a caller's own template (custom_html) may be rendered to: all ten. */
export const CUSTOM_FORMATS: readonly Format[] = [
  'pdf',
  'html',
  'png',
  'docx',
  'md',
  'txt',
  'json',
  'csv',
  'xlsx',
  'zip',
];

export function findTemplate(slug: string): BuiltInTemplate | undefined {
  return TEMPLATES.find((t) => t.meta.slug === slug);
}

let root: string | undefined;

export function templatesDir(): string {
  if (root) return root;
  const fromEnv = process.env.DOCUMENTS_TEMPLATES_DIR;
  if (fromEnv) return (root = fromEnv);
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'templates', '_partials'))) return (root = join(dir, 'templates'));
    if (dirname(dir) === dir) break;
  }
  throw new Error(
    'templates/ not found beside the code: set DOCUMENTS_TEMPLATES_DIR to the folder holding templates/<slug>/',
  );
}

const sources = new Map<string, { source: string; hash: string }>();

/** The Jinja2 source of a built-in template (GET /templates/{slug}/source). */
export function templateSource(slug: string): string {
  return loadSource(slug).source;
}

/** Source plus a short content hash (cache key for compiled templates and rendered samples). */
export function loadSource(slug: string): { source: string; hash: string } {
  let s = sources.get(slug);
  if (!s) {
    if (!findTemplate(slug)) throw new Error(`unknown template ${slug}`);
    const source = readFileSync(join(templatesDir(), slug, 'template.html.j2'), 'utf8');
    s = { source, hash: createHash('sha256').update(source).digest('hex').slice(0, 12) };
    sources.set(slug, s);
  }
  return s;
}

let partials: Record<string, string> | undefined;

/** Built-in partials by include name ("base.html", "estilos.html", "macros.html"). */
export function builtInPartials(): Record<string, string> {
  if (!partials) {
    const dir = join(templatesDir(), '_partials');
    const map: Record<string, string> = {};
    for (const f of readdirSync(dir).sort()) {
      if (f.endsWith('.j2')) map[f.slice(0, -3)] = readFileSync(join(dir, f), 'utf8');
    }
    partials = map;
  }
  return partials;
}

export interface TemplateListing extends Omit<TemplateMeta, 'page'> {
  page: TemplateMeta['page'];
  /** JSON Schema (draft 2020-12) of `data`, generated from the zod schema (input side: defaults are optional). */
  fields: Record<string, unknown>;
  sample: unknown;
  source_url: string;
  sample_pdf_url: string;
}

/** GET /templates body: every built-in template with its formats and the JSON Schema of its data. */
export function listTemplates(): {
  templates: TemplateListing[];
  partials: string[];
  custom_html_formats: Format[];
} {
  return {
    templates: TEMPLATES.map((t) => ({
      ...t.meta,
      formats: [...t.meta.formats],
      fields: z.toJSONSchema(t.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
      sample: t.sample,
      source_url: `/templates/${t.meta.slug}/source`,
      sample_pdf_url: `/templates/${t.meta.slug}/sample.pdf`,
    })),
    partials: Object.keys(builtInPartials()),
    custom_html_formats: [...CUSTOM_FORMATS],
  };
}
