// In-process renderer for the BUILT-IN templates only (our own sources; callers supply only data, which is
// autoescaped). It evaluates exactly the same scripts as the sandbox (nunjucks bundle, decimal.js, Jinja2
// bootstrap) in one node:vm context that lives for the process, so built-in templates see the same filters and
// semantics as callers' templates, and their compiled form is cached across renders.
// node:vm is NOT a security boundary; it is used here for a separate global object (the bootstrap installs
// Jinja2 compatibility patches that must not touch the host's nunjucks or prototypes). Never pass caller
// templates here: they go to TemplateSandbox.
import vm from 'node:vm';
import { TemplateError } from '../errors';
import { realmScripts, type RealmInput, type RealmResult } from './realm-sources';

interface Realm {
  __njRender(inputJson: string): string;
  __njPrecompile(name: string, source: string): string;
}

let context: (vm.Context & Realm) | undefined;

function realm(): Realm {
  if (!context) {
    const c = vm.createContext({});
    for (const s of realmScripts()) new vm.Script(s.source, { filename: s.name }).runInContext(c);
    context = c as vm.Context & Realm;
  }
  return context;
}

const precompiled = new Map<string, string>();
/** Cache keys the realm has compiled (it keeps the compiled template and the partials' environment). */
const compiledKeys = new Set<string>();

/**
 * Our own partials compiled to JavaScript, for the sandbox to evaluate instead of compiling them in every fresh
 * context. Only built-in sources come here (never a caller's), so the code is ours.
 */
export function precompilePartials(partials: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, source] of Object.entries(partials)) {
    const key = `${name}\0${source}`;
    let code = precompiled.get(key);
    if (code === undefined) {
      code = realm().__njPrecompile(name, source);
      precompiled.set(key, code);
    }
    out[name] = code;
  }
  return out;
}

/**
 * Renders a built-in template. `cacheKey` identifies the template source (e.g. `factura@<hash>`); the compiled
 * template is reused while the key is the same. Errors here are our bugs: callers get a 500, not a 400.
 */
export function renderTrusted(
  source: string,
  data: unknown,
  partials: Record<string, string>,
  cacheKey?: string,
): string {
  // Once compiled under its key, the realm renders from its cache: the source and partials need not cross again.
  const known = cacheKey !== undefined && compiledKeys.has(cacheKey);
  const input: RealmInput = known
    ? { source: '', data, partials: {}, name: cacheKey, cacheKey }
    : { source, data, partials, name: cacheKey ?? 'built-in', cacheKey };
  const result = JSON.parse(realm().__njRender(JSON.stringify(input))) as RealmResult;
  if (cacheKey !== undefined && (result.ok || result.kind !== 'syntax')) compiledKeys.add(cacheKey);
  if (result.ok) return result.html;
  const err = new TemplateError(result.kind, result.message, result.line, result.column, ['template']);
  throw new Error(`built-in template ${cacheKey ?? ''} failed: ${err.problems[0]?.msg ?? result.message}`);
}
