// The import-direction check of `npm run lint` (.dependency-cruiser.cjs, docs/architecture.md "Layers") catches what
// it is there for: the real config and CLI run over a small tree in a temp dir, once clean and once with planted
// violations (an upward import from the platform, a cycle, @aws-sdk outside an adapter, production importing test/,
// impure core, one service importing another, an adapter importing a use case, a client package importing server code
// or an npm package), each backward import on documents' render path (request → pipeline → renderers), and a
// cycle between folders that no module cycle shows.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const repo = resolve(__dirname, '../..');
const cli = join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** Writes `files` into a fresh tree with the repo's cruiser config and runs the check; returns its violations. */
function cruise(files: Record<string, string>): Violation[] {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    copyFileSync(join(repo, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'es2022', strict: true } }),
    );
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    let out: string;
    try {
      out = execFileSync(
        process.execPath,
        [cli, 'lambdas', 'templates', 'test', 'clients', '--output-type', 'json'],
        {
          cwd: dir,
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
    } catch (err) {
      // The CLI exits non-zero when it finds violations; the report is still on stdout.
      out = (err as { stdout: string }).stdout;
    }
    return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A tree that follows every rule: platform ← service; handler → use case → core; adapter → @aws-sdk. */
const clean: Record<string, string> = {
  'lambdas/shared/http/errors.ts': 'export class HttpError extends Error {}\n',
  'lambdas/narration/core/text.ts': "export const words = (s: string) => s.split(' ');\n",
  'lambdas/narration/use-cases/narrate.ts':
    "import { words } from '../core/text';\nexport const narrate = (s: string) => words(s).length;\n",
  'lambdas/narration/adapters/store.ts':
    "import { S3Client } from '@aws-sdk/client-s3';\nexport const client = () => new S3Client({});\n",
  'lambdas/narration/handlers/convert.ts':
    "import { HttpError } from '../../shared/http/errors';\nimport { narrate } from '../use-cases/narrate';\n" +
    'export const handle = (s: string) => { if (!s) throw new HttpError(); return narrate(s); };\n',
  'templates/kit/money.ts':
    "import { HttpError } from '../../lambdas/shared/http/errors';\nexport { HttpError };\n",
  'test/unit/narrate.test.ts':
    "import { narrate } from '../../lambdas/narration/use-cases/narrate';\nnarrate('a');\n",
  // POST /v1/render in one direction: request (schema) ← pipeline ← use case ← handler, the route spec documenting
  // the request's schema; the renderers and post-processing below them all.
  'lambdas/documents/request/schema.ts': 'export const schema = { format: "pdf" };\n',
  'lambdas/documents/handlers/render.route.ts':
    "import { schema } from '../request/schema';\nexport const route = { schema };\n",
  'lambdas/documents/request/validate.ts':
    "import { schema } from './schema';\nexport const parse = (b: unknown) => (b ? schema : null);\n",
  'lambdas/documents/render/post-process.ts': 'export const post = (pdf: string) => pdf;\n',
  'lambdas/documents/formats/html.ts': 'export const html = (s: string) => s;\n',
  'lambdas/documents/pipeline/view.ts':
    "import { parse } from '../request/validate';\nimport { html } from '../formats/html';\n" +
    'export const view = (b: unknown) => html(String(parse(b)));\n',
  'lambdas/documents/use-cases/render-request.ts':
    "import { view } from '../pipeline/view';\nimport { post } from '../render/post-process';\n" +
    'export const render = (b: unknown) => post(view(b));\n',
  'lambdas/documents/handlers/render.ts':
    "import { render } from '../use-cases/render-request';\nexport const handle = (b: unknown) => render(b);\n",
  // A client package: HTTP and node: built-ins only.
  'clients/typescript/src/http.ts':
    "import { randomUUID } from 'node:crypto';\nexport const key = () => randomUUID();\n",
};

const rulesOf = (violations: Violation[]) => [...new Set(violations.map((v) => v.rule.name))].sort();

describe('import layers (dependency-cruiser)', () => {
  jest.setTimeout(120_000);

  test('a tree that follows the layers passes', () => {
    expect(cruise(clean)).toEqual([]);
  });

  test('planted upward imports, a cycle, @aws-sdk outside adapters and test/ in production are each reported', () => {
    const violations = cruise({
      ...clean,
      // The platform reaching up into a service.
      'lambdas/shared/http/errors.ts':
        "import { words } from '../../narration/core/text';\nexport class HttpError extends Error {}\nexport { words };\n",
      // A cycle between two core modules.
      'lambdas/narration/core/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'lambdas/narration/core/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      // The SDK in a use case; a use case importing a handler.
      'lambdas/narration/use-cases/save.ts':
        "import { S3Client } from '@aws-sdk/client-s3';\nimport { handle } from '../handlers/convert';\n" +
        'export const save = () => [new S3Client({}), handle];\n',
      // Production code importing a test helper.
      'lambdas/documents/deps.ts':
        "import { fake } from '../../test/fakes/store';\nexport const deps = fake;\n",
      'test/fakes/store.ts': 'export const fake = {};\n',
      // Impure core: the file system.
      'lambdas/documents/core/read.ts':
        "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      // One service importing another; the template kit importing a service.
      'lambdas/documents/use-cases/x.ts':
        "import { narrate } from '../../narration/use-cases/narrate';\nexport { narrate };\n",
      'templates/kit/qr.ts': "import { deps } from '../../lambdas/documents/deps';\nexport { deps };\n",
      // An adapter taking its types from a use case (ports own their types).
      'lambdas/narration/adapters/audio.ts':
        "import type { narrate } from '../use-cases/narrate';\nexport type Narrate = typeof narrate;\n",
      // A client reusing server code, and pulling an npm package into the SDK.
      'clients/typescript/src/bad.ts':
        "import { HttpError } from '../../../lambdas/shared/http/errors';\n" +
        "import { S3Client } from '@aws-sdk/client-s3';\nexport const bad = [HttpError, S3Client];\n",
    });
    expect(rulesOf(violations)).toEqual([
      'aws-sdk-only-in-adapters',
      'clients-talk-http-only',
      'core-is-pure',
      'kit-imports-only-shared',
      'no-cycles',
      'no-folder-cycles', // use-cases ↔ handlers (the use case importing a handler)
      'platform-imports-no-service',
      'ports-import-no-use-case',
      'production-imports-no-test',
      'services-are-independent',
      'templates-import-no-service',
      'use-cases-below-handlers',
    ]);
    const find = (rule: string) => violations.filter((v) => v.rule.name === rule);
    expect(find('platform-imports-no-service')).toEqual([
      expect.objectContaining({
        from: 'lambdas/shared/http/errors.ts',
        to: 'lambdas/narration/core/text.ts',
      }),
    ]);
    const [cycle, ...more] = find('no-cycles');
    expect(more).toEqual([]);
    expect([cycle!.from, ...cycle!.cycle!.map((c) => c.name)].sort()).toEqual([
      'lambdas/narration/core/a.ts',
      'lambdas/narration/core/a.ts',
      'lambdas/narration/core/b.ts',
    ]);
    expect(find('aws-sdk-only-in-adapters').map((v) => v.from)).toEqual([
      'lambdas/narration/use-cases/save.ts',
    ]);
    expect(find('production-imports-no-test')).toEqual([
      expect.objectContaining({ from: 'lambdas/documents/deps.ts', to: 'test/fakes/store.ts' }),
    ]);
    expect(find('core-is-pure').map((v) => v.from)).toEqual(['lambdas/documents/core/read.ts']);
    expect(find('ports-import-no-use-case')).toEqual([
      expect.objectContaining({
        from: 'lambdas/narration/adapters/audio.ts',
        to: 'lambdas/narration/use-cases/narrate.ts',
      }),
    ]);
    expect(
      find('clients-talk-http-only').map((v) => [v.from, v.to.replace(/^.*node_modules\//, '')]),
    ).toEqual([
      ['clients/typescript/src/bad.ts', expect.stringMatching(/^@aws-sdk\/client-s3\//)],
      ['clients/typescript/src/bad.ts', 'lambdas/shared/http/errors.ts'],
    ]);
  });

  test('the render path runs one direction: each planted backward import is reported', () => {
    const violations = cruise({
      ...clean,
      // Post-processing reaching back into the request layer.
      'lambdas/documents/render/post-process.ts':
        "import { parse } from '../request/validate';\nexport const post = (pdf: string) => [pdf, parse];\n",
      // A pipeline stage importing a handler.
      'lambdas/documents/pipeline/formats.ts':
        "import { handle } from '../handlers/render';\nexport const formats = handle;\n",
      // The request layer importing a view stage.
      'lambdas/documents/request/checks.ts':
        "import { view } from '../pipeline/view';\nexport const checks = view;\n",
    });
    // Each backward import also closes a folder cycle (no-folder-cycles, tested below); the layer rules name it.
    expect(
      violations
        .filter((v) => v.rule.name !== 'no-folder-cycles')
        .map((v) => [v.rule.name, v.from, v.to])
        .sort((a, b) => a.join().localeCompare(b.join())),
    ).toEqual([
      [
        'render-pipeline-below-use-cases',
        'lambdas/documents/pipeline/formats.ts',
        'lambdas/documents/handlers/render.ts',
      ],
      [
        'render-stages-below-request',
        'lambdas/documents/render/post-process.ts',
        'lambdas/documents/request/validate.ts',
      ],
      ['request-before-view', 'lambdas/documents/request/checks.ts', 'lambdas/documents/pipeline/view.ts'],
    ]);
  });

  test('a folder cycle without a module cycle is reported', () => {
    const violations = cruise({
      ...clean,
      // Two platform folders leaning on each other, through four different modules (no module cycle).
      'lambdas/shared/text/words.ts':
        "import { limit } from '../quota/limits';\nexport const words = limit;\n",
      'lambdas/shared/quota/limits.ts': 'export const limit = 3;\n',
      'lambdas/shared/quota/count.ts': "import { Word } from '../text/word';\nexport const count = Word;\n",
      'lambdas/shared/text/word.ts': 'export class Word {}\n',
    });
    expect(rulesOf(violations)).toEqual(['no-folder-cycles']);
    expect(violations.map((v) => [v.from, ...v.cycle!.map((c) => c.name)].join(' → ')).sort()).toEqual([
      'lambdas/shared/quota → lambdas/shared/text → lambdas/shared/quota',
      'lambdas/shared/text → lambdas/shared/quota → lambdas/shared/text',
    ]);
  });
});
