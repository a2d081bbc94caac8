// GET /api's document: valid OpenAPI 3.1 (checked by an independent validator) listing every manifest route.
import { narrationApiDocument } from '../../lambdas/narration/handlers/api';
import { narrationManifest } from '../../lambdas/narration/routes';
import { validateOpenApi } from '../helpers/openapi';

let doc: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
beforeAll(async () => {
  doc = (await narrationApiDocument()) as typeof doc;
});

test('the document validates with @seriousme/openapi-schema-validator (OpenAPI 3.1)', () => {
  expect(validateOpenApi(doc)).toEqual({ valid: true });
});

test('every manifest route is described, with its method, from the docs on its spec', () => {
  for (const route of narrationManifest.routes) {
    if (route.path === '$default') continue;
    expect(route.docs).toBeDefined();
    expect(doc.paths[route.path]?.[route.method.toLowerCase()]).toMatchObject({
      summary: route.docs!.summary,
    });
  }
});

test('request schemas carry the contract limits; 422 and 429 are documented on the convert endpoints', () => {
  const op = doc.paths['/convert/text']!.post as unknown as {
    requestBody: {
      content: Record<
        string,
        { schema: { properties: Record<string, Record<string, unknown>>; required: string[] } }
      >;
    };
    responses: Record<string, unknown>;
  };
  const schema = op.requestBody.content['application/json']!.schema;
  expect(schema.required).toEqual(['text']);
  expect(schema.properties.text).toMatchObject({ minLength: 1, maxLength: 100000 });
  expect(Object.keys(op.requestBody.content)).toContain('application/x-www-form-urlencoded');
  expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '202', '422', '429']));
});

test('the description states the decisions the contract leaves open', () => {
  const md = (doc as unknown as { info: { description: string } }).info.description;
  expect(md).toContain('fixed UTC windows');
  expect(md).toContain('Retry-After');
});
