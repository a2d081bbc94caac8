// Request bodies: valid, mutated, random or damaged JSON, forms and multipart, each with its content type.
import fc from 'fast-check';
import type { RouteSpec } from '../../lambdas/shared/manifest';
import { hostileJson, MiB } from './leaves';
import type { RouteShape, World } from './shapes';
import { fromSchema, mutate, mutations } from './values';

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

export function bodyPlans(route: RouteSpec, shape: RouteShape, world: World): fc.Arbitrary<BodyPlan> {
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
