// Generates the clients' types from the two services' OpenAPI 3.1 documents (GET /api?format=json):
//   clients/typescript/src/generated/{narration,documents}.ts  (TypeScript interfaces)
//   clients/python/voz/types_{narration,documents}.py          (TypedDicts, Python ≥ 3.9)
// and the one usage text of both CLIs (`npx voz`, `python -m voz`) from clients/cli-usage.txt:
//   clients/typescript/src/generated/usage.ts, clients/python/voz/_usage.py
// Per operation (operationId X): X_Request (JSON body), X_Query (query parameters), X_<status> (2xx JSON bodies).
// Why our own ~200 lines rather than openapi-typescript: one walk emits both languages from the same reading of
// the documents (the npm generators emit TypeScript only), and the output is plain named types per operation rather
// than a `paths[...]` lookup tree, which reads better in a small SDK. It handles what the two documents use:
// type (also as an array), const, enum, anyOf/oneOf, allOf, properties/required, additionalProperties, items.
//
//   npx tsx clients/scripts/generate-types.ts [narrationBaseUrl] [documentsBaseUrl]
//   (defaults http://127.0.0.1:3000 and http://127.0.0.1:3001: run `npm start` first)
// test/e2e/clients-typescript.test.ts regenerates from the running runtime and fails when a committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  description?: string;
};
interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
export interface OpenApiDoc {
  info?: { title?: string; version?: string };
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** Named schemas of one document, in a stable order: [name, schema, method + path]. */
function namedSchemas(doc: OpenApiDoc): [string, Schema, string][] {
  const out: [string, Schema, string][] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op?.operationId) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query');
      if (query.length) {
        const props: Record<string, Schema> = {};
        for (const p of query) props[p.name] = { ...(p.schema ?? {}), description: p.description };
        const required = query.filter((p) => p.required).map((p) => p.name);
        out.push([`${op.operationId}_Query`, { type: 'object', properties: props, required }, where]);
      }
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) out.push([`${op.operationId}_Request`, body, where]);
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        if (!/^2\d\d$/.test(status)) continue;
        const json = Object.entries(res.content ?? {}).find(([type]) => type.startsWith('application/json'));
        if (json?.[1].schema) out.push([`${op.operationId}_${status}`, json[1].schema, where]);
      }
    }
  }
  return out;
}

// ---- TypeScript ------------------------------------------------------------------------------------------------
function tsType(s: Schema | boolean | undefined, indent: string): string {
  if (s === undefined || s === true || (typeof s === 'object' && Object.keys(s).length === 0))
    return 'unknown';
  if (s === false) return 'never';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map((m) => paren(tsType(m, indent))).join(' | ');
  if (s.allOf) return s.allOf.map((m) => paren(tsType(m, indent))).join(' & ');
  if (Array.isArray(s.type)) return s.type.map((t) => paren(tsType({ ...s, type: t }, indent))).join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${paren(tsType(s.items, indent))}[]`;
    case 'object':
    case undefined: {
      if (!s.properties) {
        if (s.type === undefined) return 'unknown';
        return `Record<string, ${tsType(s.additionalProperties === undefined ? true : s.additionalProperties, indent)}>`;
      }
      const inner = indent + '  ';
      const req = new Set(s.required ?? []);
      const lines = Object.entries(s.properties).map(([k, v]) => {
        const doc = v.description ? `${inner}/** ${v.description.replace(/\*\//g, '* /')} */\n` : '';
        const key = IDENT.test(k) ? k : JSON.stringify(k);
        return `${doc}${inner}${key}${req.has(k) ? '' : '?'}: ${tsType(v, inner)};`;
      });
      return `{\n${lines.join('\n')}\n${indent}}`;
    }
    default:
      return 'unknown';
  }
}
const paren = (t: string) => (/[|&]/.test(t) && !t.startsWith('{') ? `(${t})` : t);

export function typescriptModule(service: string, doc: OpenApiDoc): string {
  const head = [
    `// GENERATED by clients/scripts/generate-types.ts from the ${service} API's OpenAPI document`,
    `// (${doc.info?.title ?? service} ${doc.info?.version ?? ''}, GET /api?format=json). Do not edit: regenerate.`,
    '',
  ];
  const body = namedSchemas(doc).map(
    ([name, s, where]) => `/** ${where} */\nexport type ${name} = ${tsType(s, '')};\n`,
  );
  return head.join('\n') + body.join('\n');
}

// ---- Python ----------------------------------------------------------------------------------------------------
const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
const pyLiteral = (v: unknown) =>
  v === null ? 'None' : typeof v === 'boolean' ? (v ? 'True' : 'False') : JSON.stringify(v);

function pyType(s: Schema | boolean | undefined, name: string, defs: string[]): string {
  if (s === undefined || s === true || (typeof s === 'object' && Object.keys(s).length === 0)) return 'Any';
  if (s === false) return 'Any';
  if (s.const !== undefined) return s.const === null ? 'None' : `Literal[${pyLiteral(s.const)}]`;
  if (s.enum) {
    const lits = s.enum.filter((v) => v !== null).map(pyLiteral);
    const lit = `Literal[${lits.join(', ')}]`;
    return s.enum.includes(null) ? `Optional[${lit}]` : lit;
  }
  const union = s.anyOf ?? s.oneOf;
  if (union) return pyUnion(union.map((m, i) => pyType(m, `${name}V${i + 1}`, defs)));
  if (s.allOf) return 'Dict[str, Any]';
  if (Array.isArray(s.type))
    return pyUnion(s.type.map((t, i) => pyType({ ...s, type: t }, `${name}V${i + 1}`, defs)));
  switch (s.type) {
    case 'string':
      return 'str';
    case 'number':
      return 'float';
    case 'integer':
      return 'int';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'None';
    case 'array':
      return `List[${pyType(s.items, `${name}Item`, defs)}]`;
    case 'object':
    case undefined: {
      if (!s.properties) {
        if (s.type === undefined) return 'Any';
        const v = s.additionalProperties;
        return `Dict[str, ${v === undefined || v === true || v === false ? 'Any' : pyType(v, `${name}Value`, defs)}]`;
      }
      const req = new Set(s.required ?? []);
      const entries = Object.entries(s.properties).map(
        ([k, v]) => [k, pyType(v, `${name}${pascal(k)}`, defs), req.has(k)] as const,
      );
      const classy = entries.every(([k]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && !PY_KEYWORDS.has(k));
      const required = entries.filter(([, , r]) => r);
      const optional = entries.filter(([, , r]) => !r);
      if (classy) {
        const cls = (n: string, base: string, items: typeof entries) =>
          `class ${n}(${base}):\n${items.length ? items.map(([k, t]) => `    ${k}: ${t}`).join('\n') : '    pass'}\n`;
        if (required.length && optional.length) {
          defs.push(cls(`_${name}Base`, 'TypedDict', required));
          defs.push(cls(name, `_${name}Base, total=False`, optional));
        } else if (required.length) defs.push(cls(name, 'TypedDict', required));
        else defs.push(cls(name, 'TypedDict, total=False', optional));
      } else {
        // Keys that are not Python identifiers: the functional form (every key optional).
        const fields = entries.map(([k, t]) => `${JSON.stringify(k)}: ${t}`).join(', ');
        defs.push(`${name} = TypedDict(${JSON.stringify(name)}, {${fields}}, total=False)\n`);
      }
      return name;
    }
    default:
      return 'Any';
  }
}
function pyUnion(types: string[]): string {
  const uniq = [...new Set(types)];
  if (uniq.includes('Any')) return 'Any';
  const nonNull = uniq.filter((t) => t !== 'None');
  const inner = nonNull.length === 1 ? nonNull[0]! : `Union[${nonNull.join(', ')}]`;
  return uniq.includes('None') ? `Optional[${inner}]` : inner;
}

export function pythonModule(service: string, doc: OpenApiDoc): string {
  const defs: string[] = [];
  const aliases: string[] = [];
  for (const [name, s, where] of namedSchemas(doc)) {
    const t = pyType(s, name, defs);
    if (t !== name) aliases.push(`# ${where}\n${name} = ${t}\n`);
    else defs[defs.length - 1] = `# ${where}\n${defs[defs.length - 1]}`;
  }
  return [
    `# GENERATED by clients/scripts/generate-types.ts from the ${service} API's OpenAPI document`,
    `# (${doc.info?.title ?? service} ${doc.info?.version ?? ''}, GET /api?format=json). Do not edit: regenerate.`,
    '# flake8: noqa',
    'from typing import Any, Dict, List, Literal, Optional, TypedDict, Union',
    '',
    '',
    ...defs.map((d) => d + '\n'),
    ...aliases.map((a) => a + '\n'),
  ]
    .join('\n')
    .replace(/\n{3,}$/, '\n');
}

/** The CLIs' usage text (clients/cli-usage.txt) as a constant of each package. */
function usageModules(): Record<string, string> {
  const usage = readFileSync(join(__dirname, '..', 'cli-usage.txt'), 'utf8').replace(/\n+$/, '');
  const note = 'Generated by clients/scripts/generate-types.ts from clients/cli-usage.txt: edit that file.';
  return {
    'typescript/src/generated/usage.ts': `// ${note}\nexport const USAGE = ${JSON.stringify(usage)};\n`,
    'python/voz/_usage.py': `# ${note}\nUSAGE = ${JSON.stringify(usage)}\n`,
  };
}

/** Every generated file: path relative to clients/ → content. */
export function generate(docs: { narration: OpenApiDoc; documents: OpenApiDoc }): Record<string, string> {
  const out: Record<string, string> = usageModules();
  for (const service of ['narration', 'documents'] as const) {
    out[`typescript/src/generated/${service}.ts`] = typescriptModule(service, docs[service]);
    out[`python/voz/types_${service}.py`] = pythonModule(service, docs[service]);
  }
  return out;
}

async function main() {
  const [narration = 'http://127.0.0.1:3000', documents = 'http://127.0.0.1:3001'] = process.argv.slice(2);
  const get = async (base: string) => {
    const res = await fetch(`${base}/api?format=json`);
    if (!res.ok) throw new Error(`${base}/api?format=json answered ${res.status}`);
    return (await res.json()) as OpenApiDoc;
  };
  const files = generate({ narration: await get(narration), documents: await get(documents) });
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(__dirname, '..', rel), text);
  console.log(`wrote ${Object.keys(files).join(', ')}`);
}

if (require.main === module) void main();
