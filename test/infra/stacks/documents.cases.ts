// What only the documents stack has (test/infra/stacks.test.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JOB_REQUESTS_PREFIX, JOB_RESULT_PREFIX, RESULTS_PREFIX } from '../../../lambdas/documents/bucket';
import { documentsManifest } from '../../../lambdas/documents/routes';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../../lambdas/shared/webhooks/schedule';
import { REALM_SCRIPT_FILES } from '../../../lambdas/documents/templating/realm-sources';
import { BRAND_ITEM_PREFIX, JOB_ITEM_PREFIX } from '../../../lambdas/documents/adapters/item-prefixes';
import { WEBHOOK_ITEM_PREFIX } from '../../../lambdas/shared/webhooks/item-prefix';
import { parseConfig } from '../../../lambdas/documents/config';
import type { TableId } from '../../../lambdas/shared/manifest';
import { IMAGE_MIN_TMP_MB, imageCommand } from '../../../lib/constructs/image-function';
import { ROOT, type Json, type Synth, entriesOf, listTs } from './synth';

export function documentsCases(s: () => Synth): void {
  const routes = documentsManifest.routes;
  const imageRoutes = routes.filter((r) => r.packaging === 'image');
  const workerOf = (id: string) => documentsManifest.workers.find((w) => w.id === id)!;
  const DOCKERFILE = 'lambdas/documents/Dockerfile';

  test('the contract paths, and $default (unknown paths) goes to NotFound', () => {
    for (const key of [
      'POST /v1/render',
      'GET /templates',
      'GET /templates/{slug}/sample.pdf',
      'GET /templates/{slug}/source',
      'GET /pricing',
      'GET /stats',
      '$default',
    ])
      s().template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
    expect(routes.find((r) => r.path === '$default')?.id).toBe('NotFound');
  });

  test.each(imageRoutes.map((r) => [r.id, r] as const))(
    'image route %s: container image, x86_64, own handler as CMD, /tmp ≥ 1 GB, --no-node-snapshot',
    (id, spec) => {
      const props = s().propsOf(id);
      expect(props).toMatchObject({
        PackageType: 'Image',
        Architectures: ['x86_64'],
        ImageConfig: { Command: [imageCommand(spec.handler)] },
      });
      expect(props.Runtime).toBeUndefined();
      expect(props.Handler).toBeUndefined();
      expect(props.EphemeralStorage.Size).toBeGreaterThanOrEqual(IMAGE_MIN_TMP_MB);
      expect(props.EphemeralStorage.Size).toBeGreaterThanOrEqual(1024);
      const nodeOptions = String(s().envOf(id).NODE_OPTIONS).split(/\s+/);
      expect(nodeOptions).toEqual(expect.arrayContaining(['--no-node-snapshot', '--enable-source-maps']));
      // The CMD names the bundle the Dockerfile writes for the handler (esbuild --outbase=. keeps the layout).
      expect(imageCommand(spec.handler)).toBe(`${spec.handler.replace(/\.ts$/, '')}.handler`);
      expect(fs.existsSync(path.join(ROOT, spec.handler))).toBe(true);
    },
  );

  describe('container image asset', () => {
    const dockerImages = (): Record<string, Json> => {
      const manifest = JSON.parse(
        fs.readFileSync(path.join(s().app.outdir, `${s().stack.artifactId}.assets.json`), 'utf8'),
      ) as { dockerImages: Record<string, Json> };
      return manifest.dockerImages;
    };
    const contextDir = (): string =>
      path.join(s().app.outdir, Object.values(dockerImages())[0]!.source.directory as string);
    const listFiles = (dir: string, prefix = ''): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const rel = path.posix.join(prefix, e.name);
        return e.isDirectory() ? listFiles(path.join(dir, e.name), rel) : [rel];
      });

    test('one image for every image route: same ImageUri, built for linux/amd64 from the Dockerfile', () => {
      const uris = new Set(imageRoutes.map((r) => JSON.stringify(s().propsOf(r.id).Code.ImageUri)));
      expect(uris.size).toBe(1);
      expect([...uris][0]).toContain(s().stack.image!.imageTag);
      const images = Object.values(dockerImages());
      expect(images).toHaveLength(1);
      expect(documentsManifest.dockerfile).toBe(DOCKERFILE);
      expect(images[0]!.source).toMatchObject({ dockerFile: DOCKERFILE, platform: 'linux/amd64' });
    });

    test('the build arg HANDLER_ENTRIES lists exactly the manifest image handlers', () => {
      const args = Object.values(dockerImages())[0]!.source.dockerBuildArgs as Record<string, string>;
      const imageHandlers = entriesOf(documentsManifest)
        .filter((r) => r.packaging === 'image')
        .map((r) => r.handler);
      expect(imageHandlers).toContain('lambdas/documents/handlers/render-worker.ts');
      expect(args.HANDLER_ENTRIES!.split(' ').sort()).toEqual(imageHandlers.sort());
    });

    test('the build context (fingerprinted and staged at synth) holds only what the Dockerfile copies', () => {
      const files = listFiles(contextDir());
      // Nothing of node_modules, cdk.out, .data, tests, docs or the narration service: hashing stays cheap and a
      // change there does not rebuild the image.
      expect(
        files.filter((f) => /^(node_modules|cdk\.out|\.data|test|docs|bench|bin|lib|\.git)\//.test(f)),
      ).toEqual([]);
      expect(files.filter((f) => f.includes('node_modules/') || f.startsWith('lambdas/narration/'))).toEqual(
        [],
      );
      expect(files.length).toBeLessThan(400);
      expect(files).toEqual(
        expect.arrayContaining([
          'package.json',
          'package-lock.json',
          'tsconfig.json',
          DOCKERFILE,
          ...imageRoutes.map((r) => r.handler),
          'templates/_partials/base.html.j2',
          'templates/factura/template.html.j2',
          'lambdas/documents/fonts/NotoSans-Regular.ttf',
          'lambdas/documents/fonts/OFL.txt',
        ]),
      );
    });
  });

  describe('Dockerfile (checked statically: Docker does not run here)', () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, DOCKERFILE), 'utf8').replace(/\\\n/g, ' ');
    const lines = dockerfile.split('\n').filter((l) => l.trim() && !l.trimStart().startsWith('#'));
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    // The build steps live in lambdas/documents/image/build.cjs, which the Dockerfile RUNs (and test/artifact runs).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const build = require('../../../lambdas/documents/image/build.cjs') as {
      EXTERNALS: string[];
      FILES_BESIDE_BUNDLES: string[];
      esbuildArgs(entries: string[], outDir: string): string[];
    };
    const externals = build.EXTERNALS;
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

    test('every stage: the Lambda Node.js 22 base image, x86_64', () => {
      const froms = lines.filter((l) => l.startsWith('FROM '));
      expect(froms.length).toBeGreaterThanOrEqual(2);
      for (const from of froms)
        expect(from).toMatch(/^FROM --platform=linux\/amd64 public\.ecr\.aws\/lambda\/nodejs:22\b/);
    });

    test('externals: installed at package-lock versions, and they cover every module read from node_modules at run time', () => {
      for (const name of ['@sparticuz/chromium', 'puppeteer-core', 'isolated-vm', 'nunjucks', 'decimal.js'])
        expect(externals).toContain(name);
      // Each is a production dependency, so the lockfile has the version the image installs.
      for (const name of externals) expect(Object.keys(pkg.dependencies)).toContain(name);
      // Files resolved with require.resolve at run time must come from node_modules, not the bundle.
      const sources = listTs(path.join(ROOT, 'lambdas')).map((f) => fs.readFileSync(f, 'utf8'));
      const resolved = sources.flatMap((src) =>
        [...src.matchAll(/require\.resolve\('((?:@[^/']+\/)?[^/']+)/g)].map((x) => x[1]!),
      );
      expect(resolved.length).toBeGreaterThan(0);
      for (const name of resolved) expect(externals).toContain(name);
      expect(build.esbuildArgs([], '/out')).toEqual(
        expect.arrayContaining(externals.map((p) => `--external:${p}`)),
      );
      expect(dockerfile).toMatch(/build\.cjs bundle \/build\/dist \$\{HANDLER_ENTRIES\}/);
      expect(dockerfile).toMatch(/build\.cjs externals \/build\/externals/);
      expect(dockerfile).toMatch(/npm ci --omit=dev/);
    });

    test('isolated-vm can be built (python3, make, g++) outside the final stage', () => {
      expect(dockerfile).toMatch(/dnf install -y python3 make gcc-c\+\+/);
      expect(finalStage).not.toMatch(/dnf install/);
    });

    test('run-time paths: templates and fonts copied where the environment points, --no-node-snapshot', () => {
      expect(finalStage).toMatch(/COPY templates \.\/templates/);
      expect(finalStage).toMatch(/COPY lambdas\/documents\/fonts \.\/fonts/);
      expect(finalStage).toMatch(/WORKDIR \$\{LAMBDA_TASK_ROOT\}/); // /var/task
      expect(finalStage).toMatch(/DOCUMENTS_TEMPLATES_DIR=\/var\/task\/templates/);
      expect(finalStage).toMatch(/DOCUMENTS_FONTS_DIR=\/var\/task\/fonts/);
      expect(finalStage).toMatch(/NODE_OPTIONS="[^"]*--no-node-snapshot/);
      expect(finalStage).toMatch(/AWS_LAMBDA_JS_RUNTIME=nodejs22\.x/);
      // The bundle keeps the repository layout, so each function's CMD (imageCommand) names a file the image has.
      expect(build.esbuildArgs([], '/build/dist')).toEqual(
        expect.arrayContaining(['--outbase=.', '--outdir=/build/dist']),
      );
      expect(finalStage).toMatch(/COPY --from=bundle \/build\/dist\/ \.\//);
      // What the code reads from those folders exists in the repository (and so in the build context).
      for (const slug of ['factura', 'ventas', 'balance', 'certificado', 'cotizacion', 'nomina'])
        expect(fs.existsSync(path.join(ROOT, 'templates', slug, 'template.html.j2'))).toBe(true);
      expect(fs.readdirSync(path.join(ROOT, 'lambdas/documents/fonts')).some((f) => f.endsWith('.ttf'))).toBe(
        true,
      );
      // The template realm's scripts are read from beside the running code (realm-sources.ts): beside each bundle.
      expect(build.FILES_BESIDE_BUNDLES).toEqual(
        REALM_SCRIPT_FILES.map((file) => `lambdas/documents/templating/${file}`),
      );
      for (const file of REALM_SCRIPT_FILES)
        expect(fs.existsSync(path.join(ROOT, 'lambdas/documents/templating', file))).toBe(true);
    });
  });

  test.each([['Pricing'], ['Templates'], ['TemplateSource'], ['NotFound']])(
    '%s has no DynamoDB or S3 access at all',
    (id) => {
      expect(
        s()
          .actionsOf(s().fnOf(id))
          .filter((a) => /^(dynamodb|s3|sqs|polly):/.test(a)),
      ).toEqual([]);
      expect(Object.keys(s().envOf(id)).filter((k) => /_TABLE$|_BUCKET$/.test(k))).toEqual([]);
    },
  );

  test('Render: quotas read-write, keys read-only (items, no index), growth read-write, bucket read-write', () => {
    const { stack, logicalId, fnOf, statementsOf, envOf } = s();
    const fn = fnOf('Render');
    const on = (tableId: TableId): string[] =>
      statementsOf(fn)
        .filter((st) => JSON.stringify(st.Resource).includes(logicalId(stack.tables[tableId]!)))
        .flatMap((st) => [st.Action].flat());
    expect(on('quotas')).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem']),
    );
    expect(on('keys').sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem']);
    // Only the keys CLI lists an account's keys (byEmail): no function may query an index it does not query.
    expect(JSON.stringify(statementsOf(fn))).not.toContain('/index/');
    expect(Object.keys(envOf('Render'))).toEqual(
      expect.arrayContaining(['QUOTAS_TABLE', 'KEYS_TABLE', 'GROWTH_TABLE', 'DOCUMENTS_BUCKET']),
    );
  });

  test('DocumentStats only reads the growth table', () => {
    const actions = s().actionsOf(s().fnOf('DocumentStats'));
    expect(actions).toContain('dynamodb:GetItem');
    expect(
      actions.filter((a) => a.startsWith('dynamodb:') && /Put|Update|Delete|BatchWrite/.test(a)),
    ).toEqual([]);
    expect(actions.filter((a) => a.startsWith('s3:'))).toEqual([]);
  });

  describe('async renders and webhooks: queues, workers, narrowed grants', () => {
    test('the manifest declares the render and deliveries queues', () => {
      const ids = ['assemble', 'batch', 'deliveries', 'render'];
      expect(documentsManifest.queues.map((q) => q.id).sort()).toEqual(ids);
      expect(Object.keys(s().stack.queues).sort()).toEqual(ids);
    });

    test('delivery attempts: the queue redelivers once per retry delay, plus the first try', () => {
      const deliveries = documentsManifest.queues.find((q) => q.id === 'deliveries')!;
      const schedule = parseConfig({}).WEBHOOK_RETRY_SCHEDULE_S;
      expect(schedule).toEqual([...DEFAULT_RETRY_SCHEDULE_S]);
      expect(deliveries.maxReceiveCount).toBe(schedule.length + 1);
      // Every delay fits SQS's 12-hour visibility ceiling.
      expect(Math.max(...schedule)).toBeLessThanOrEqual(12 * 3600);
    });

    test('the render worker runs the renderer image (Chromium); the delivery worker is a small zip', () => {
      expect(s().propsOf('RenderWorker')).toMatchObject({
        PackageType: 'Image',
        ImageConfig: { Command: [imageCommand(workerOf('RenderWorker').handler)] },
      });
      expect(s().propsOf('DeliveryWorker')).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
      });
    });

    test('who may send where: Render → render queue, RenderWorker → deliveries; nobody else sends', () => {
      const { stack, logicalId, fnOf, statementsOf, envOf } = s();
      const sendsTo = (id: string) =>
        statementsOf(fnOf(id))
          .filter((st) => [st.Action].flat().includes('sqs:SendMessage'))
          .map((st) => JSON.stringify(st.Resource));
      const arn = (q: string) => JSON.stringify({ 'Fn::GetAtt': [logicalId(stack.queues[q]!.queue), 'Arn'] });
      expect(sendsTo('Render')).toEqual([arn('render')]);
      expect(envOf('Render').DOCUMENTS_RENDER_QUEUE_URL).toBeDefined();
      expect(sendsTo('RenderWorker')).toEqual([arn('deliveries')]);
      expect(sendsTo('DeliveryWorker')).toEqual([]);
      // CFDI batches: StartBatch queues the split on the assembler's queue; the assembler's split queues the parts
      // and the assembly (a refused batch: its webhook event), its assembly the finished batch's event; the batch
      // worker queues parts and the late assembly (and forwards steps queued there before).
      expect(sendsTo('StartBatch')).toEqual([arn('assemble')]);
      expect(sendsTo('BatchWorker')).toEqual([`[${arn('assemble')},${arn('batch')}]`]);
      expect(sendsTo('BatchAssembler')).toEqual([
        `[${arn('assemble')},${arn('batch')},${arn('deliveries')}]`,
      ]);
      const senders = ['Render', 'RenderWorker', 'StartBatch', 'BatchWorker', 'BatchAssembler'];
      for (const id of Object.keys(stack.functions).filter((f) => !senders.includes(f)))
        expect({ id, sends: sendsTo(id) }).toEqual({ id, sends: [] });
    });

    test('jobs and webhook endpoints: grants on the accounts table narrowed to their item prefixes, no Scan/Query', () => {
      const { stack, logicalId, fnOf, statementsOf, envOf } = s();
      const accountsArn = { 'Fn::GetAtt': [logicalId(stack.tables.accounts!), 'Arn'] };
      const expected: Record<string, { prefixes: string[]; writes: boolean }> = {
        Render: { prefixes: [JOB_ITEM_PREFIX, BRAND_ITEM_PREFIX], writes: true },
        GetJob: { prefixes: [JOB_ITEM_PREFIX], writes: false },
        WebhookPut: { prefixes: [WEBHOOK_ITEM_PREFIX], writes: true },
        WebhookGet: { prefixes: [WEBHOOK_ITEM_PREFIX], writes: false },
        WebhookDelete: { prefixes: [WEBHOOK_ITEM_PREFIX], writes: true },
        WebhookRotateSecret: { prefixes: [WEBHOOK_ITEM_PREFIX], writes: true },
        BrandPut: { prefixes: [BRAND_ITEM_PREFIX], writes: true },
        BrandGet: { prefixes: [BRAND_ITEM_PREFIX], writes: false },
        BrandDelete: { prefixes: [BRAND_ITEM_PREFIX], writes: true },
        RenderWorker: { prefixes: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX], writes: true },
        DeliveryWorker: { prefixes: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX], writes: true },
        StartBatch: { prefixes: [JOB_ITEM_PREFIX, BRAND_ITEM_PREFIX], writes: true },
        GetBatch: { prefixes: [JOB_ITEM_PREFIX], writes: false },
        BatchWorker: { prefixes: [JOB_ITEM_PREFIX], writes: true },
        BatchAssembler: { prefixes: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX], writes: true },
      };
      for (const [id, want] of Object.entries(expected)) {
        const onAccounts = statementsOf(fnOf(id)).filter((st) =>
          JSON.stringify(st.Resource).includes(logicalId(stack.tables.accounts!)),
        );
        expect({ id, n: onAccounts.length }).toEqual({ id, n: 1 });
        const st = onAccounts[0]!;
        expect(st.Resource).toEqual(accountsArn); // the table only, no index
        expect(st.Condition).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': want.prefixes.map((p) => `${p}*`) },
        });
        const actions = [st.Action].flat();
        expect(actions.filter((a) => /Scan|Query|BatchWrite/.test(a))).toEqual([]);
        expect({ id, writes: actions.some((a) => /Put|Update|Delete/.test(a)) }).toEqual({
          id,
          writes: want.writes,
        });
        expect(envOf(id).ACCOUNTS_TABLE).toEqual({ Ref: logicalId(stack.tables.accounts!) });
      }
      // The prefixes never overlap billing's items (acct#, evt#, email#, purchase#, pickup#).
      for (const p of [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX, BRAND_ITEM_PREFIX])
        for (const billing of ['acct#', 'evt#', 'email#', 'purchase#', 'pickup#'])
          expect(p.startsWith(billing) || billing.startsWith(p)).toBe(false);
    });

    test('CFDI batches: the batch worker runs the renderer image, the assembler a zip for 15 minutes; the batch queue fans out to 50', () => {
      expect(s().propsOf('BatchWorker')).toMatchObject({
        PackageType: 'Image',
        Timeout: 300,
        ImageConfig: { Command: [imageCommand(workerOf('BatchWorker').handler)] },
      });
      expect(s().propsOf('BatchAssembler')).toMatchObject({
        Runtime: 'nodejs22.x',
        Timeout: 900,
        MemorySize: 1024,
        EphemeralStorage: { Size: 1024 },
      });
      expect(s().propsOf('BatchAssembler').PackageType).toBeUndefined();
      // A part charges nothing and counts its PDFs in the stats: no quotas table, the growth table's counters.
      const tablesOf = (id: string) =>
        Object.keys(s().envOf(id))
          .filter((k) => k.endsWith('_TABLE'))
          .sort();
      expect(tablesOf('BatchWorker')).toEqual(['ACCOUNTS_TABLE', 'GROWTH_TABLE']);
      expect(JSON.stringify(s().statementsOf(s().fnOf('BatchWorker')))).not.toContain(
        s().logicalId(s().stack.tables.quotas!),
      );
      // Its queue's redrive and the assembler's own retries.
      expect(documentsManifest.queues.find((q) => q.id === 'assemble')).toMatchObject({ maxReceiveCount: 3 });
      const batch = documentsManifest.queues.find((q) => q.id === 'batch')!;
      expect(batch).toMatchObject({ maxConcurrency: 50, maxReceiveCount: 3 });
      s().template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        ScalingConfig: { MaximumConcurrency: 50 },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      // The upload slot may only put objects under batches/uploads/.
      const puts = s()
        .statementsOf(s().fnOf('BatchUpload'))
        .filter((st) => [st.Action].flat().some((a) => String(a).startsWith('s3:')));
      expect(puts.map((st) => [st.Action].flat()).flat()).toEqual(['s3:PutObject']);
      expect(JSON.stringify(puts.map((st) => st.Resource))).toContain('batches/uploads/*');
    });

    test('bucket: queued requests under jobs/ expire in 2 days; job results under results/ (1 day)', () => {
      expect(JOB_REQUESTS_PREFIX).toEqual({ prefix: 'jobs/', days: 2 });
      expect(RESULTS_PREFIX).toEqual({ prefix: 'results/', days: 1 });
      expect(JOB_RESULT_PREFIX.startsWith(RESULTS_PREFIX.prefix)).toBe(true);
    });
  });
}
