// Builds the OpenAPI 3.1 document of a service from its route manifest: every route's spec carries its `docs`
// (handlers/*.route.ts), zod schemas become JSON Schema with zod's own z.toJSONSchema. Used by both services'
// GET /api (./api-docs.ts): each supplies its manifest and overview prose.
import { z } from 'zod';
import type { ServiceManifest } from '../manifest';
import type { RouteDoc } from './route-doc';
import { codeSamples, samplesMarkdown } from './snippets';

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
    'OpenAPI 3.1 as JSON for `?format=json` or `Accept: application/json`; otherwise the interactive reference ' +
    '(Spanish page, Swagger UI served by this API: "Try it out" calls this origin).',
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

/** GET /api/assets/{file}: the reference page's scripts and styles. */
export const API_ASSET_ROUTE_DOC: RouteDoc = {
  summary: "A file of the API reference page (Swagger UI's script and styles)",
  tags: ['meta'],
  description: 'Brotli/gzip per Accept-Encoding, weak ETag (304 on If-None-Match); unknown names → 404.',
  params: [{ name: 'file', in: 'path', required: true, description: 'e.g. swagger-ui-bundle.js' }],
  responses: {
    200: { description: 'The file' },
    304: { description: 'Not modified: If-None-Match matched the ETag' },
    404: { description: 'No such file', schema: ErrorDetail },
  },
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
    let example: Record<string, unknown> | undefined;
    if (doc.body) {
      const schema = jsonSchema(doc.body.schema);
      const e = doc.body.example;
      example = typeof e === 'function' ? await e() : e;
      operation.requestBody = {
        required: true,
        // The example goes with the first (main) media type, the one "Probar" opens with.
        content: Object.fromEntries(
          doc.body.contentTypes.map((t, i) => [t, i === 0 ? { schema, example } : { schema }]),
        ),
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
    // curl, TypeScript and Python, made from the same docs (./snippets.ts): as x-codeSamples and in the description.
    const samples = codeSamples(route.method === 'ANY' ? 'GET' : route.method, route.path, doc, example);
    operation['x-codeSamples'] = samples;
    operation.description = [doc.description, samplesMarkdown(samples)].filter(Boolean).join('\n\n');
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
