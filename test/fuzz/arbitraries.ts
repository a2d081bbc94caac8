// fast-check generators of hostile HTTP requests. Everything is derived from data: a route's manifest entry (method,
// path template, body limit), its request schema (JSON Schema, from GET /api for narration and GET /templates for
// documents) and a few facts of the running world (voices, a paid key, template slugs). A route added to a
// manifest is fuzzed without touching this file; a documented body schema makes its bodies near-valid.
//
// Per request the generator picks: a method (mostly the route's), a path (parameters from known values or hostile
// segments, broken percent-encoding), a query, headers (content-type variants, charsets, Authorization junk, latin1
// bytes, overlong values), and a body (valid by schema, mutated, random JSON, deep nesting, prototype-pollution
// keys, huge strings, NUL bytes, invalid UTF-8, UTF-16, truncated, multipart, oversize) — all bounded in size.
// The pieces: ./shapes.ts (types), ./leaves.ts (hostile strings and JSON), ./values.ts (from JSON Schema, mutated),
// ./bodies.ts (bodies); here the headers, query, path and method, and the request itself.
import fc from 'fast-check';
import type { RouteSpec } from '../../lambdas/shared/manifest';
import { bodyPlans, encode } from './bodies';
import { hostileString } from './leaves';
import type { GenRequest, RouteShape, World } from './shapes';

export type { GenRequest, JsonSchema, RouteShape, World } from './shapes';
export { spanishText } from './leaves';

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
