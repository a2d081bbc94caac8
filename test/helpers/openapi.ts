// An OpenAPI document checked by an independent validator (@seriousme/openapi-schema-validator, OpenAPI 3.1), for
// both services' GET /api tests. The validator is ESM with import.meta; its CLI runs it natively on a temp file.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './env';

const CLI = join(
  __dirname,
  '..',
  '..',
  'node_modules',
  '@seriousme',
  'openapi-schema-validator',
  'bin',
  'validate-api-cli.js',
);

/** The validator's verdict on `doc`: `{ valid: true }`, or `valid: false` with its errors. */
export function validateOpenApi(doc: unknown): { valid: boolean; errors?: unknown } {
  const dir = tempDir('openapi-');
  try {
    const file = join(dir.path, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    return JSON.parse(execFileSync(process.execPath, [CLI, file], { encoding: 'utf8' })) as {
      valid: boolean;
      errors?: unknown;
    };
  } finally {
    dir.cleanup();
  }
}
