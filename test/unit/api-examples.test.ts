// GET /api's request examples, both services: every operation with a body carries a real example (what "Probar"
// opens with, instead of Swagger's schema filler such as `"voice": "string"` or `additionalProp1`), and each example
// is accepted by the route's own documented schema.
import { documentsManifest } from '../../lambdas/documents/routes';
import { narrationManifest } from '../../lambdas/narration/routes';
import { buildOpenApi } from '../../lambdas/shared/http/openapi';
import type { ServiceManifest } from '../../lambdas/shared/manifest';

const services: [string, ServiceManifest][] = [
  ['narration', narrationManifest],
  ['documents', documentsManifest],
];

const withBody = services.flatMap(([service, m]) =>
  m.routes.filter((r) => r.docs?.body).map((r) => [`${service} ${r.method} ${r.path}`, r] as const),
);

test('both services have operations with bodies', () => {
  expect(withBody.length).toBeGreaterThanOrEqual(10);
});

test.each(withBody)('%s: its example is accepted by its schema', async (_name, route) => {
  const body = route.docs!.body!;
  const schema = body.schema;
  const example = typeof body.example === 'function' ? await body.example() : body.example;
  // A multipart body's example is its fields; the file is the one the caller picks.
  const sent = body.contentTypes[0] === 'multipart/form-data' ? { ...example, file: '%PDF-1.7' } : example;
  const parsed = schema.safeParse(sent);
  expect(parsed.error?.issues ?? []).toEqual([]);
});

describe.each(services)('%s OpenAPI document', (_service, manifest) => {
  test('every request body opens with its example, and no example is schema filler', async () => {
    const doc = (await buildOpenApi(manifest, { title: 't', version: '1', description: '' })) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>
      >;
    };
    const bodies = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).flatMap((op) => (op.requestBody ? [op.requestBody] : [])),
    );
    expect(bodies.length).toBeGreaterThan(0);
    for (const b of bodies) {
      const first = Object.values(b.content)[0]!;
      expect(first.example).toEqual(expect.any(Object));
      expect(JSON.stringify(first.example)).not.toMatch(/"string"|additionalProp|"example"/);
    }
  });
});
