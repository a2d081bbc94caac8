// Infra layer: CloudFormation assertions on DocumentsStack, built from the same route manifest the local runtime
// serves, plus cdk-nag's AwsSolutions pack. Zip routes are bundled with esbuild for real (INFRA_SKIP_BUNDLING=1 skips
// it, as in the narration test); the container image is only fingerprinted and staged, never built (no Docker here),
// so its build context and the Dockerfile's contract with the code are checked statically below.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, type CfnElement, type PolicyValidationPluginReport, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { documentsManifest } from '../../lambdas/documents/routes';
import type { TableId } from '../../lambdas/shared/manifest';
import { IMAGE_MIN_TMP_MB, imageCommand } from '../../lib/constructs/image-function';
import type { ServiceFunctionBase } from '../../lib/constructs/service-function-base';
import { parseConfig } from '../../lambdas/documents/config';
import { JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX } from '../../lambdas/documents/adapters/item-prefixes';
import { JOB_REQUEST_PREFIX, JOB_RESULT_PREFIX } from '../../lambdas/documents/adapters/job-files';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../lambdas/documents/domain/webhooks-schedule';
import { REALM_BOOTSTRAP_FILE } from '../../lambdas/documents/templating/realm-sources';
import {
  DOCUMENTS_DOCKERFILE,
  JOB_REQUESTS_PREFIX,
  DocumentsStack,
  RESULTS_PREFIX,
  RESULTS_TTL_DAYS,
} from '../../lib/documents-stack';

const ROOT = path.resolve(__dirname, '..', '..');
const cdkJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Statement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
}

let app: App;
let stack: DocumentsStack;
let template: Template;
let resources: Record<string, Json>;
let nagReport: PolicyValidationPluginReport;
let nagSynthError: unknown;

beforeAll(() => {
  const context: Record<string, unknown> = { ...cdkJson.context };
  if (process.env.INFRA_SKIP_BUNDLING === '1') context['aws:cdk:bundling-stacks'] = [];
  app = new App({ context });
  stack = new DocumentsStack(app, 'Documents');
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources as Record<string, Json>;

  // cdk-nag as in bin/app.ts, on a second app (bundling skipped: the pack reads the construct tree, not the bundles).
  const nagApp = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  new DocumentsStack(nagApp, 'Documents');
  const nag = new AwsSolutionsChecks(nagApp, { verbose: true });
  nagReport = nag.validateScope(nagApp);
  Validations.of(nagApp).addPlugins(nag);
  try {
    nagApp.synth();
  } catch (err) {
    nagSynthError = err;
  }
}, 120_000);

const logicalId = (construct: { node: { defaultChild?: unknown } }): string =>
  stack.resolve(stack.getLogicalId(construct.node.defaultChild as CfnElement)) as string;

const fnOf = (id: string): ServiceFunctionBase => {
  const fn = stack.functions[id];
  if (!fn) throw new Error(`stack has no function ${id}`);
  return fn;
};
const propsOf = (id: string): Json => resources[logicalId(fnOf(id).fn)]!.Properties;
const envOf = (id: string): Record<string, unknown> => propsOf(id).Environment.Variables;

function statementsOf(fn: ServiceFunctionBase): Statement[] {
  const roleId = logicalId(fn.role);
  return Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Json>)
    .filter((p) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const actionsOf = (fn: ServiceFunctionBase): string[] =>
  statementsOf(fn).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

const routes = documentsManifest.routes;
const imageRoutes = routes.filter((r) => r.packaging === 'image');
const zipRoutes = routes.filter((r) => r.packaging !== 'image');
const TABLE_ENV: Record<string, string> = {
  accounts: 'ACCOUNTS_TABLE',
  quotas: 'QUOTAS_TABLE',
  keys: 'KEYS_TABLE',
  growth: 'GROWTH_TABLE',
};

describe('HTTP API from the manifest', () => {
  test('every manifest route exists, each integrated with its own Lambda', () => {
    const apiRoutes = template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Json>;
    expect(Object.keys(apiRoutes)).toHaveLength(routes.length);
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Json>;
    const targets = new Set<string>();
    for (const spec of routes) {
      const routeKey = spec.path === '$default' ? '$default' : `${spec.method} ${spec.path}`;
      const route = Object.values(apiRoutes).find((r) => r.Properties.RouteKey === routeKey);
      expect({ routeKey, found: route !== undefined }).toEqual({ routeKey, found: true });
      const integrationId = route!.Properties.Target['Fn::Join'][1][1].Ref as string;
      expect(integrations[integrationId]!.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
      });
      const fnId = logicalId(fnOf(spec.id).fn);
      expect(integrations[integrationId]!.Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
      targets.add(fnId);
    }
    expect(targets.size).toBe(routes.length);
  });

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
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
    expect(routes.find((r) => r.path === '$default')?.id).toBe('NotFound');
  });

  test('default stage: auto-deploy, access logs, throttling', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('\\$context\\.requestId'),
      },
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });

  test('outputs: API URL, bucket and table names', () => {
    expect(Object.keys(template.findOutputs('*'))).toEqual(
      expect.arrayContaining([
        'ApiUrl',
        'DocumentsBucketName',
        'QuotasTableName',
        'KeysTableName',
        'GrowthTableName',
      ]),
    );
  });
});

describe('functions', () => {
  test('one Lambda per route, all traced, logging to their own group, service "documents"', () => {
    const fns = template.findResources('AWS::Lambda::Function') as Record<string, Json>;
    // One per route and one per worker (async renders, webhook deliveries).
    expect(Object.keys(fns)).toHaveLength(routes.length + documentsManifest.workers.length);
    for (const fn of Object.values(fns)) {
      expect(fn.Properties).toMatchObject({
        TracingConfig: { Mode: 'Active' },
        Environment: { Variables: { POWERTOOLS_SERVICE_NAME: 'documents', LOG_LEVEL: 'INFO' } },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toContain('--enable-source-maps');
      const logGroup = resources[fn.Properties.LoggingConfig.LogGroup.Ref]!;
      expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
      expect(logGroup.Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });

  test('memory and timeout come from the manifest', () => {
    for (const spec of routes) {
      expect({ id: spec.id, mem: propsOf(spec.id).MemorySize, t: propsOf(spec.id).Timeout }).toEqual({
        id: spec.id,
        mem: spec.memoryMb,
        t: spec.timeoutS,
      });
    }
  });

  test.each(imageRoutes.map((r) => [r.id, r] as const))(
    'image route %s: container image, x86_64, own handler as CMD, /tmp ≥ 1 GB, --no-node-snapshot',
    (id, spec) => {
      const props = propsOf(id);
      expect(props).toMatchObject({
        PackageType: 'Image',
        Architectures: ['x86_64'],
        ImageConfig: { Command: [imageCommand(spec.handler)] },
      });
      expect(props.Runtime).toBeUndefined();
      expect(props.Handler).toBeUndefined();
      expect(props.EphemeralStorage.Size).toBeGreaterThanOrEqual(IMAGE_MIN_TMP_MB);
      expect(props.EphemeralStorage.Size).toBeGreaterThanOrEqual(1024);
      const nodeOptions = String(envOf(id).NODE_OPTIONS).split(/\s+/);
      expect(nodeOptions).toEqual(expect.arrayContaining(['--no-node-snapshot', '--enable-source-maps']));
      // The CMD names the bundle the Dockerfile writes for the handler (esbuild --outbase=. keeps the layout).
      expect(imageCommand(spec.handler)).toBe(`${spec.handler.replace(/\.ts$/, '')}.handler`);
      expect(fs.existsSync(path.join(ROOT, spec.handler))).toBe(true);
    },
  );

  test.each(zipRoutes.map((r) => [r.id] as const))('zip route %s: nodejs22.x on arm64', (id) => {
    expect(propsOf(id)).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
    });
    expect(propsOf(id).PackageType).toBeUndefined();
  });

  test('roles carry no managed policies (no AWSLambdaBasicExecutionRole: logs only to their own group)', () => {
    for (const role of Object.values(template.findResources('AWS::IAM::Role') as Record<string, Json>)) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('container image asset', () => {
  const dockerImages = (): Record<string, Json> => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(app.outdir, `${stack.artifactId}.assets.json`), 'utf8'),
    ) as { dockerImages: Record<string, Json> };
    return manifest.dockerImages;
  };
  const contextDir = (): string =>
    path.join(app.outdir, Object.values(dockerImages())[0]!.source.directory as string);
  const listFiles = (dir: string, prefix = ''): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const rel = path.posix.join(prefix, e.name);
      return e.isDirectory() ? listFiles(path.join(dir, e.name), rel) : [rel];
    });

  test('one image for every image route: same ImageUri, built for linux/amd64 from the Dockerfile', () => {
    const uris = new Set(imageRoutes.map((r) => JSON.stringify(propsOf(r.id).Code.ImageUri)));
    expect(uris.size).toBe(1);
    expect([...uris][0]).toContain(stack.image!.imageTag);
    const images = Object.values(dockerImages());
    expect(images).toHaveLength(1);
    expect(images[0]!.source).toMatchObject({ dockerFile: DOCUMENTS_DOCKERFILE, platform: 'linux/amd64' });
  });

  test('the build arg HANDLER_ENTRIES lists exactly the manifest image handlers', () => {
    const args = Object.values(dockerImages())[0]!.source.dockerBuildArgs as Record<string, string>;
    const imageHandlers = [...routes, ...documentsManifest.workers]
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
        DOCUMENTS_DOCKERFILE,
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
  const dockerfile = fs.readFileSync(path.join(ROOT, DOCUMENTS_DOCKERFILE), 'utf8').replace(/\\\n/g, ' ');
  const lines = dockerfile.split('\n').filter((l) => l.trim() && !l.trimStart().startsWith('#'));
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const externals = /^ARG EXTERNALS="([^"]+)"/m.exec(dockerfile)![1]!.split(/\s+/);
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
    const resolved = sources.flatMap((s) =>
      [...s.matchAll(/require\.resolve\('((?:@[^/']+\/)?[^/']+)/g)].map((m) => m[1]!),
    );
    expect(resolved.length).toBeGreaterThan(0);
    for (const name of resolved) expect(externals).toContain(name);
    expect(dockerfile).toMatch(/--external:%s/);
    expect(dockerfile).toMatch(/lock\.packages\["node_modules\/" \+ name\]\?\.version/);
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
    expect(dockerfile).toMatch(/--outbase=\. --outdir=\/build\/dist/);
    expect(finalStage).toMatch(/COPY --from=bundle \/build\/dist\/ \.\//);
    // What the code reads from those folders exists in the repository (and so in the build context).
    for (const slug of ['factura', 'ventas', 'balance', 'certificado', 'cotizacion', 'nomina'])
      expect(fs.existsSync(path.join(ROOT, 'templates', slug, 'template.html.j2'))).toBe(true);
    expect(fs.readdirSync(path.join(ROOT, 'lambdas/documents/fonts')).some((f) => f.endsWith('.ttf'))).toBe(
      true,
    );
    // The template realm's bootstrap is read from beside the running code (realm-sources.ts): beside each bundle.
    expect(dockerfile).toContain(
      `for f in \${HANDLER_ENTRIES}; do cp lambdas/documents/templating/${REALM_BOOTSTRAP_FILE} "/build/dist/$(dirname "$f")/"; done`,
    );
    expect(fs.existsSync(path.join(ROOT, 'lambdas/documents/templating', REALM_BOOTSTRAP_FILE))).toBe(true);
  });
});

function listTs(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listTs(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('IAM least privilege, strictly from each route’s access', () => {
  test.each(routes.map((r) => [r.id, r] as const))('%s', (id, spec) => {
    const fn = fnOf(id);
    const actions = actionsOf(fn);
    const env = envOf(id);
    const { tables = {}, bucket } = spec.access;

    // DynamoDB: only the tables listed, writes only where 'rw'.
    const ddbStatements = statementsOf(fn).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('dynamodb:')),
    );
    for (const tableId of Object.keys(stack.tables) as TableId[]) {
      const tableLogicalId = logicalId(stack.tables[tableId]!);
      const onTable = ddbStatements.filter((s) => JSON.stringify(s.Resource).includes(tableLogicalId));
      const mode = tables[tableId];
      expect({ tableId, touched: onTable.length > 0 }).toEqual({ tableId, touched: mode !== undefined });
      expect({ tableId, env: TABLE_ENV[tableId]! in env }).toEqual({ tableId, env: mode !== undefined });
      const writes = onTable
        .flatMap((s) => [s.Action].flat())
        .filter((a) => /Put|Update|Delete|BatchWrite/.test(a));
      expect({ tableId, writes: writes.length > 0 }).toEqual({ tableId, writes: mode === 'rw' });
    }
    if (Object.keys(tables).length === 0)
      expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual([]);

    // S3: only with access.bucket; writes only where 'rw'; DOCUMENTS_BUCKET set exactly then.
    const s3Actions = actions.filter((a) => a.startsWith('s3:'));
    if (!bucket) expect(s3Actions).toEqual([]);
    else expect(s3Actions).toContain('s3:GetObject');
    expect(s3Actions.includes('s3:PutObject')).toBe(bucket === 'rw');
    expect(s3Actions.every((a) => !a.includes('*'))).toBe(true);
    expect('DOCUMENTS_BUCKET' in env).toBe(bucket !== undefined);

    // SQS: only sending, only with access.sendTo. Nothing else but logs and X-Ray; no wildcard actions.
    const sqsActions = actions.filter((a) => a.startsWith('sqs:'));
    expect(sqsActions).toEqual((spec.access.sendTo ?? []).map(() => 'sqs:SendMessage'));
    expect(actions.filter((a) => !/^(dynamodb|s3|sqs|logs|xray):/.test(a))).toEqual([]);
    expect(actions.some((a) => a.endsWith(':*') || a === '*')).toBe(false);
  });

  test.each([['Pricing'], ['Templates'], ['TemplateSource'], ['NotFound']])(
    '%s has no DynamoDB or S3 access at all',
    (id) => {
      expect(actionsOf(fnOf(id)).filter((a) => /^(dynamodb|s3|sqs|polly):/.test(a))).toEqual([]);
      expect(Object.keys(envOf(id)).filter((k) => /_TABLE$|_BUCKET$/.test(k))).toEqual([]);
    },
  );

  test('Render: quotas read-write, keys read-only, growth read-write, bucket read-write', () => {
    const fn = fnOf('Render');
    const on = (tableId: TableId): string[] =>
      statementsOf(fn)
        .filter((s) => JSON.stringify(s.Resource).includes(logicalId(stack.tables[tableId]!)))
        .flatMap((s) => [s.Action].flat());
    expect(on('quotas')).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem']),
    );
    expect(on('keys')).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const write of [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
    ])
      expect(on('keys')).not.toContain(write);
    // The keys table's byEmail index is named, never index/*.
    expect(JSON.stringify(statementsOf(fn))).toContain('/index/byEmail');
    expect(JSON.stringify(statementsOf(fn))).not.toContain('/index/*');
    expect(Object.keys(envOf('Render'))).toEqual(
      expect.arrayContaining(['QUOTAS_TABLE', 'KEYS_TABLE', 'GROWTH_TABLE', 'DOCUMENTS_BUCKET']),
    );
  });

  test('DocumentStats only reads the growth table', () => {
    const actions = actionsOf(fnOf('DocumentStats'));
    expect(actions).toContain('dynamodb:GetItem');
    expect(
      actions.filter((a) => a.startsWith('dynamodb:') && /Put|Update|Delete|BatchWrite/.test(a)),
    ).toEqual([]);
    expect(actions.filter((a) => a.startsWith('s3:'))).toEqual([]);
  });
});

describe('S3 documents bucket', () => {
  const bucketJson = (): Json => resources[logicalId(stack.bucket)]!;

  test('private, SSE, TLS only, access-logged, retained', () => {
    const bucket = bucketJson();
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: { DestinationBucketName: { Ref: expect.any(String) } },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(stack.bucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  test('lifecycle: results/ expire after 1 day, incomplete uploads aborted after 1 day', () => {
    expect(RESULTS_PREFIX).toBe('results/');
    expect(RESULTS_TTL_DAYS).toBe(1);
    expect(bucketJson().Properties.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Prefix: 'results/', ExpirationInDays: 1, Status: 'Enabled' }),
        expect.objectContaining({
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          Status: 'Enabled',
        }),
      ]),
    );
  });
});

describe('DynamoDB tables', () => {
  test('exactly the tables the manifest names', () => {
    const named = new Set(routes.flatMap((r) => Object.keys(r.access.tables ?? {})));
    expect(Object.keys(stack.tables).sort()).toEqual([...named].sort());
    expect(Object.keys(stack.tables)).toEqual(expect.arrayContaining(['quotas', 'keys', 'growth']));
    template.resourceCountIs('AWS::DynamoDB::Table', named.size);
  });

  test.each([
    ['quotas', 'pk'],
    ['keys', 'keyHash'],
    ['growth', 'pk'],
  ] as const)('%s: on-demand, PITR, TTL expiresAt, encrypted, retained, pk %s', (id, pk) => {
    const table = resources[logicalId(stack.tables[id]!)]!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: pk, KeyType: 'HASH' }],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      SSESpecification: { SSEEnabled: true },
    });
  });

  test('keys table has the byEmail index', () => {
    expect(resources[logicalId(stack.tables.keys!)]!.Properties.GlobalSecondaryIndexes).toEqual([
      expect.objectContaining({
        IndexName: 'byEmail',
        KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
      }),
    ]);
  });
});

describe('cdk-nag AwsSolutions', () => {
  test('synthesizes with the pack as a validation plugin', () => {
    expect(nagSynthError).toBeUndefined();
  });

  test('zero unacknowledged errors and warnings', () => {
    const findings = nagReport.violations.map(
      (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
    expect(findings).toEqual([]);
  });

  test('no CDK error or warning annotations', () => {
    const annotations = Annotations.fromStack(stack);
    const messages = [
      ...annotations.findError('*', Match.anyValue()),
      ...annotations.findWarning('*', Match.anyValue()),
    ].map((m) => `${m.id}: ${String(m.entry.data)}`);
    expect(messages).toEqual([]);
  });
});

describe('async renders and webhooks: queues, workers, narrowed grants', () => {
  const workers = documentsManifest.workers;
  const queueSpecs = documentsManifest.queues ?? [];
  const workerOf = (id: string) => workers.find((w) => w.id === id)!;

  test('the manifest declares the render and deliveries queues, each read by one worker', () => {
    expect(queueSpecs.map((q) => q.id).sort()).toEqual(['deliveries', 'render']);
    for (const q of queueSpecs) expect(workers.filter((w) => w.queue === q.id)).toHaveLength(1);
    expect(Object.keys(stack.queues).sort()).toEqual(['deliveries', 'render']);
  });

  test.each(queueSpecs.map((q) => [q.id] as const))(
    'queue %s: SSE, TLS only, DLQ after maxReceiveCount',
    (id) => {
      const { queue, dlq, spec } = stack.queues[id]!;
      const props = resources[logicalId(queue)]!.Properties;
      expect(props.SqsManagedSseEnabled).toBe(true);
      expect(props.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(dlq), 'Arn'] },
        maxReceiveCount: spec.maxReceiveCount,
      });
      const reader = workers.find((w) => w.queue === id)!;
      expect(props.VisibilityTimeout).toBeGreaterThanOrEqual(6 * reader.timeoutS);
      expect(resources[logicalId(dlq)]!.Properties.SqsManagedSseEnabled).toBe(true);
      expect(resources[logicalId(dlq)]!.Properties.MessageRetentionPeriod).toBe(14 * 86400);
      for (const q of [queue, dlq])
        template.hasResourceProperties('AWS::SQS::QueuePolicy', {
          Queues: [{ Ref: logicalId(q) }],
          PolicyDocument: {
            Statement: Match.arrayWith([
              Match.objectLike({
                Effect: 'Deny',
                Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              }),
            ]),
          },
        });
    },
  );

  test('delivery attempts: the queue redelivers once per retry delay, plus the first try', () => {
    const deliveries = queueSpecs.find((q) => q.id === 'deliveries')!;
    const schedule = parseConfig({}).WEBHOOK_RETRY_SCHEDULE_S;
    expect(schedule).toEqual([...DEFAULT_RETRY_SCHEDULE_S]);
    expect(deliveries.maxReceiveCount).toBe(schedule.length + 1);
    // Every delay fits SQS's 12-hour visibility ceiling.
    expect(Math.max(...schedule)).toBeLessThanOrEqual(12 * 3600);
  });

  test.each(workers.map((w) => [w.id] as const))(
    'worker %s: fed by its queue (batch 1, partial failures, capped concurrency), MAX_RECEIVE_COUNT and its queue URL set',
    (id) => {
      const spec = workerOf(id);
      const { queue, spec: queueSpec } = stack.queues[spec.queue!]!;
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: { 'Fn::GetAtt': [logicalId(queue), 'Arn'] },
        FunctionName: { Ref: logicalId(fnOf(id).fn) },
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: spec.maxConcurrency ?? 5 },
      });
      expect(envOf(id).MAX_RECEIVE_COUNT).toBe(String(queueSpec.maxReceiveCount));
      expect(envOf(id)[queueSpec.envVar]).toEqual({ Ref: logicalId(queue) });
      // It consumes its own queue (the event source's grant, ChangeMessageVisibility included for retries).
      expect(actionsOf(fnOf(id))).toEqual(
        expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
      );
      expect({ id, mem: propsOf(id).MemorySize, t: propsOf(id).Timeout }).toEqual({
        id,
        mem: spec.memoryMb,
        t: spec.timeoutS,
      });
    },
  );

  test('the render worker runs the renderer image (Chromium); the delivery worker is a small zip', () => {
    expect(propsOf('RenderWorker')).toMatchObject({
      PackageType: 'Image',
      ImageConfig: { Command: [imageCommand(workerOf('RenderWorker').handler)] },
    });
    expect(propsOf('DeliveryWorker')).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
  });

  test('who may send where: Render → render queue, RenderWorker → deliveries; nobody else sends', () => {
    const sendsTo = (id: string) =>
      statementsOf(fnOf(id))
        .filter((s) => [s.Action].flat().includes('sqs:SendMessage'))
        .map((s) => JSON.stringify(s.Resource));
    const arn = (q: string) => JSON.stringify({ 'Fn::GetAtt': [logicalId(stack.queues[q]!.queue), 'Arn'] });
    expect(sendsTo('Render')).toEqual([arn('render')]);
    expect(envOf('Render').DOCUMENTS_RENDER_QUEUE_URL).toBeDefined();
    expect(sendsTo('RenderWorker')).toEqual([arn('deliveries')]);
    expect(sendsTo('DeliveryWorker')).toEqual([]);
    for (const id of Object.keys(stack.functions).filter((f) => !['Render', 'RenderWorker'].includes(f)))
      expect({ id, sends: sendsTo(id) }).toEqual({ id, sends: [] });
  });

  test('jobs and webhook endpoints: grants on the accounts table narrowed to their item prefixes, no Scan/Query', () => {
    const accountsArn = { 'Fn::GetAtt': [logicalId(stack.tables.accounts!), 'Arn'] };
    const expected: Record<string, { prefixes: string[]; writes: boolean }> = {
      Render: { prefixes: [JOB_ITEM_PREFIX], writes: true },
      GetJob: { prefixes: [JOB_ITEM_PREFIX], writes: false },
      WebhookPut: { prefixes: [WEBHOOK_ITEM_PREFIX], writes: true },
      WebhookGet: { prefixes: [WEBHOOK_ITEM_PREFIX], writes: false },
      WebhookDelete: { prefixes: [WEBHOOK_ITEM_PREFIX], writes: true },
      WebhookRotateSecret: { prefixes: [WEBHOOK_ITEM_PREFIX], writes: true },
      RenderWorker: { prefixes: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX], writes: true },
      DeliveryWorker: { prefixes: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX], writes: true },
    };
    for (const [id, want] of Object.entries(expected)) {
      const onAccounts = statementsOf(fnOf(id)).filter((s) =>
        JSON.stringify(s.Resource).includes(logicalId(stack.tables.accounts!)),
      );
      expect({ id, n: onAccounts.length }).toEqual({ id, n: 1 });
      const st = onAccounts[0]! as Statement & { Condition?: Json };
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
    for (const p of [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX])
      for (const billing of ['acct#', 'evt#', 'email#', 'purchase#', 'pickup#'])
        expect(p.startsWith(billing) || billing.startsWith(p)).toBe(false);
  });

  test('the local-test settings (callback allowlist, DNS stub) reach no function, and cannot be listed', () => {
    for (const id of Object.keys(stack.functions)) {
      const env = envOf(id);
      expect({ id, allowlist: 'WEBHOOK_URL_ALLOWLIST' in env, stub: 'WEBHOOK_DNS_STUB' in env }).toEqual({
        id,
        allowlist: false,
        stub: false,
      });
    }
    const bad = {
      ...documentsManifest,
      routes: documentsManifest.routes.map((r) =>
        r.id === 'WebhookPut' ? { ...r, access: { ...r.access, settings: ['WEBHOOK_URL_ALLOWLIST'] } } : r,
      ),
    };
    const badApp = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
    expect(() => new DocumentsStack(badApp, 'Bad', { manifest: bad })).toThrow(/local-test setting/);
  });

  test('bucket: queued requests under jobs/ expire in 2 days; results under results/ (1 day)', () => {
    expect(JOB_REQUEST_PREFIX).toBe(JOB_REQUESTS_PREFIX);
    expect(JOB_RESULT_PREFIX.startsWith(RESULTS_PREFIX)).toBe(true);
    expect(resources[logicalId(stack.bucket)]!.Properties.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([expect.objectContaining({ Prefix: 'jobs/', ExpirationInDays: 2 })]),
    );
  });

  test('outputs: the queue and DLQ URLs', () => {
    expect(Object.keys(template.findOutputs('*'))).toEqual(
      expect.arrayContaining(['RenderQueueUrl', 'RenderDlqUrl', 'DeliveriesQueueUrl', 'DeliveriesDlqUrl']),
    );
  });
});
