// GET /api's document: valid OpenAPI 3.1 (checked by an independent validator) listing every manifest route.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { narrationApiDocument } from '../../lambdas/narration/handlers/api';
import { renderHtml } from '../../lambdas/narration/api/openapi';
import { narrationManifest } from '../../lambdas/narration/routes';
import { tempDir } from '../helpers/env';

const doc = narrationApiDocument() as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};

test('the document validates with @seriousme/openapi-schema-validator (OpenAPI 3.1)', () => {
  const dir = tempDir('openapi-');
  try {
    const file = join(dir.path, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    // The validator is ESM with import.meta; its CLI runs it natively.
    const cli = join(
      __dirname,
      '..',
      '..',
      'node_modules',
      '@seriousme',
      'openapi-schema-validator',
      'bin',
      'validate-api-cli.js',
    );
    const out = JSON.parse(execFileSync(process.execPath, [cli, file], { encoding: 'utf8' })) as {
      valid: boolean;
    };
    expect(out).toEqual({ valid: true });
  } finally {
    dir.cleanup();
  }
});

test('every manifest route is described, with its method', () => {
  for (const route of narrationManifest.routes) {
    if (route.path === '$default') continue;
    expect(doc.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
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

test('the HTML page lists every path and states the decisions the contract leaves open', () => {
  const html = renderHtml(doc as unknown as Record<string, unknown>);
  for (const path of Object.keys(doc.paths)) expect(html).toContain(`<code>${path}</code>`);
  expect(html).toContain('fixed UTC windows');
  expect(html).toContain('Retry-After');
  expect(html).not.toMatch(/<script/i);
});
