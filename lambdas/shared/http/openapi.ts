// Builds the OpenAPI 3.1 document of a service from its route manifest: every route's spec carries its `docs`
// (handlers/*.route.ts), zod schemas become JSON Schema with zod's own z.toJSONSchema. Used by both services'
// GET /api (./api-docs.ts): each supplies its manifest and overview prose.
import { z } from 'zod';
import type { ServiceManifest } from '../manifest';
import type { RouteDoc } from './route-doc';

export type { ParamDoc, ResponseDoc, RouteDoc } from './route-doc';

export interface ApiInfo {
  title: string;
  version: string;
  /** Markdown: plans, limits, authentication, error shapes, decisions the contract leaves open. */
  description: string;
}

/** `{"detail": "..."}`: every error that is not a validation list, in both services. */
export const ErrorDetail = z.object({
  detail: z.string(),
  request_id: z.string().optional().meta({ description: 'On 500: quote it to support' }),
});

/** GET /api of every service (./api-docs.ts), described alike. */
export const API_DOCS_ROUTE_DOC: RouteDoc = {
  summary: 'This description',
  tags: ['meta'],
  description:
    'OpenAPI 3.1 as JSON for `?format=json` or `Accept: application/json`; a readable HTML page otherwise.',
  params: [
    {
      name: 'format',
      in: 'query',
      description: '`json` for the OpenAPI document',
      schema: { enum: ['json', 'html'] },
    },
  ],
  responses: { 200: { description: 'OpenAPI document or HTML page' } },
};

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  delete out.$schema;
  return out;
}

export async function buildOpenApi(manifest: ServiceManifest, info: ApiInfo): Promise<Json> {
  const paths: Record<string, Json> = {};
  for (const route of manifest.routes) {
    if (route.path === '$default') continue; // 404/405/preflight: described in the overview
    const doc = route.docs;
    if (!doc) throw new Error(`route ${route.id} has no API documentation (its spec's \`docs\`)`);
    const operation: Json = {
      operationId: route.id,
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      tags: doc.tags,
    };
    const params = [...(doc.params ?? [])];
    for (const m of route.path.matchAll(/\{([^}+]+)\+?\}/g))
      if (!params.some((p) => p.name === m[1]))
        params.push({ name: m[1]!, in: 'path', required: true, description: m[1]! });
    if (params.length)
      operation.parameters = params.map((p) => ({
        name: p.name,
        in: p.in,
        required: p.in === 'path' ? true : (p.required ?? false),
        description: p.description,
        schema: p.schema ?? { type: 'string' },
      }));
    if (doc.body) {
      const b = doc.body.schema;
      const schema = jsonSchema(typeof b === 'function' ? await b() : b);
      operation.requestBody = {
        required: true,
        content: Object.fromEntries(doc.body.contentTypes.map((t) => [t, { schema }])),
      };
    }
    operation.responses = Object.fromEntries(
      Object.entries(doc.responses).map(([status, r]) => [
        status,
        {
          description: r.description,
          ...(r.headers
            ? {
                headers: Object.fromEntries(
                  Object.entries(r.headers).map(([h, d]) => [
                    h,
                    { description: d, schema: { type: 'string' } },
                  ]),
                ),
              }
            : {}),
          ...(r.schema
            ? {
                content: Object.fromEntries(
                  (r.contentTypes ?? [r.contentType ?? 'application/json']).map((t) => [
                    t,
                    { schema: jsonSchema(r.schema!) },
                  ]),
                ),
              }
            : {}),
        },
      ]),
    );
    if (doc.bearer) operation.security = doc.bearer === 'optional' ? [{}, { apiKey: [] }] : [{ apiKey: [] }];
    const methods =
      route.method === 'ANY' ? ['get', 'post', 'put', 'delete', 'patch'] : [route.method.toLowerCase()];
    paths[route.path] ??= {};
    for (const m of methods) paths[route.path]![m] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key of a paid plan: `Authorization: Bearer <key>`',
        },
      },
    },
  };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Minimal Markdown for the description: paragraphs, `code`, **bold**, tables and bullet lists. */
function markdown(md: string): string {
  const inline = (s: string) =>
    esc(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  // Fenced code blocks first (they may contain blank lines): kept verbatim, escaped, as <pre><code>.
  const fences: string[] = [];
  const text = md.trim().replace(/^```[\w-]*\n([\s\S]*?)^```[ \t]*$/gm, (_m, code: string) => {
    fences.push(`<pre><code>${esc(code.replace(/\n$/, ''))}</code></pre>`);
    return `\u0000fence${fences.length - 1}\u0000`;
  });
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const fence = /^\u0000fence(\d+)\u0000$/.exec(block.trim());
      if (fence) return fences[Number(fence[1])]!;
      const lines = block.split('\n');
      if (lines.every((l) => l.trim().startsWith('|'))) {
        const rows = lines
          .filter((l) => !/^\|\s*-/.test(l.trim()))
          .map((l) => l.trim().slice(1, -1).split('|'));
        const [head, ...body] = rows;
        return `<table><tr>${head!.map((c) => `<th>${inline(c.trim())}</th>`).join('')}</tr>${body
          .map((r) => `<tr>${r.map((c) => `<td>${inline(c.trim())}</td>`).join('')}</tr>`)
          .join('')}</table>`;
      }
      if (lines.every((l) => l.trim().startsWith('- ')))
        return `<ul>${lines.map((l) => `<li>${inline(l.trim().slice(2))}</li>`).join('')}</ul>`;
      if (block.startsWith('## ')) return `<h2>${inline(block.slice(3))}</h2>`;
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
}

function fields(schema: Json | undefined): string {
  const props = schema?.properties as Record<string, Json> | undefined;
  if (!props) return '';
  const required = new Set((schema?.required as string[]) ?? []);
  return `<table><tr><th>Field</th><th>Type</th><th>Required</th><th>Notes</th></tr>${Object.entries(props)
    .map(([name, p]) => {
      const notes = [
        p.description,
        p.enum ? `one of ${(p.enum as unknown[]).join(', ')}` : '',
        p.minLength !== undefined ? `min length ${p.minLength}` : '',
        p.maxLength !== undefined ? `max length ${p.maxLength}` : '',
        p.pattern ? `pattern ${p.pattern}` : '',
        p.default !== undefined ? `default ${JSON.stringify(p.default)}` : '',
      ].filter(Boolean);
      return `<tr><td><code>${esc(name)}</code></td><td>${esc(String(p.type ?? 'any'))}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${esc(notes.join('; '))}</td></tr>`;
    })
    .join('')}</table>`;
}

export function renderHtml(doc: Json): string {
  const info = doc.info as ApiInfo;
  const ops: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const body = (op.requestBody as Json | undefined)?.content as
        Record<string, { schema: Json }> | undefined;
      const first = body ? Object.values(body)[0] : undefined;
      const responses = Object.entries(op.responses as Record<string, Json>)
        .map(([s, r]) => `<li><strong>${esc(s)}</strong> ${esc(String(r.description))}</li>`)
        .join('');
      const params = ((op.parameters as Json[]) ?? [])
        .map(
          (p) =>
            `<li><code>${esc(String(p.name))}</code> (${esc(String(p.in))}) ${esc(String(p.description ?? ''))}</li>`,
        )
        .join('');
      ops.push(
        `<section><h3><span class="m">${method.toUpperCase()}</span> <code>${esc(path)}</code> — ${esc(String(op.summary))}</h3>` +
          (op.description ? `<p>${esc(String(op.description))}</p>` : '') +
          (params ? `<p>Parameters:</p><ul>${params}</ul>` : '') +
          (first ? `<p>Body (${esc(Object.keys(body!).join(' or '))}):</p>${fields(first.schema)}` : '') +
          `<p>Responses:</p><ul>${responses}</ul></section>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(info.title)}</title><style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px}table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}section{border-top:1px solid #eee}
.m{display:inline-block;min-width:3.5em;font-size:.8em;background:#234;color:#fff;border-radius:3px;padding:0 .3em;text-align:center}
</style></head><body><h1>${esc(info.title)} <small>${esc(info.version)}</small></h1>
<p><a href="?format=json">OpenAPI 3.1 (JSON)</a></p>${markdown(info.description)}<h2>Endpoints</h2>${ops.join('\n')}</body></html>`;
}
