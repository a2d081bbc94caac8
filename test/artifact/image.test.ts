// The documents container image, rebuilt without Docker from the same steps the Dockerfile RUNs
// (lambdas/documents/image/build.cjs): the esbuild bundles of the image handlers (entries = the template's
// HANDLER_ENTRIES build arg), the externals-only package.json and cut lockfile, installed here from the lockfile's
// exact versions (copied from this repository's node_modules, offline, with isolated-vm built for Node 22), templates
// and fonts at the image's paths, and the image's ENV. The render, templates, sample PDF and render-worker handlers
// then run from that folder under Node 22, as Lambda runs the image's CMDs: a factura PDF comes out (qpdf --check).
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { generateKey, hashKey } from '../../lambdas/shared/auth/keys';
import { dynamo, resetClients } from '../../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { resetConfig } from '../../lambdas/shared/config';
import { documentsManifest } from '../../lambdas/documents/routes';
import { httpApiEvent, sqsEvent } from './events';
import { artifactState, isolatedDir } from './global-setup';
import {
  answerOf,
  bodyBytes,
  bodyText,
  harness,
  header,
  type Harness,
  type MatchedFunction,
} from './harness';
import { isolatedVmForNode22 } from './isolated-vm';
import { lambdaEnvironment, LambdaProcess } from './lambda';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..', '..');
const BUILD = join(ROOT, 'lambdas', 'documents', 'image', 'build.cjs');
const DOCKERFILE = join(ROOT, 'lambdas', 'documents', 'Dockerfile');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const build = require(BUILD) as { EXTERNALS: string[]; RUNTIME_FILES: [string, string][] };

let h: Harness;
let work: string;
let taskRoot: string;
let imageEnv: Record<string, string>;
let scaleKey: string;

/** The ENV of the Dockerfile's final stage, /var/task (LAMBDA_TASK_ROOT) replaced by `taskRoot`. */
function dockerfileEnv(dockerfile: string, root: string): Record<string, string> {
  const text = dockerfile.replace(/\\\n/g, ' ');
  const final = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of final.split('\n').filter((l) => l.startsWith('ENV ')))
    for (const m of line.slice(4).matchAll(/(\w+)=("[^"]*"|\S+)/g))
      env[m[1]!] = m[2]!.replace(/^"|"$/g, '').replace(/\/var\/task/g, root);
  return env;
}

/** Installs the cut lockfile's packages into `dir`/node_modules from this repository's node_modules (offline). */
function installFromLockfile(dir: string): number {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const paths = Object.keys(lock.packages).filter(Boolean).sort();
  for (const path of paths) {
    const from = join(ROOT, path);
    const version = (JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { version: string })
      .version;
    if (version !== lock.packages[path]!.version)
      throw new Error(`${path}: node_modules has ${version}, the lockfile ${lock.packages[path]!.version}`);
    // Nested node_modules are packages of their own in the lockfile (copied when listed).
    cpSync(from, join(dir, path), {
      recursive: true,
      filter: (src) => !src.slice(from.length).includes('/node_modules'),
    });
  }
  return paths.length;
}

function node22(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): string {
  return execFileSync(artifactState().node22.bin, args, {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, ...opts.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

const imageFunction = (id: string): MatchedFunction => {
  const m = h.functions.find((f) => f.manifest.service === 'documents' && f.entry.id === id);
  if (!m || m.fn.packaging !== 'image') throw new Error(`documents/${id} is not an image function`);
  return m;
};

/** An image function started from the rebuilt folder: its CMD names the bundle, the template its environment. */
function startImageFunction(id: string): Promise<LambdaProcess> {
  const m = imageFunction(id);
  const file = m.fn.handler.replace(/\.handler$/, '.js');
  return LambdaProcess.start({
    node: h.state.node22.bin,
    modulePath: join(taskRoot, file),
    cwd: taskRoot,
    env: { ...imageEnv, ...lambdaEnvironment(m.fn, h.backends, taskRoot) },
    initTimeoutMs: 120_000,
  });
}

function qpdfCheck(pdf: Buffer, name: string): string {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const file = join(work, name);
  writeFileSync(file, pdf);
  execFileSync('qpdf', ['--check', file], { stdio: 'pipe' });
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

beforeAll(async () => {
  h = await harness();
  work = isolatedDir('artifact-image-');
  taskRoot = join(work, 'task');
  const deps = join(work, 'deps');
  const entries = imageFunction('Render').fn.buildArgs?.HANDLER_ENTRIES;
  expect(entries).toBeTruthy();
  // Builder stage: the Dockerfile's two RUNs of build.cjs.
  node22([BUILD, 'bundle', taskRoot, ...entries!.split(/\s+/)]);
  node22([BUILD, 'externals', deps]);
  // Runtime-deps stage: `npm ci` of the cut lockfile (here from node_modules, offline) and build.cjs check.
  installFromLockfile(deps);
  cpSync(isolatedVmForNode22(), join(deps, 'node_modules', 'isolated-vm', 'out', 'isolated_vm.node'));
  node22(['--no-node-snapshot', BUILD, 'check', deps]);
  // Runtime stage: node_modules, bundles, templates and fonts, the image's ENV.
  renameSync(join(deps, 'node_modules'), join(taskRoot, 'node_modules'));
  for (const [from, to] of build.RUNTIME_FILES)
    cpSync(join(ROOT, from), join(taskRoot, to), { recursive: true });
  imageEnv = dockerfileEnv(readFileSync(DOCKERFILE, 'utf8'), taskRoot);
  mkdirSync(join(work, 'pdf'), { recursive: true });

  Object.assign(process.env, h.state.env);
  resetConfig();
  resetClients();
  scaleKey = generateKey();
  await new DynamoKeyStore(dynamo(), h.state.env.KEYS_TABLE!).put({
    keyHash: hashKey(scaleKey),
    keyPrefix: scaleKey.slice(0, 10),
    plan: 'scale',
    status: 'active',
    email: 'image-scale@example.com',
    createdAt: new Date().toISOString(),
  });
}, 20 * 60_000); // includes waiting for the background synth (prepare.ts)

afterAll(() => {
  resetClients();
  h?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('one source for the image build', () => {
  const dockerfile = readFileSync(DOCKERFILE, 'utf8').replace(/\\\n/g, ' ');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  test('the Dockerfile RUNs build.cjs (bundle, externals, check) and npm ci of the cut lockfile', () => {
    expect(dockerfile).toMatch(
      /node lambdas\/documents\/image\/build\.cjs bundle \/build\/dist \$\{HANDLER_ENTRIES\}/,
    );
    expect(dockerfile).toMatch(/node lambdas\/documents\/image\/build\.cjs externals \/build\/externals/);
    expect(dockerfile).toMatch(/COPY --from=bundle \/build\/externals\/ \.\//);
    expect(dockerfile).toMatch(/npm ci --omit=dev[^\n]*&& node \/tmp\/build\.cjs check \/deps/);
    // No esbuild flag or external list of its own.
    expect(dockerfile).not.toMatch(/--external|--bundle|ARG EXTERNALS/);
  });

  test("the runtime stage copies exactly build.cjs's RUNTIME_FILES", () => {
    const copies = [...finalStage.matchAll(/^COPY (?!--from)(\S+) \.\/(\S+)$/gm)].map((m) => [m[1], m[2]]);
    expect(copies).toEqual(build.RUNTIME_FILES);
  });

  test('the rebuilt folder: bundles at their CMD paths, only the externals (and their dependencies) installed', () => {
    for (const m of h.functions.filter((f) => f.fn.packaging === 'image'))
      expect(existsSync(join(taskRoot, m.fn.handler.replace(/\.handler$/, '.js')))).toBe(true);
    const pkg = JSON.parse(readFileSync(join(work, 'deps', 'package.json'), 'utf8')) as {
      dependencies: object;
    };
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...build.EXTERNALS].sort());
    // Nothing the bundles should carry is installed (e.g. the AWS SDK, zod).
    const installed = readdirSync(join(taskRoot, 'node_modules'));
    expect(installed).not.toContain('zod');
    expect(installed).not.toContain('@aws-sdk');
  });
});

describe('image handlers run from the rebuilt folder under Node 22', () => {
  // Every image route of the manifest is run from the rebuilt folder by a test of this block (zip-functions.test.ts
  // runs only the zip routes): a new image route fails here until it has one.
  const TESTED_HERE = ['Templates', 'Render', 'TemplateSample', 'TemplateSource', 'ApiDocs', 'ApiAsset'];
  test('each image route of the manifest has a test here', () => {
    const imageRoutes = documentsManifest.routes.filter((r) => r.packaging === 'image').map((r) => r.id);
    expect([...imageRoutes].sort()).toEqual([...TESTED_HERE].sort());
  });

  test('GET /templates/factura/source answers the Jinja2 source', async () => {
    const fn = await startImageFunction('TemplateSource');
    try {
      const a = answerOf(
        await fn.invoke(
          httpApiEvent('GET /templates/{slug}/source', {
            method: 'GET',
            path: '/templates/factura/source',
          }),
          30_000,
        ),
        fn.logs(),
      );
      expect(a.statusCode).toBe(200);
      expect(header(a, 'content-type')).toMatch(/^text\/plain/);
      expect(bodyText(a)).toBe(readFileSync(join(ROOT, 'templates', 'factura', 'template.html.j2'), 'utf8'));
    } finally {
      await fn.stop();
    }
  });

  test('GET /api answers the reference page and its OpenAPI JSON; GET /api/assets/{file} its script', async () => {
    const docs = await startImageFunction('ApiDocs');
    const assets = await startImageFunction('ApiAsset');
    try {
      const page = answerOf(
        await docs.invoke(httpApiEvent('GET /api', { method: 'GET', path: '/api' }), 30_000),
        docs.logs(),
      );
      expect(page.statusCode).toBe(200);
      expect(bodyText(page)).toContain('/api/assets/swagger-ui-bundle.js');
      const spec = answerOf(
        await docs.invoke(
          httpApiEvent('GET /api', { method: 'GET', path: '/api', query: { format: 'json' } }),
          30_000,
        ),
        docs.logs(),
      );
      expect(spec.statusCode).toBe(200);
      const openapi = JSON.parse(bodyText(spec)) as { openapi: string; paths: Record<string, unknown> };
      expect(openapi.openapi).toMatch(/^3\.1/);
      expect(Object.keys(openapi.paths)).toContain('/v1/render');
      const script = answerOf(
        await assets.invoke(
          httpApiEvent('GET /api/assets/{file}', { method: 'GET', path: '/api/assets/swagger-ui-bundle.js' }),
          30_000,
        ),
        assets.logs(),
      );
      expect(script.statusCode).toBe(200);
      expect(header(script, 'content-type')).toMatch(/javascript/);
      expect(bodyText(script).length).toBeGreaterThan(100_000);
    } finally {
      await Promise.all([docs.stop(), assets.stop()]);
    }
  });

  test('GET /templates lists the factura', async () => {
    const fn = await startImageFunction('Templates');
    try {
      const a = answerOf(
        await fn.invoke(httpApiEvent('GET /templates', { method: 'GET', path: '/templates' }), 30_000),
        fn.logs(),
      );
      expect(a.statusCode).toBe(200);
      expect(bodyText(a)).toContain('factura');
    } finally {
      await fn.stop();
    }
  });

  test('POST /v1/render renders the factura sample to a PDF (qpdf --check, pdftotext)', async () => {
    const sample = JSON.parse(
      readFileSync(join(ROOT, 'templates', 'factura', 'sample.json'), 'utf8'),
    ) as unknown;
    const fn = await startImageFunction('Render');
    try {
      const event = httpApiEvent('POST /v1/render', {
        method: 'POST',
        path: '/v1/render',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ template: 'factura', format: 'pdf', data: sample }),
      });
      const a = answerOf(await fn.invoke(event, 60_000), fn.logs());
      expect({ status: a.statusCode, body: a.statusCode === 200 ? '' : bodyText(a) }).toEqual({
        status: 200,
        body: '',
      });
      expect(header(a, 'content-type')).toMatch(/^application\/pdf/);
      expect(qpdfCheck(bodyBytes(a), 'factura.pdf')).toMatch(/Total/);
    } finally {
      await fn.stop();
    }
  });

  test('GET /templates/factura/sample.pdf answers a PDF', async () => {
    const fn = await startImageFunction('TemplateSample');
    try {
      const event = httpApiEvent('GET /templates/{slug}/sample.pdf', {
        method: 'GET',
        path: '/templates/factura/sample.pdf',
      });
      let a = answerOf(await fn.invoke(event, 60_000), fn.logs());
      let pdf: Buffer;
      if (a.statusCode === 302) {
        pdf = Buffer.from(await (await fetch(header(a, 'location')!)).arrayBuffer());
      } else {
        expect(a.statusCode).toBe(200);
        pdf = bodyBytes(a);
      }
      qpdfCheck(pdf, 'sample.pdf');
      // Second call: the cached sample.
      a = answerOf(await fn.invoke(event, 60_000), fn.logs());
      expect([200, 302]).toContain(a.statusCode);
    } finally {
      await fn.stop();
    }
  });

  test('the render worker renders a real async job (Scale key → render queue → worker → GET /v1/jobs/{id} → PDF)', async () => {
    const sample = JSON.parse(
      readFileSync(join(ROOT, 'templates', 'factura', 'sample.json'), 'utf8'),
    ) as unknown;
    const sqs = new SQSClient({
      endpoint: h.state.env.AWS_ENDPOINT_URL_SQS,
      region: h.state.env.AWS_REGION,
      credentials: {
        accessKeyId: h.state.env.AWS_ACCESS_KEY_ID!,
        secretAccessKey: h.state.env.AWS_SECRET_ACCESS_KEY!,
      },
    });
    const render = await startImageFunction('Render');
    const worker = await startImageFunction('RenderWorker');
    const getJobFn = h.functions.find((f) => f.manifest.service === 'documents' && f.entry.id === 'GetJob')!;
    const bundleDir = join(h.state.runDir, getJobFn.fn.assetPath);
    const getJob = await LambdaProcess.start({
      node: h.state.node22.bin,
      modulePath: join(bundleDir, 'index.js'),
      cwd: bundleDir,
      env: lambdaEnvironment(getJobFn.fn, h.backends, bundleDir),
    });
    try {
      const accepted = answerOf(
        await render.invoke(
          httpApiEvent('POST /v1/render', {
            method: 'POST',
            path: '/v1/render',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${scaleKey}` },
            body: JSON.stringify({
              template: 'factura',
              format: 'pdf',
              data: sample,
              options: { async: true },
            }),
          }),
          60_000,
        ),
        render.logs(),
      );
      expect({ status: accepted.statusCode, body: bodyText(accepted).slice(0, 300) }).toMatchObject({
        status: 202,
      });
      const job = JSON.parse(bodyText(accepted)) as Record<string, string>;
      const jobId = (job.job_id ?? job.id)!;
      expect(jobId).toMatch(/^job_/);
      const queueUrl = h.state.env.DOCUMENTS_RENDER_QUEUE_URL!;
      let message: { MessageId?: string; ReceiptHandle?: string; Body?: string } | undefined;
      for (let i = 0; i < 20 && !message; i++) {
        const got = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
        );
        message = got.Messages?.find((msg) => msg.Body?.includes(jobId));
      }
      expect(message).toBeDefined();
      const done = answerOf(
        await worker.invoke(
          sqsEvent('arn:aws:sqs:us-east-1:000000000000:art-render', [
            { messageId: message!.MessageId, receiptHandle: message!.ReceiptHandle, body: message!.Body! },
          ]),
          120_000,
        ),
        worker.logs(),
      );
      expect(done).toEqual({ batchItemFailures: [] });
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message!.ReceiptHandle }));
      const view = answerOf(
        await getJob.invoke(
          httpApiEvent('GET /v1/jobs/{id}', {
            method: 'GET',
            path: `/v1/jobs/${jobId}`,
            headers: { authorization: `Bearer ${scaleKey}` },
          }),
          10_000,
        ),
        getJob.logs(),
      );
      expect(view.statusCode).toBe(200);
      const body = JSON.parse(bodyText(view)) as { status: string; download_url: string };
      expect(body.status).toBe('done');
      expect(new URL(body.download_url).hostname).toBe('127.0.0.1');
      qpdfCheck(Buffer.from(await (await fetch(body.download_url)).arrayBuffer()), 'job.pdf');
    } finally {
      sqs.destroy();
      await Promise.all([render.stop(), worker.stop(), getJob.stop()]);
    }
  });
});
