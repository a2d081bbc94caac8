// Values from a JSON Schema (near-valid bodies) and the mutations that break them.
import fc from 'fast-check';
import { hostileJson, spanishText } from './leaves';
import type { JsonSchema, World } from './shapes';

// ---- values from a JSON Schema -----------------------------------------------------------------------------

/** Text values by field name, so valid bodies mean something (a voice id, an article URL, an e-mail). */
function hinted(name: string | undefined, world: World): fc.Arbitrary<string> | undefined {
  if (!name) return undefined;
  const known = world.known[name];
  if (known?.length) return fc.constantFrom(...known);
  return undefined;
}

function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part];
  return (node as JsonSchema | undefined) ?? {};
}

/** A value valid for `schema` (bounded: strings ≤ 300 characters, arrays ≤ 4 items). */
export function fromSchema(
  schema: JsonSchema,
  world: World,
  name?: string,
  root: JsonSchema = schema,
  depth = 0,
): fc.Arbitrary<unknown> {
  schema = resolveRef(schema, root);
  if (depth > 6) return fc.constant(null);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union) && union.length)
    return fc.oneof(...union.map((s) => fromSchema(s, world, name, root, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  const arbs: fc.Arbitrary<unknown>[] = [];
  for (const t of type) {
    switch (t) {
      case 'string': {
        const min = Number(schema.minLength ?? 0);
        const max = Math.max(min, Math.min(Number(schema.maxLength ?? 300), 300));
        const hint = hinted(name, world);
        if (hint) arbs.push(hint);
        else if (typeof schema.pattern === 'string')
          arbs.push(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= max));
        else if (schema.format === 'email') arbs.push(fc.emailAddress().filter((s) => s.length <= max));
        else if (schema.format === 'date')
          arbs.push(
            fc
              .date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
              .map((d) => d.toISOString().slice(0, 10)),
          );
        else
          arbs.push(
            spanishText(Math.max(1, Math.floor(max / 8)))
              .map((s) => [...s].slice(0, max).join(''))
              .filter((s) => [...s].length >= min && /[\p{L}\p{N}]/u.test(s)),
          );
        break;
      }
      case 'integer':
      case 'number': {
        const lo = Number(schema.minimum ?? schema.exclusiveMinimum ?? -1e6);
        const hi = Number(schema.maximum ?? schema.exclusiveMaximum ?? 1e6);
        const min = Math.max(lo, -1e9);
        const max = Math.min(hi, 1e9);
        const arb =
          t === 'integer'
            ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
            : fc
                .double({ min, max, noNaN: true, noDefaultInfinity: true })
                .map((x) => Math.round(x * 100) / 100);
        arbs.push(
          arb.filter(
            (x) =>
              (schema.exclusiveMinimum === undefined || x > Number(schema.exclusiveMinimum)) &&
              (schema.exclusiveMaximum === undefined || x < Number(schema.exclusiveMaximum)),
          ),
        );
        break;
      }
      case 'boolean':
        arbs.push(fc.boolean());
        break;
      case 'null':
        arbs.push(fc.constant(null));
        break;
      case 'array': {
        const items = (schema.items as JsonSchema | undefined) ?? {};
        const minItems = Number(schema.minItems ?? 0);
        arbs.push(
          fc.array(fromSchema(items, world, name, root, depth + 1), {
            minLength: minItems,
            maxLength: Math.max(minItems, Math.min(Number(schema.maxItems ?? 4), 4)),
          }),
        );
        break;
      }
      case 'object': {
        const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
        const required = new Set((schema.required as string[] | undefined) ?? []);
        const fields = Object.fromEntries(
          Object.entries(props).map(([k, s]) => {
            const v = fromSchema(s, world, k, root, depth + 1);
            return [k, required.has(k) ? v : fc.option(v, { nil: undefined, freq: 3 })];
          }),
        );
        arbs.push(
          fc.record(fields).map((r) => {
            const out: Record<string, unknown> = {};
            for (const [k, v] of Object.entries(r)) if (v !== undefined) out[k] = v;
            return out;
          }),
        );
        break;
      }
      default:
        break;
    }
  }
  if (arbs.length === 0) return hostileJson([], 2);
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

// ---- mutations -----------------------------------------------------------------------------------------------

export interface Mutation {
  op: 'replace' | 'delete' | 'wrap' | 'pollute' | 'duplicate';
  /** Picks the node (index modulo the number of nodes). */
  at: number;
  value: unknown;
}

function nodes(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => nodes(v, [...path, i], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) nodes(v, [...path, k], out);
  return out;
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Applies mutations to a copy of `value`; deterministic for the same inputs (fast-check replays them). */
export function mutate(value: unknown, mutations: Mutation[]): unknown {
  let root = clone(value);
  for (const m of mutations) {
    const all = nodes(root);
    const path = all[m.at % all.length]!;
    const parentPath = path.slice(0, -1);
    const last = path[path.length - 1];
    let parent: unknown = root;
    for (const p of parentPath) parent = (parent as Record<string | number, unknown>)[p];
    const set = (v: unknown) => {
      if (last === undefined) root = v;
      else (parent as Record<string | number, unknown>)[last] = v;
    };
    const current = last === undefined ? root : (parent as Record<string | number, unknown>)[last];
    switch (m.op) {
      case 'replace':
        // A copy: fast-check hands out shared instances (fc.constant({})), which must never be mutated.
        set(clone(m.value));
        break;
      case 'delete':
        if (last === undefined) root = undefined;
        else if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete (parent as Record<string, unknown>)[last];
        break;
      case 'wrap':
        set(m.value === null ? [current] : { value: current });
        break;
      case 'pollute':
        if (current && typeof current === 'object' && !Array.isArray(current))
          Object.defineProperty(current, '__proto__', {
            value: { polluted: 'yes', isAdmin: true },
            enumerable: true,
            configurable: true,
            writable: true,
          });
        else set({ constructor: { prototype: { polluted: 'yes' } } });
        break;
      case 'duplicate':
        if (Array.isArray(current)) set([...current, ...current, ...current]);
        else set(current);
        break;
    }
    root = clone(root);
  }
  return root;
}

export const mutations = (keys: string[]): fc.Arbitrary<Mutation[]> =>
  fc.array(
    fc.record({
      op: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'wrap', 'pollute', 'duplicate'),
      at: fc.nat(),
      value: hostileJson(keys, 2),
    }) as fc.Arbitrary<Mutation>,
    { minLength: 1, maxLength: 3 },
  );
