// fast-check generators of hostile HTTP requests. Everything is derived from data: a route's manifest entry (method,
// path template, body limit), its request schema (JSON Schema, from GET /api for narration and GET /templates for
// documents) and a few facts of the running world (voices, a paid key, template slugs). A route added to a
// manifest is fuzzed without touching this file; a documented body schema makes its bodies near-valid.
//
// Per request the generator picks: a method (mostly the route's), a path (parameters from known values or hostile
// segments, broken percent-encoding), a query, headers (content-type variants, charsets, Authorization junk, latin1
// bytes, overlong values), and a body (valid by schema, mutated, random JSON, deep nesting, prototype-pollution
// keys, huge strings, NUL bytes, invalid UTF-8, UTF-16, truncated, multipart, oversize) — all bounded in size.
import fc from 'fast-check';
import type { RouteSpec } from '../../lambdas/shared/manifest';

export type JsonSchema = Record<string, unknown>;

/** What a route's bodies and parameters look like, when documented. */
export interface RouteShape {
  /** Request body schema (JSON Schema). */
  body?: JsonSchema;
  /** Content types the body is documented for. */
  contentTypes?: string[];
  /** Documented query parameter names. */
  query?: string[];
  /** Whole valid bodies (documents: a template's sample request, caller HTML). */
  seeds?: fc.Arbitrary<unknown>;
}

/** Facts of the running services the generators draw from. */
export interface World {
  /** Known-good values by parameter or field name: voice, slug, plan, experiment, audio_id, url, … */
  known: Record<string, string[]>;
  /** Authorization values that are valid (a paid key). */
  validAuthorization: string[];
  /** Valid values of other credential headers (a dashboard token). */
  validHeaders: Record<string, string[]>;
  /** Signs a webhook payload (Stripe-Signature). */
  sign?: (payload: string) => string;
  /** Small files for multipart bodies (valid and broken PDFs). */
  files: Buffer[];
  /** A loopback URL that counts connections: hostile HTML points there, never outside. */
  sentinelUrl: string;
}

export interface GenRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  chunked: boolean;
  /** How the body was made (for failure messages). */
  kind: string;
}

const MiB = 1024 * 1024;

// ---- leaves ------------------------------------------------------------------------------------------------

export const SPECIAL_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n\r ',
  '\u0000',
  'a\u0000b',
  '\u202e\u2066abc',
  '\ufeff',
  '\u200b\u200d',
  '\u2028\u2029',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '-0',
  '9007199254740993',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '{{7*7}}',
  '${7*7}',
  '{% raw %}',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%ff%fe',
  '\\',
  '"',
  "'",
  '\r\n\r\nHTTP/1.1 200 OK',
  'ñandú ÁÉÍÓÚ ü ¿¡',
  '👩‍👩‍👧‍👦🇲🇽',
  `e${'\u0301'.repeat(60)}`,
  '١٢٣٤',
  '１２３',
  'İıßẞ',
  '\ud800',
  '\udfff',
  'ｅｓ－ＭＸ－Ｍｉａ',
  'es-mx-mia',
  ' es-MX-Mia ',
  'MP3',
  'mp3\u0000',
  'file:///etc/passwd',
  'key_',
  'Bearer',
  '1.234.567,89 €',
  '$-0.00',
  '31/02/2024',
  '25:61 h',
];

const loneSurrogates = fc.string({
  unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 4,
});

const controlChars = fc.string({
  unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 8,
});

/** 1,000 to `max` characters of a repeated unit: cheap to make, large to handle. */
export function hugeString(max = 70_000): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(
        'a',
        'ñ',
        '😀',
        ' ',
        '\u0000',
        'palabra ',
        '1.234,56 € ',
        'Sr. ',
        '\n\n',
        '<b>',
        '{{x}}',
      ),
      fc.integer({ min: 1000, max }),
    )
    .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));
}

const SPANISH_WORDS = (
  'el la los las un una de del y o que en por para con sin sobre entre hasta desde hola casa perro ciudad ' +
  'México España niño año pingüino acción Sr. Dra. pág. etc. EE.UU. aprox. núm. 1.º 2.ª 1.er XIV siglo'
).split(' ');

const SPANISH_TOKENS = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SPANISH_WORDS) },
  { weight: 2, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000_000 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '$1,234.50',
      '1.234,56 €',
      '15 %',
      '03/04/2024',
      '10:30 h',
      '+52 55 1234 5678',
      'https://ejemplo.mx/a?b=1',
      'correo@ejemplo.es',
      'GODE561231GR8',
      '3,5 km',
      '½',
      '1er',
      '—',
      '¿Qué?',
      '¡Ay!',
      '…',
      '«cita»',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
);

/** Spanish-looking text with numbers, dates, money and abbreviations: reaches the reading rules. */
export function spanishText(maxWords = 40): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(SPANISH_TOKENS, fc.constantFrom(' ', ' ', ' ', ', ', '. ', '\n', '\n\n', '? ')), {
      minLength: 1,
      maxLength: maxWords,
    })
    .map((parts) => parts.map(([w, s]) => w + s).join(''));
}

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: loneSurrogates },
  { weight: 1, arbitrary: controlChars },
  { weight: 1, arbitrary: hugeString(20_000) },
  { weight: 2, arbitrary: spanishText(20) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 0.1, 1e308, -1e308, 5e-324, 2 ** 53 + 2, -(2 ** 31), 2 ** 32, 1.5),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const KEY_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  '',
  ' ',
  'a'.repeat(300),
  'ñ',
  '\u0000',
  '$where',
  'polluted',
];

/** Random JSON with hostile leaves and keys, `keys` mixed in so fields of the route appear. */
export function hostileJson(keys: string[] = [], maxDepth = 4): fc.Arbitrary<unknown> {
  const key = fc.oneof(
    { weight: 3, arbitrary: keys.length ? fc.constantFrom(...keys) : fc.constantFrom(...KEY_NAMES) },
    { weight: 1, arbitrary: fc.constantFrom(...KEY_NAMES) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
  const { tree } = fc.letrec<{ tree: unknown; leaf: unknown }>((tie) => ({
    leaf: fc.oneof(
      hostileString,
      hostileNumber,
      fc.boolean(),
      fc.constant(null),
      fc.constant([]),
      fc.constant({}),
    ),
    tree: fc.oneof(
      { depthSize: 'small', maxDepth },
      tie('leaf'),
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(key, tie('tree'), { maxKeys: 5, noNullPrototype: true }),
    ),
  }));
  return tree;
}

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

// ---- bodies --------------------------------------------------------------------------------------------------

/** Deep nesting as raw JSON text (built as text: no recursion on our side). */
const deepJson = fc
  .tuple(fc.constantFrom('[', '{"a":', '{"text":', '{"data":'), fc.integer({ min: 64, max: 20_000 }))
  .map(([open, depth]) => {
    const close = open === '[' ? ']' : '}';
    return open.repeat(depth) + (open === '[' ? '' : '1') + close.repeat(depth);
  });

/** Lone surrogates have no UTF-8 form: percent-encoding writes U+FFFD for them, as browsers do. */
export function encode(s: string): string {
  return encodeURIComponent(
    s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );
}

function formEncode(value: unknown): string {
  if (!value || typeof value !== 'object') return String(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${encode(k)}=${encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`)
    .join('&');
}

function multipart(boundary: string, fields: Record<string, unknown>, file: Buffer | undefined): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'file') continue;
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
      ),
    );
  }
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="documento.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/** Byte-level damage: invalid UTF-8, BOMs, NULs, truncation, UTF-16. */
const byteDamage = fc.oneof(
  fc.constant((b: Buffer) => b),
  fc.nat().map((n) => (b: Buffer) => b.subarray(0, b.length ? n % b.length : 0)),
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom([0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0]),
    )
    .map(([n, bytes]) => (b: Buffer) => {
      const at = b.length ? n % b.length : 0;
      return Buffer.concat([b.subarray(0, at), Buffer.from(bytes), b.subarray(at)]);
    }),
  fc.constant((b: Buffer) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])),
  fc.constant((b: Buffer) => Buffer.from(b.toString('utf8'), 'utf16le')),
  fc.constant((b: Buffer) => Buffer.concat([b, Buffer.from('\u0000\u0000garbage}]')])),
);

interface BodyPlan {
  kind: string;
  bytes: Buffer;
  /** Content type that matches the encoding (the request may still send another). */
  type?: string;
}

function bodyPlans(route: RouteSpec, shape: RouteShape, world: World): fc.Arbitrary<BodyPlan> {
  const keys = Object.keys((shape.body?.properties as Record<string, unknown> | undefined) ?? {});
  const validValue: fc.Arbitrary<unknown> = fc.oneof(
    ...(shape.body ? [{ weight: 3, arbitrary: fromSchema(shape.body, world) }] : []),
    ...(shape.seeds ? [{ weight: 3, arbitrary: shape.seeds }] : []),
    { weight: 1, arbitrary: hostileJson(keys) },
  );
  const value = fc.oneof(
    { weight: 2, arbitrary: validValue },
    { weight: 4, arbitrary: fc.tuple(validValue, mutations(keys)).map(([v, m]) => mutate(v, m)) },
    { weight: 1, arbitrary: hostileJson(keys) },
  );
  const multipartWanted = shape.contentTypes?.includes('multipart/form-data');
  const limit = route.maxBodyBytes ?? 64 * 1024;
  const json = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null');
  const plans: { weight: number; arbitrary: fc.Arbitrary<BodyPlan> }[] = [
    {
      weight: 10,
      arbitrary: value.map((v) => ({ kind: 'json', bytes: json(v), type: 'application/json' })),
    },
    {
      weight: 3,
      arbitrary: value.map((v) => ({
        kind: 'form',
        bytes: Buffer.from(formEncode(v)),
        type: 'application/x-www-form-urlencoded',
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(value, byteDamage)
        .map(([v, damage]) => ({ kind: 'json-damaged', bytes: damage(json(v)), type: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: deepJson.map((t) => ({
        kind: 'deep-json',
        bytes: Buffer.from(t),
        type: 'application/json',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(value, fc.constantFrom(...keys, 'x')).map(([v, k]) => ({
        // Duplicate keys and an own "__proto__" key only exist in JSON text.
        kind: 'json-proto',
        bytes: Buffer.from(
          `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"${k}":1,` +
            `"${k}":${JSON.stringify(v) ?? 'null'}}`,
        ),
        type: 'application/json',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 512 })
        .map((a) => ({ kind: 'random-bytes', bytes: Buffer.from(a), type: 'application/octet-stream' })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'empty', bytes: Buffer.alloc(0) }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 1024 }), fc.constantFrom('a', '{', '\u0000', 'ñ'))
        .map(([extra, unit]) => ({
          // Just over the route's limit; bounded so a 21 MiB route costs at most 2 MiB per case.
          kind: 'oversize',
          bytes: Buffer.from(unit.repeat(Math.min(limit, 2 * MiB) + extra)),
          type: 'application/json',
        })),
    },
  ];
  if (multipartWanted || route.method === 'POST') {
    plans.push({
      weight: multipartWanted ? 10 : 1,
      arbitrary: fc
        .record({
          fields: value,
          file: fc.option(
            fc.oneof(
              world.files.length
                ? fc.constantFrom(...world.files)
                : fc.constant(Buffer.from('%PDF-1.4\n%%EOF')),
              fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
              fc.constant(Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF')),
            ),
            { nil: undefined, freq: 4 },
          ),
          boundary: fc.oneof(
            fc.constant('----fuzzBoundary7MA4YWxkTrZu0gW'),
            fc.stringMatching(/^[A-Za-z0-9'()+_,.\/:=?-]{1,70}$/),
          ),
          damage: byteDamage,
          header: fc.constantFrom('ok', 'ok', 'ok', 'no-boundary', 'wrong-boundary', 'quoted'),
        })
        .map(({ fields, file, boundary, damage, header }) => {
          const f =
            fields && typeof fields === 'object' && !Array.isArray(fields) ? fields : { voice: fields };
          const type =
            header === 'no-boundary'
              ? 'multipart/form-data'
              : header === 'wrong-boundary'
                ? `multipart/form-data; boundary=${boundary}x`
                : header === 'quoted'
                  ? `multipart/form-data; boundary="${boundary}"`
                  : `multipart/form-data; boundary=${boundary}`;
          return {
            kind: `multipart(${header})`,
            bytes: damage(multipart(boundary, f as Record<string, unknown>, file)),
            type,
          };
        }),
    });
  }
  return fc.oneof(...plans);
}

// ---- headers, query, path, method ----------------------------------------------------------------------------

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json;charset=UTF-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'text/plain',
  'text/html; charset=utf-8',
  'application/xml',
  'application/octet-stream',
  'application/pdf',
  '*/*',
  'json',
  ';',
  'application/json; boundary=x; charset="utf-8"; q=0.5',
];

/** Header values Node will put on the wire: tab, printable ASCII and latin1 bytes (invalid UTF-8 on purpose). */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.integer({ min: 1000, max: 6000 }).map((n) => 'A'.repeat(n)),
  fc.constantFrom('', ' ', '\t', '\xf1', 'null', '0', '-1', '1e309'),
);

const HEADER_NAMES = [
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'cookie',
  'origin',
  'referer',
  'user-agent',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-real-ip',
  'x-request-id',
  'x-amzn-trace-id',
  'x-dashboard-token',
  'stripe-signature',
  'if-none-match',
  'range',
  'forwarded',
  'x-http-method-override',
  // Idempotency-Key (creating POSTs: lambdas/shared/idempotency): hostile values must give 422/400, never a 500.
  'idempotency-key',
];

const headerName = fc.oneof(
  fc.constantFrom(...HEADER_NAMES),
  fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,40}$/),
);

/** Headers the client must not send (the request would not be the one generated, or would wait forever). */
const RESERVED = new Set([
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'expect',
  'upgrade',
  'content-type',
  'authorization',
  'keep-alive',
  'te',
  'trailer',
  'proxy-connection',
]);

const authorization = (world: World) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    ...(world.validAuthorization.length
      ? [{ weight: 2, arbitrary: fc.constantFrom(...world.validAuthorization) }]
      : []),
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Bearer key_',
        `Bearer key_${'A'.repeat(43)}`,
        'bearer key_abc',
        'Basic dXNlcjpwYXNz',
        'Bearer a b c',
        'Token key_abc',
        'Bearer \xff\xfe',
        `Bearer ${'x'.repeat(7000)}`,
        'Bearer null',
        'Bearer undefined',
      ),
    },
    { weight: 1, arbitrary: headerValue.map((v) => `Bearer ${v}`) },
    { weight: 1, arbitrary: headerValue },
  );

function encodeQueryPart(s: string, mode: number): string {
  switch (mode % 4) {
    case 0:
      return encode(s);
    case 1:
      // raw characters, as far as a request line may carry them (printable ASCII but space and #)
      return [...s].map((c) => (/[\x21-\x7e]/.test(c) && c !== '#' ? c : '%20')).join('');
    case 2:
      return s.replace(/./gsu, (c) => (/[A-Za-z0-9]/.test(c) ? c : '%')) + '%zz';
    default:
      return `${encode(s.slice(0, 10))}%ff%c3%28%00`;
  }
}

const COMMON_QUERY = ['dry_run', 'format', 'email', 'ref', 'session_id', 'visitor', 'fmt', 'voice', 'token'];

function queryArb(shape: RouteShape, world: World): fc.Arbitrary<string> {
  const names = [...new Set([...(shape.query ?? []), ...COMMON_QUERY])];
  const pair = fc.tuple(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: hostileString }),
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom('true', 'false', '1', 'json', 'html', 'yes', '') },
      ...Object.values(world.known)
        .filter((v) => v.length)
        .map((v) => ({ weight: 1, arbitrary: fc.constantFrom(...v) })),
      { weight: 3, arbitrary: hostileString.map((s) => s.slice(0, 500)) },
    ),
    fc.nat(),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 5,
      arbitrary: fc
        .array(pair, { maxLength: 5 })
        // At most 3,000 characters: the request head must stay under Node's 16 KB limit with long headers.
        .map((pairs) =>
          pairs
            .map(([k, v, m]) => `${encodeQueryPart(k, m)}=${encodeQueryPart(v, m)}`)
            .join('&')
            .slice(0, 3000),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('&&&', '=', '=&=', 'a', '%', '?', 'a=1&a=2&a=3', '__proto__[x]=1'),
    },
  );
}

function segmentArb(name: string, world: World): fc.Arbitrary<string> {
  const known = world.known[name] ?? [];
  return fc.oneof(
    ...(known.length ? [{ weight: 4, arbitrary: fc.constantFrom(...known).map(encode) }] : []),
    {
      weight: 3,
      arbitrary: hostileString.filter((s) => s.length > 0).map((s) => encode(s.slice(0, 200))),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '..',
        '.',
        '%2e%2e',
        '%2F',
        'a%2Fb',
        '%',
        '%zz',
        '%ff%fe',
        '%c3%28',
        'a%00b',
        '%E2%80%AE',
        'x.mp3',
        'x.mp3.mp3',
        '.mp3',
        '%C3%B1',
        'a'.repeat(2000),
        '~',
        ';jsessionid=1',
        '*',
      ),
    },
  );
}

function pathArb(route: RouteSpec, world: World, allPaths: string[]): fc.Arbitrary<string> {
  if (route.path === '$default') {
    const real = allPaths.filter((p) => p !== '$default');
    return fc.oneof(
      fc.constantFrom(...real).map((p) => p.replace(/\{[^}]+\}/g, 'x')),
      fc.constantFrom(
        '/',
        '//',
        '/v1',
        '/v2/render',
        '/v1/render/',
        '/VOICES',
        '/convert',
        '/.env',
        '/%2e%2e/etc/passwd',
      ),
      fc
        .array(segmentArb('segment', world), { minLength: 1, maxLength: 4 })
        .map((segs) => '/' + segs.join('/')),
    );
  }
  const parts = route.path.split('/');
  return fc
    .tuple(
      fc.tuple(
        ...parts.map((p) => {
          const m = /^\{(.+?)\+?\}$/.exec(p);
          return m ? segmentArb(m[1]!, world) : fc.constant(p);
        }),
      ),
      fc.constantFrom('', '', '', '', '/', '//'),
    )
    .map(([segs, tail]) => segs.join('/') + tail);
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];

/** Every request of one route, hostile or near-valid. */
export function requestArb(
  route: RouteSpec,
  shape: RouteShape,
  world: World,
  allPaths: string[],
): fc.Arbitrary<GenRequest> {
  const method =
    route.method === 'ANY'
      ? fc.constantFrom(...METHODS)
      : fc.oneof(
          { weight: 8, arbitrary: fc.constant(route.method) },
          { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
        );
  return fc
    .record({
      method,
      path: pathArb(route, world, allPaths),
      query: queryArb(shape, world),
      body: fc.option(bodyPlans(route, shape, world), {
        nil: undefined,
        freq: route.method === 'POST' || route.method === 'ANY' ? 8 : 2,
      }),
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constant('match') },
        { weight: 1, arbitrary: fc.constant('none') },
        { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
      authorization: authorization(world),
      extra: fc.array(fc.tuple(headerName, headerValue), { maxLength: 5 }),
      credentials: fc.subarray(
        Object.entries(world.validHeaders).flatMap(([k, vs]) => vs.map((v) => [k, v] as const)),
      ),
      signature: fc.constantFrom('none', 'none', 'valid', 'junk'),
      chunked: fc.boolean(),
    })
    .map((r) => {
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of r.extra) {
        if (RESERVED.has(k)) continue;
        // Own keys only: a generated name may well be "constructor" or "__proto__".
        const prev = Object.hasOwn(headers, k) ? headers[k] : undefined;
        if (k === '__proto__') continue;
        headers[k] = prev === undefined ? v.trim() : ([] as string[]).concat(prev, v.trim());
      }
      for (const [k, v] of r.credentials) headers[k] = v;
      if (r.authorization !== undefined) headers['authorization'] = r.authorization;
      if (r.signature === 'valid' && world.sign && r.body)
        headers['stripe-signature'] = world.sign(r.body.bytes.toString('utf8'));
      else if (r.signature === 'junk') headers['stripe-signature'] = 't=1,v1=00,v0=zz';
      const type =
        r.contentType === 'match' ? r.body?.type : r.contentType === 'none' ? undefined : r.contentType;
      if (type !== undefined) headers['content-type'] = type;
      // The whole head stays under Node's 16 KB limit (with a 3,000-character query and a long path).
      let budget = 9000;
      for (const [k, v] of Object.entries(headers)) {
        const values = ([] as string[]).concat(v).map((x) => {
          const cut = x.slice(0, Math.max(0, budget - k.length - 4));
          budget -= k.length + 4 + cut.length;
          return cut;
        });
        headers[k] = Array.isArray(v) ? values : values[0]!;
      }
      return {
        method: r.method,
        // Path ≤ 4,000 + query ≤ 3,000 + headers ≤ 9,000: under Node's 16 KB request-head limit, so every request
        // reaches the front (a larger head is Node's 431, not ours; API Gateway caps heads lower still).
        path: r.path.slice(0, 4000),
        query: r.query,
        headers,
        body: r.body?.bytes,
        chunked: r.chunked && r.method !== 'GET' && r.method !== 'HEAD',
        kind: r.body ? r.body.kind : 'no-body',
      };
    });
}

/** Caller HTML for documents' custom_html: escapes, loops, includes, resource hogs; URLs only to the sentinel. */
export function customHtml(world: World): fc.Arbitrary<string> {
  const s = world.sentinelUrl;
  return fc.oneof(
    fc.constantFrom(
      '<h1>{{ titulo }}</h1><p>{{ cliente | upper }}</p>',
      '{% for i in range(3) %}<p>{{ i }}</p>{% endfor %}',
      '{% for i in range(100000000) %}{{ i }}{% endfor %}',
      "{{ range.constructor(\"return process.mainModule.require('child_process').execSync('id').toString()\")() }}",
      '{{ "".constructor.constructor("return this")() }}',
      '{% include "/etc/passwd" %}',
      '{% include "../../../../etc/passwd" %}',
      '{% include "base.html" %}',
      '{% extends "nope.html" %}',
      '{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}',
      '{% set x = [] %}{% for i in range(1000000) %}{% set _ = x.push(i) %}{% endfor %}{{ x | length }}',
      '{{',
      '{% if %}',
      '{{ data | tojson }}',
      '{{ x.y.z.w }}',
      `<img src="${s}img.png"><link rel="stylesheet" href="${s}a.css">`,
      `<style>@import url("${s}b.css"); body{background:url(${s}c.png)}</style>`,
      `<script>fetch("${s}x"); new WebSocket("${s.replace('http', 'ws')}w")</script>`,
      `<iframe src="${s}frame"></iframe><iframe src="file:///etc/passwd"></iframe>`,
      `<meta http-equiv="refresh" content="0;url=${s}r">`,
      '<script>while(true){}</script>',
      '<div style="width:100000px;height:100000px"></div>',
      '',
      ' ',
    ),
    hostileString,
  );
}
