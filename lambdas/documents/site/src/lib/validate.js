// Checks the playground's JSON as the person types: first that it parses (line and column of the first syntax
// error), then against the template's JSON Schema (draft 2020-12, from GET /templates) with @cfworker/json-schema,
// which interprets the schema instead of compiling it to code (the page's CSP forbids eval, so not ajv). Every
// problem becomes one Spanish message with the JSON path of the value it is about ($.items[0].cantidad).
// jsonc-parser (VS Code's JSON parser) gives the offset of a syntax error (V8's own messages often have none) and
// of the value a path names, so the page can take the cursor there.
import { Validator } from '@cfworker/json-schema';
import { findNodeAtLocation, parse, parseTree } from 'jsonc-parser';

/** `$.items[0].cantidad` for a path given as segments (API `loc`) or as a JSON Pointer ("#/items/0/cantidad"). */
export function jsonPath(segments) {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number' || /^\d+$/.test(String(s))) out += `[${s}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(String(s))}]`;
  }
  return out;
}

/** The segments of a JSON Pointer such as "#/items/0/cantidad" (RFC 6901 escapes undone). */
export function pointerSegments(pointer) {
  const p = String(pointer).replace(/^#/, '');
  if (p === '' || p === '/') return [];
  return p
    .slice(1)
    .split('/')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function schemaAt(root, pointer) {
  let node = root;
  for (const s of pointerSegments(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[s];
  }
  return node;
}

/** Line and column (1-based) of a character offset in `text`. */
export function lineColumn(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Spanish for jsonc-parser's ParseErrorCode values. */
const SYNTAX = {
  1: 'hay un símbolo que no se esperaba',
  2: 'se esperaba un número',
  3: 'se esperaba el nombre de un campo entre comillas dobles (¿sobra una coma antes?)',
  4: 'se esperaba un valor (¿sobra una coma antes?)',
  5: 'falta «:» después del nombre del campo',
  6: 'falta una coma o sobra una',
  7: 'falta cerrar una llave «}»',
  8: 'falta cerrar un corchete «]»',
  9: 'sobra texto después del final',
  10: 'los comentarios no se permiten en JSON',
  11: 'el texto termina antes de tiempo',
  12: 'falta cerrar un comentario',
  13: 'falta cerrar unas comillas',
  14: 'hay un carácter de escape no válido en un texto',
  15: 'hay un carácter de escape no válido en un texto',
  16: 'hay un carácter no válido',
};

/**
 * Parses JSON text (strict: no comments, no trailing commas). Returns `{ value }` or `{ error }`, the error a
 * Spanish message naming line and column, with the offset of the problem (to move the cursor there).
 */
export function parseJson(text) {
  if (text.trim() === '')
    return {
      error: { path: '$', message: 'Está vacío: escribe un objeto JSON, por ejemplo {}.', offset: 0 },
    };
  const errors = [];
  const value = parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length === 0) return { value };
  const first = errors[0];
  const { line, column } = lineColumn(text, first.offset);
  return {
    error: {
      path: '$',
      message: `El JSON no es válido en la línea ${line}, columna ${column}: ${SYNTAX[first.error] || 'error de sintaxis'}.`,
      offset: first.offset,
    },
  };
}

/** Where the value at `segments` starts in `text`, and its length (undefined when not found). */
export function locate(text, segments) {
  const root = parseTree(text);
  // Array indexes are numbers for jsonc-parser (a JSON Pointer gives them as digit strings).
  const path = segments.map((s) => (typeof s === 'string' && /^\d+$/.test(s) ? Number(s) : s));
  const node = root && findNodeAtLocation(root, path);
  if (!node) return undefined;
  // A property's value: select its key too, so the person sees which field it is.
  const prop = node.parent && node.parent.type === 'property' ? node.parent : node;
  return { offset: prop.offset, length: prop.length };
}

const TYPE_NAMES = {
  string: 'texto (entre comillas)',
  number: 'un número',
  integer: 'un número entero',
  boolean: 'true o false',
  object: 'un objeto { … }',
  array: 'una lista [ … ]',
  null: 'null',
};

const FORMAT_NAMES = {
  date: 'una fecha AAAA-MM-DD',
  'date-time': 'una fecha y hora AAAA-MM-DDThh:mm:ss',
  time: 'una hora hh:mm:ss',
  email: 'un correo electrónico',
  uri: 'una dirección web completa (https://…)',
  'uri-reference': 'una dirección web',
  uuid: 'un UUID',
};

const show = (v) => JSON.stringify(v);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const typeList = (t) => (Array.isArray(t) ? t : [t]).map((x) => TYPE_NAMES[x] || x);
const orList = (items) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} o ${items[items.length - 1]}`;

/** What a value matching one branch of anyOf/oneOf looks like, in words. */
function describeBranch(schema) {
  if (!schema || typeof schema !== 'object') return [];
  if (Array.isArray(schema.enum)) return schema.enum.map(show);
  if ('const' in schema) return [show(schema.const)];
  if (schema.type) return typeList(schema.type);
  return [];
}

/** Keywords that only say "something inside failed": the inner error is reported instead. */
const WRAPPERS = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  '$ref',
  '$recursiveRef',
  'allOf',
  'if',
  'then',
  'else',
]);

function message(error, schema, root) {
  const k = error.keyword;
  switch (k) {
    case 'type':
      return `debe ser ${orList(typeList(schema.type))}.`;
    case 'required': {
      const key = /"([^"]*)"/.exec(error.error);
      return `falta el campo obligatorio «${key ? key[1] : '?'}».`;
    }
    case 'minLength':
      return schema.minLength === 1
        ? 'no puede estar vacío.'
        : `debe tener al menos ${plural(schema.minLength, 'carácter', 'caracteres')}.`;
    case 'maxLength':
      return `debe tener como máximo ${plural(schema.maxLength, 'carácter', 'caracteres')}.`;
    case 'minimum':
      return schema.exclusiveMinimum === true
        ? `debe ser mayor que ${schema.minimum}.`
        : `debe ser mayor o igual que ${schema.minimum}.`;
    case 'maximum':
      return schema.exclusiveMaximum === true
        ? `debe ser menor que ${schema.maximum}.`
        : `debe ser menor o igual que ${schema.maximum}.`;
    case 'exclusiveMinimum':
      return `debe ser mayor que ${schema.exclusiveMinimum}.`;
    case 'exclusiveMaximum':
      return `debe ser menor que ${schema.exclusiveMaximum}.`;
    case 'multipleOf':
      return `debe ser múltiplo de ${schema.multipleOf}.`;
    case 'minItems':
      return `debe tener al menos ${plural(schema.minItems, 'elemento', 'elementos')}.`;
    case 'maxItems':
      return `debe tener como máximo ${plural(schema.maxItems, 'elemento', 'elementos')}.`;
    case 'uniqueItems':
      return 'no puede repetir elementos.';
    case 'minProperties':
      return `debe tener al menos ${plural(schema.minProperties, 'campo', 'campos')}.`;
    case 'maxProperties':
      return `debe tener como máximo ${plural(schema.maxProperties, 'campo', 'campos')}.`;
    case 'enum':
      return `debe ser uno de estos valores: ${schema.enum.map(show).join(', ')}.`;
    case 'const':
      return `debe ser ${show(schema.const)}.`;
    case 'pattern':
      return 'no tiene la forma esperada.';
    case 'format':
      return `debe ser ${FORMAT_NAMES[schema.format] || `del formato «${schema.format}»`}.`;
    case 'anyOf':
    case 'oneOf': {
      const branches = schemaAt(root, error.keywordLocation);
      const options = Array.isArray(branches) ? branches.flatMap(describeBranch) : [];
      if (k === 'oneOf' && /\((\d+) matches\)/.exec(error.error)?.[1] !== '0')
        return 'coincide con más de una de las formas permitidas; deja solo una.';
      return options.length
        ? `debe ser ${orList([...new Set(options)])}.`
        : 'no tiene ninguna de las formas permitidas.';
    }
    case 'not':
      return 'tiene un valor que no se permite aquí.';
    case 'false':
      return 'este campo no se permite aquí.';
    case 'additionalProperties': {
      const key = /"([^"]*)"/.exec(error.error);
      return `el campo «${key ? key[1] : '?'}» no se permite aquí.`;
    }
    default:
      return `no cumple la regla «${k}» del esquema.`;
  }
}

/**
 * A checker for one template's data: `check(text)` → `{ value, problems: [{path, message, hint}] }`, at most
 * `limit` problems (the total is `count`). `hint` is the field's own description from the schema, when it has one.
 */
export function makeChecker(schema) {
  const root = JSON.parse(JSON.stringify(schema));
  const validator = new Validator(JSON.parse(JSON.stringify(schema)), '2020-12', false);
  return function check(text, limit = 25) {
    const parsed = parseJson(text);
    if (parsed.error) return { problems: [parsed.error], count: 1 };
    const { errors } = validator.validate(parsed.value);
    const problems = [];
    let skipUnder = null;
    for (const e of errors) {
      if (skipUnder && e.keywordLocation.startsWith(skipUnder)) continue;
      skipUnder = null;
      if (WRAPPERS.has(e.keyword)) continue;
      if (e.keyword === 'additionalProperties' && /does not match/.test(e.error)) continue;
      if (e.keyword === 'anyOf' || e.keyword === 'oneOf') skipUnder = `${e.keywordLocation}/`;
      const where = e.keywordLocation.slice(0, e.keywordLocation.lastIndexOf('/'));
      const own = schemaAt(root, where) || {};
      const segments = pointerSegments(e.instanceLocation);
      const missing = e.keyword === 'required' ? /"([^"]*)"/.exec(e.error) : null;
      const described = missing ? (own.properties || {})[missing[1]] || {} : own;
      const hint = typeof described.description === 'string' ? described.description : undefined;
      const problem = { path: jsonPath(segments), segments, message: message(e, own, root), hint };
      if (!problems.some((p) => p.path === problem.path && p.message === problem.message))
        problems.push(problem);
    }
    return { value: parsed.value, problems: problems.slice(0, limit), count: problems.length };
  };
}
