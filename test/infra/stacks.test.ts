// Infra layer: CloudFormation assertions on both stacks (ManifestService, lib/constructs/manifest-service.ts), each
// built from the same route manifest the local runtime serves, plus cdk-nag's AwsSolutions pack. What every manifest
// service gets is asserted for both (describe.each); what only one service has stays in its own block below.
// Each app is synthesized once for the whole file, without bundling (CDK's own `aws:cdk:bundling-stacks` switch):
// these assertions read templates, and the esbuild bundles are built once per run by the artifact project's
// `cdk synth` (test/artifact/global-setup.ts), which then loads and invokes every one of them — an unresolvable import
// fails there. Documents' container image is only fingerprinted and staged, never built (no Docker here), so its
// build context and the Dockerfile's contract with the code are checked statically.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, type PolicyValidationPluginReport, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { JOB_REQUESTS_PREFIX, JOB_RESULT_PREFIX, RESULTS_PREFIX } from '../../lambdas/documents/bucket';
import { documentsManifest } from '../../lambdas/documents/routes';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../lambdas/shared/webhooks/schedule';
import { REALM_SCRIPT_FILES } from '../../lambdas/documents/templating/realm-sources';
import { narrationManifest } from '../../lambdas/narration/routes';
import { RETENTION_TAG, UPLOAD_PREFIX } from '../../lambdas/narration/bucket';
import { UPLOAD_ITEM_PREFIX } from '../../lambdas/narration/adapters/upload-repository';
import { BRAND_ITEM_PREFIX, JOB_ITEM_PREFIX } from '../../lambdas/documents/adapters/item-prefixes';
import { WEBHOOK_ITEM_PREFIX } from '../../lambdas/shared/webhooks/item-prefix';
import { parseConfig } from '../../lambdas/documents/config';
import type {
  RouteSpec,
  ScheduleSpec,
  ServiceManifest,
  TableId,
  WorkerSpec,
} from '../../lambdas/shared/manifest';
import { IMAGE_MIN_TMP_MB, imageCommand } from '../../lib/constructs/image-function';
import { queueVisibilityTimeoutS, type ManifestStack } from '../../lib/constructs/manifest-service';
import type { ServiceFunctionBase } from '../../lib/constructs/service-function-base';
import { DocumentsStack } from '../../lib/documents-stack';
import { auditLeastPrivilege, type AuditTarget, type Needs } from '../helpers/iam-audit';
import { flatTemplate, logicalIdOf } from '../helpers/nested-templates';
import { NarrationStack } from '../../lib/narration-stack';

const ROOT = path.resolve(__dirname, '..', '..');
const cdkJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};
const noBundling = { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Statement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
  Condition?: Json;
}
type Entry = RouteSpec | WorkerSpec | ScheduleSpec;

/** What each service's stack must have, written out here (not read from the code under test). */
interface Service {
  name: 'narration' | 'documents';
  Stack: new (app: App, id: string, props?: { manifest?: ServiceManifest }) => ManifestStack;
  manifest: ServiceManifest;
  id: string;
  bucketEnv: string;
  outputs: string[];
  /** Lifecycle rules of the service bucket: prefix → days. */
  expires: [string, number][];
  /** Tables (id, partition key) the stack must create. */
  tables: [TableId, string][];
  /** What each function writes, queries and reads of the secrets, from reading its code (test/helpers/iam-audit.ts). */
  needs: Needs;
}

/** A conversion writes its audio (segments, timings) and a queued job's text; deleting an audio removes both. */
const CONVERSION = ['audio/', 'jobs/'];
const STRIPE_API = ['PayCheckout', 'PaySuccess', 'PayPortal'];

const SERVICES: Service[] = [
  {
    name: 'narration',
    Stack: NarrationStack,
    manifest: narrationManifest,
    id: 'Narration',
    bucketEnv: 'AUDIO_BUCKET',
    outputs: ['ApiUrl', 'AudioBucketName', 'AudioTableName', 'QuotasTableName', 'KeysTableName'],
    expires: [
      ['audio/', 30],
      ['jobs/', 2],
      ['uploads/', 1],
    ],
    tables: [
      ['audio', 'audioId'],
      ['quotas', 'pk'],
      ['keys', 'keyHash'],
    ],
    needs: {
      bucketWrites: {
        ...Object.fromEntries(
          [
            'ConvertText',
            'ConvertUrl',
            'DemoTry',
            'Worker',
            'FeedArticleWorker',
            'FeedFirstPlay',
            'DeleteAudio',
            'FeedDelete',
          ]
            .concat(['GetAudio', 'GetTimings', 'AudioSegment', 'AudioChapters']) // delete an expired audio's files
            .map((id) => [id, CONVERSION]),
        ),
        ConvertPdf: [...CONVERSION, 'uploads/'], // reads, then deletes, the uploaded PDF
        ConvertPdfUpload: ['uploads/'], // signs the browser's POST
      },
      queries: {
        FeedCreate: ['feeds.byOwner'],
        FeedList: ['feeds.byOwner'],
        FeedDelete: ['feeds.byFeed'],
        FeedScheduler: ['feeds.byPoll'],
      },
      secrets: {
        STRIPE_SECRET_KEY: STRIPE_API,
        STRIPE_WEBHOOK_SECRET: ['PayWebhook'],
        DASHBOARD_TOKEN: ['AbResults', 'DashboardSummary'],
      },
    },
  },
  {
    name: 'documents',
    Stack: DocumentsStack,
    manifest: documentsManifest,
    id: 'Documents',
    bucketEnv: 'DOCUMENTS_BUCKET',
    outputs: [
      'ApiUrl',
      'DocumentsBucketName',
      'QuotasTableName',
      'KeysTableName',
      'GrowthTableName',
      'RenderQueueUrl',
      'RenderDlqUrl',
      'DeliveriesQueueUrl',
      'DeliveriesDlqUrl',
      'BatchQueueUrl',
      'BatchDlqUrl',
      'AssembleQueueUrl',
      'AssembleDlqUrl',
    ],
    expires: [
      ['results/', 1],
      ['samples/', 30],
      ['jobs/', 2],
      ['batches/', 2],
    ],
    tables: [
      ['quotas', 'pk'],
      ['keys', 'keyHash'],
      ['growth', 'pk'],
    ],
    needs: {
      bucketWrites: {
        Render: ['results/', 'jobs/'], // large results; an async job's request
        RenderWorker: ['jobs/', 'results/jobs/'], // deletes the request, writes the result
        GetJob: ['results/jobs/'], // deletes an expired result
        BatchUpload: ['batches/uploads/'],
        StartBatch: ['batches/'],
        BatchWorker: ['batches/'],
        BatchAssembler: ['batches/', 'results/jobs/'], // reads the parts, writes the result zip
      },
      queries: {},
      secrets: { STRIPE_SECRET_KEY: STRIPE_API, DOCS_STRIPE_WEBHOOK_SECRET: ['PayWebhook'] },
    },
  },
];
const NARRATION = SERVICES[0]!;
const DOCUMENTS = SERVICES[1]!;

const TABLE_ENV: Record<TableId, string> = {
  audio: 'AUDIO_TABLE',
  accounts: 'ACCOUNTS_TABLE',
  quotas: 'QUOTAS_TABLE',
  keys: 'KEYS_TABLE',
  growth: 'GROWTH_TABLE',
  feeds: 'FEEDS_TABLE',
};

/** One service's synthesized stack and the helpers that read it. */
class Synth {
  readonly app: App;
  readonly stack: ManifestStack;
  readonly template: Template;
  readonly resources: Record<string, Json>;
  readonly nagReport: PolicyValidationPluginReport;
  nagSynthError: unknown;

  constructor(readonly svc: Service) {
    // Secrets wired (from Secrets Manager, by name), so the policy audit below sees every function's secrets.
    const context: Record<string, unknown> = {
      ...noBundling,
      [`${svc.name}:secretName`]: `${svc.name}/secrets`,
    };
    this.app = new App({ context });
    this.stack = new svc.Stack(this.app, svc.id);
    // Functions defined in nested stacks are read as if in the service's template (test/helpers/nested-templates.ts).
    this.template = flatTemplate(this.stack, Object.values(this.stack.service.nestedStacks));
    this.resources = this.template.toJSON().Resources as Record<string, Json>;
    // cdk-nag as in bin/app.ts: the pack runs as a policy-validation plugin during synth, and an unacknowledged
    // finding makes synth throw. A second app (bundling skipped: the pack reads the construct tree, not the
    // bundles) keeps such a failure to the cdk-nag tests; the pack's own report names the rule and resource.
    const nagApp = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
    new svc.Stack(nagApp, svc.id);
    const nag = new AwsSolutionsChecks(nagApp, { verbose: true });
    this.nagReport = nag.validateScope(nagApp);
    Validations.of(nagApp).addPlugins(nag);
    try {
      nagApp.synth();
    } catch (err) {
      this.nagSynthError = err;
    }
  }

  logicalId = (construct: { node: { defaultChild?: unknown } }): string => logicalIdOf(construct);

  fnOf = (id: string): ServiceFunctionBase => {
    const fn = this.stack.functions[id];
    if (!fn) throw new Error(`stack has no function ${id}`);
    return fn;
  };

  propsOf = (id: string): Json => this.resources[this.logicalId(this.fnOf(id).fn)]!.Properties;
  envOf = (id: string): Record<string, unknown> => this.propsOf(id).Environment.Variables;

  statementsOf = (fn: ServiceFunctionBase): Statement[] => {
    const roleId = this.logicalId(fn.role);
    return Object.values(this.template.findResources('AWS::IAM::Policy') as Record<string, Json>)
      .filter((p) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
  };

  actionsOf = (fn: ServiceFunctionBase): string[] =>
    this.statementsOf(fn).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
}

const synths = new Map<string, Synth>();
/** The service's Synth, built by the first beforeAll that asks (once per file). */
function synthOf(svc: Service): () => Synth {
  beforeAll(() => {
    if (!synths.has(svc.name)) synths.set(svc.name, new Synth(svc));
  }, 300_000);
  return () => synths.get(svc.name)!;
}

/** A stack's template with its nested stacks' joined in. */
const flat = (stack: ManifestStack) => flatTemplate(stack, Object.values(stack.service.nestedStacks));

const entriesOf = (m: ServiceManifest): Entry[] => [...m.routes, ...m.workers, ...(m.schedules ?? [])];
const isWorker = (e: Entry): e is WorkerSpec => 'queues' in e;

describe.each(SERVICES.map((svc) => [svc.name, svc] as const))('%s stack', (_name, svc) => {
  const s = synthOf(svc);
  const m = svc.manifest;
  const entries = entriesOf(m);

  describe('templates within CloudFormation limits', () => {
    /** Resources per template: the service stack and each of its nested stacks. */
    const counts = () => {
      const { stack } = s();
      return [stack, ...Object.values(stack.service.nestedStacks)].map(
        (st) => [st.node.path, Object.keys(Template.fromStack(st).toJSON().Resources).length] as const,
      );
    };

    test('each template holds at most 400 resources: 100 of room under the limit of 500', () => {
      expect(counts().filter(([, n]) => n > 400)).toEqual([]);
    });

    test('nested stacks hold functions only: tables, the bucket and the queues keep their logical ids here', () => {
      const { stack } = s();
      const own = Template.fromStack(stack);
      for (const type of ['AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::SQS::Queue'])
        expect(Object.keys(own.findResources(type)).length).toBe(
          Object.keys(s().template.findResources(type)).length,
        );
      for (const nested of Object.values(stack.service.nestedStacks)) {
        const types = new Set(
          Object.values(Template.fromStack(nested).toJSON().Resources as Record<string, Json>).map(
            (r) => r.Type,
          ),
        );
        for (const type of types)
          expect([
            'AWS::IAM::Policy',
            'AWS::IAM::Role',
            'AWS::Lambda::Function',
            'AWS::Logs::LogGroup',
          ]).toContain(type);
      }
    });
  });

  describe('HTTP API from the manifest', () => {
    test('one route per manifest route, each integrated with its own Lambda', () => {
      const { template, logicalId, fnOf } = s();
      const apiRoutes = template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Json>;
      expect(Object.keys(apiRoutes)).toHaveLength(m.routes.length);
      const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Json>;
      const targets = new Set<string>();
      for (const spec of m.routes) {
        const routeKey = spec.path === '$default' ? '$default' : `${spec.method} ${spec.path}`;
        const route = Object.values(apiRoutes).find((r) => r.Properties.RouteKey === routeKey);
        expect({ routeKey, found: route !== undefined }).toEqual({ routeKey, found: true });
        const integrationId = route!.Properties.Target['Fn::Join'][1][1].Ref as string;
        expect(integrations[integrationId]!.Properties).toMatchObject({
          IntegrationType: 'AWS_PROXY',
          PayloadFormatVersion: '2.0',
        });
        const fnId = logicalId(fnOf(spec.id).fn);
        expect(integrations[integrationId]!.Properties.IntegrationUri).toEqual({
          'Fn::GetAtt': [fnId, 'Arn'],
        });
        targets.add(fnId);
      }
      expect(targets.size).toBe(m.routes.length);
    });

    test('default stage: auto-deploy, access logs, throttling', () => {
      const { template } = s();
      template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
      template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        AccessLogSettings: {
          DestinationArn: Match.anyValue(),
          Format: Match.stringLikeRegexp('\\$context\\.requestId'),
        },
        DefaultRouteSettings: {
          ThrottlingRateLimit: Match.anyValue(),
          ThrottlingBurstLimit: Match.anyValue(),
        },
      });
    });

    test('outputs: API URL, bucket, table and queue names', () => {
      expect(Object.keys(s().template.findOutputs('*'))).toEqual(expect.arrayContaining(svc.outputs));
    });
  });

  describe('functions', () => {
    test('one Lambda per manifest entry, all traced, logging to their own group, with the service name', () => {
      const { template, resources } = s();
      const fns = template.findResources('AWS::Lambda::Function') as Record<string, Json>;
      expect(Object.keys(fns)).toHaveLength(entries.length);
      for (const fn of Object.values(fns)) {
        expect(fn.Properties).toMatchObject({
          TracingConfig: { Mode: 'Active' },
          Environment: { Variables: { POWERTOOLS_SERVICE_NAME: svc.name, LOG_LEVEL: 'INFO' } },
          LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
        });
        expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toContain('--enable-source-maps');
        const logGroup = resources[fn.Properties.LoggingConfig.LogGroup.Ref]!;
        expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
        expect(logGroup.Properties.RetentionInDays).toBeGreaterThan(0);
      }
    });

    test('memory and timeout come from the manifest', () => {
      for (const spec of entries) {
        const props = s().propsOf(spec.id);
        expect({ id: spec.id, mem: props.MemorySize, t: props.Timeout }).toEqual({
          id: spec.id,
          mem: spec.memoryMb,
          t: spec.timeoutS,
        });
      }
    });

    const zip = entries.filter((e) => e.packaging !== 'image');
    test.each(zip.map((e) => [e.id] as const))('zip entry %s: nodejs22.x on arm64', (id) => {
      expect(s().propsOf(id)).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
      });
      expect(s().propsOf(id).PackageType).toBeUndefined();
    });

    test('roles carry no managed policies (no AWSLambdaBasicExecutionRole: logs only to their own group)', () => {
      for (const role of Object.values(
        s().template.findResources('AWS::IAM::Role') as Record<string, Json>,
      )) {
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      }
    });
  });

  describe('IAM least privilege, strictly from each entry’s access', () => {
    test.each(entries.map((e) => [e.id, e] as const))('%s', (id, spec) => {
      const { stack, logicalId, fnOf, envOf, statementsOf, actionsOf } = s();
      const fn = fnOf(id);
      const actions = actionsOf(fn);
      const env = envOf(id);
      const { tables = {}, bucket, sendTo = [], speech, readDlqs = [] } = spec.access;

      // DynamoDB: only the tables listed, writes only where 'rw'.
      const ddbStatements = statementsOf(fn).filter((st) =>
        [st.Action].flat().some((a) => a.startsWith('dynamodb:')),
      );
      for (const tableId of Object.keys(stack.tables) as TableId[]) {
        const tableLogicalId = logicalId(stack.tables[tableId]!);
        const onTable = ddbStatements.filter((st) => JSON.stringify(st.Resource).includes(tableLogicalId));
        const mode = tables[tableId];
        expect({ tableId, touched: onTable.length > 0 }).toEqual({ tableId, touched: mode !== undefined });
        expect({ tableId, env: TABLE_ENV[tableId] in env }).toEqual({ tableId, env: mode !== undefined });
        const writes = onTable
          .flatMap((st) => [st.Action].flat())
          .filter((a) => /Put|Update|Delete|BatchWrite/.test(a));
        expect({ tableId, writes: writes.length > 0 }).toEqual({ tableId, writes: mode === 'rw' });
      }
      if (Object.keys(tables).length === 0)
        expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual([]);

      // S3: only with access.bucket; writes only where 'rw' ('put': PutObject and nothing else; 'r+delete': reads
      // and DeleteObject); the bucket variable set exactly then.
      const s3Actions = actions.filter((a) => a.startsWith('s3:'));
      if (!bucket) expect(s3Actions).toEqual([]);
      else if (bucket === 'put') expect(s3Actions).toEqual(['s3:PutObject']);
      else expect(s3Actions).toContain('s3:GetObject');
      expect(s3Actions.includes('s3:PutObject')).toBe(bucket === 'rw' || bucket === 'put');
      expect(s3Actions.includes('s3:DeleteObject')).toBe(bucket === 'rw' || bucket === 'r+delete');
      expect(s3Actions.every((a) => !a.includes('*'))).toBe(true);
      expect(svc.bucketEnv in env).toBe(bucket !== undefined);

      // SQS: sending only to the queues in sendTo; consuming only for workers (event sources).
      const sends = statementsOf(fn).filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
      const sentTo = sends.flatMap((st) => [st.Resource].flat()).map((r) => JSON.stringify(r));
      const arn = (q: string) => JSON.stringify({ 'Fn::GetAtt': [logicalId(stack.queues[q]!.queue), 'Arn'] });
      expect(sentTo.sort()).toEqual(sendTo.map(arn).sort());
      expect(actions.includes('sqs:ReceiveMessage')).toBe(isWorker(spec));
      if (!isWorker(spec))
        expect(actions.filter((a) => a.startsWith('sqs:'))).toEqual([
          ...(sendTo.length ? ['sqs:SendMessage'] : []),
          ...(readDlqs.length ? ['sqs:GetQueueAttributes'] : []),
        ]);
      const reads = isWorker(spec) ? spec.queues : [];
      for (const q of m.queues)
        expect({ q: q.envVar, set: q.envVar in env }).toEqual({
          q: q.envVar,
          set: sendTo.includes(q.id) || reads.includes(q.id),
        });
      // DLQ depth (the dashboard): GetQueueAttributes on exactly the DLQs of readDlqs, their URLs in the env.
      const inspected = statementsOf(fn)
        .filter((st) => [st.Action].flat().includes('sqs:GetQueueAttributes'))
        .flatMap((st) => [st.Resource].flat())
        .map((r) => JSON.stringify(r));
      const dlqArn = (q: string) =>
        JSON.stringify({ 'Fn::GetAtt': [logicalId(stack.queues[q]!.dlq), 'Arn'] });
      if (!isWorker(spec)) expect(inspected.sort()).toEqual(readDlqs.map(dlqArn).sort());
      for (const q of m.queues)
        expect({ q: q.id, dlqUrl: `${q.id.toUpperCase()}_DLQ_URL` in env }).toEqual({
          q: q.id,
          dlqUrl: readDlqs.includes(q.id),
        });

      // Polly
      expect(actions.includes('polly:SynthesizeSpeech')).toBe(speech === true);
      expect(actions.filter((a) => a.startsWith('polly:') && a !== 'polly:SynthesizeSpeech')).toEqual([]);
      if (speech) expect(env.SPEECH_ENGINE).toBe('polly');

      // Nothing else but logs and X-Ray; no wildcard actions.
      expect(actions.filter((a) => !/^(dynamodb|s3|sqs|polly|logs|xray):/.test(a))).toEqual([]);
      expect(actions.some((a) => a.endsWith(':*') || a === '*')).toBe(false);
    });

    describe('every synthesized policy and environment (secrets wired)', () => {
      let target: AuditTarget;
      beforeAll(() => {
        const { stack, template, logicalId } = s();
        target = {
          resources: template.toJSON().Resources as Record<string, Json>,
          functions: Object.fromEntries(
            Object.entries(stack.functions).map(([fid, f]) => [
              fid,
              { role: logicalId(f.role), fn: logicalId(f.fn) },
            ]),
          ),
          bucket: logicalId(stack.bucket),
          tables: Object.fromEntries(
            Object.entries(stack.tables).map(([t, table]) => [t, logicalId(table!)]),
          ),
        };
      });

      test('no Scan, no Query but on the indexes a function queries, no S3 write outside the prefixes it writes, no secret it does not read', () => {
        expect(auditLeastPrivilege(target, svc.needs)).toEqual([]);
      });

      test('negative control: planted grants and secrets are reported', () => {
        const planted: AuditTarget = JSON.parse(JSON.stringify(target));
        const [first, second] = Object.keys(planted.functions);
        const tableId = Object.keys(planted.tables)[0]!;
        const tableArn = { 'Fn::GetAtt': [planted.tables[tableId], 'Arn'] };
        const bucketArn = { 'Fn::GetAtt': [planted.bucket, 'Arn'] };
        planted.resources['PlantedPolicy'] = {
          Type: 'AWS::IAM::Policy',
          Properties: {
            Roles: [{ Ref: planted.functions[first!]!.role }],
            PolicyDocument: {
              Statement: [
                { Effect: 'Allow', Action: 'dynamodb:*', Resource: tableArn },
                { Effect: 'Allow', Action: 'dynamodb:Query', Resource: tableArn },
                { Effect: 'Allow', Action: 's3:Put*', Resource: { 'Fn::Join': ['', [bucketArn, '/*']] } },
                {
                  Effect: 'Allow',
                  Action: 's3:DeleteObject',
                  Resource: { 'Fn::Join': ['', [bucketArn, '/x/*']] },
                },
              ],
            },
          },
        };
        const [secret, [reader]] = Object.entries(svc.needs.secrets)[0]! as [string, string[]];
        const env = planted.resources[planted.functions[second!]!.fn]!.Properties.Environment.Variables;
        env[secret] = `{{resolve:secretsmanager:${svc.name}/secrets:SecretString:${secret}::}}`;
        delete planted.resources[planted.functions[reader!]!.fn]!.Properties.Environment.Variables[secret];
        const findings = auditLeastPrivilege(planted, svc.needs);
        expect(findings).toEqual(
          expect.arrayContaining([
            expect.stringMatching(new RegExp(`^${first}: dynamodb:Scan on <Table:${tableId}>$`)),
            expect.stringMatching(new RegExp(`^${first}: dynamodb:Query on <Table:${tableId}> `)),
            `${first}: S3 writes across the whole bucket (<Bucket>/*)`,
            `${first}: writes under x/, which it does not need`,
            `${second}: holds the secret ${secret}, which it does not read`,
            `${reader}: lacks the secret ${secret}, which it reads`,
          ]),
        );
        // A missing write is reported too.
        const missing = { ...svc.needs, bucketWrites: { ...svc.needs.bucketWrites, [first!]: ['y/'] } };
        expect(auditLeastPrivilege(target, missing)).toContain(
          `${first}: may not write under y/, which it needs`,
        );
      });

      test('a manifest write or delete across the whole bucket refuses to synthesize', () => {
        const writer = entries.find((e) => e.access.bucket === 'rw')!;
        const bad = {
          ...m,
          routes: m.routes.map((r) =>
            r.id === writer.id ? { ...r, access: { ...r.access, bucketPrefixes: undefined } } : r,
          ),
          workers: m.workers.map((w) =>
            w.id === writer.id ? { ...w, access: { ...w.access, bucketPrefixes: undefined } } : w,
          ),
        };
        expect(() => new svc.Stack(new App({ context: noBundling }), 'WideWrite', { manifest: bad })).toThrow(
          /needs bucketPrefixes/,
        );
      });
    });

    test('the local-test settings (callback allowlist, DNS stub) reach no function, and cannot be listed', () => {
      const { stack, envOf } = s();
      for (const id of Object.keys(stack.functions)) {
        const env = envOf(id);
        expect({ id, allowlist: 'WEBHOOK_URL_ALLOWLIST' in env, stub: 'WEBHOOK_DNS_STUB' in env }).toEqual({
          id,
          allowlist: false,
          stub: false,
        });
      }
      const target = m.routes.find((r) => r.path !== '$default')!.id;
      const bad = {
        ...m,
        routes: m.routes.map((r) =>
          r.id === target ? { ...r, access: { ...r.access, settings: ['WEBHOOK_URL_ALLOWLIST'] } } : r,
        ),
      };
      expect(() => new svc.Stack(new App({ context: noBundling }), 'Bad', { manifest: bad })).toThrow(
        /local-test setting/,
      );
    });
  });

  describe('S3 bucket', () => {
    const bucketJson = (): Json => s().resources[s().logicalId(s().stack.bucket)]!;

    test('private, SSE, TLS only, access-logged, unversioned, retained', () => {
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
      expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
      s().template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: s().logicalId(s().stack.bucket) },
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

    test(`lifecycle: ${svc.expires.map(([p, d]) => `${p} ${d} d`).join(', ')}, incomplete uploads 1 d`, () => {
      expect(bucketJson().Properties.LifecycleConfiguration.Rules).toEqual(
        expect.arrayContaining([
          ...svc.expires.map(([prefix, days]) =>
            expect.objectContaining({ Prefix: prefix, ExpirationInDays: days, Status: 'Enabled' }),
          ),
          expect.objectContaining({
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
            Status: 'Enabled',
          }),
        ]),
      );
    });

    test('CORS lets pages GET/HEAD what a presigned URL grants (and POST presigned uploads where the manifest says), from any origin', () => {
      expect(bucketJson().Properties.CorsConfiguration.CorsRules).toEqual([
        expect.objectContaining({ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'HEAD'] }),
        ...(m.bucket.cors.uploads
          ? [expect.objectContaining({ AllowedOrigins: ['*'], AllowedMethods: ['POST'] })]
          : []),
      ]);
    });
  });

  describe('DynamoDB tables', () => {
    test('exactly the tables the manifest names', () => {
      const named = new Set(entries.flatMap((r) => Object.keys(r.access.tables ?? {})));
      expect(Object.keys(s().stack.tables).sort()).toEqual([...named].sort());
      expect(Object.keys(s().stack.tables)).toEqual(expect.arrayContaining(svc.tables.map(([id]) => id)));
      s().template.resourceCountIs('AWS::DynamoDB::Table', named.size);
    });

    test.each(svc.tables)('%s: on-demand, PITR, TTL expiresAt, encrypted, retained, pk %s', (id, pk) => {
      const table = s().resources[s().logicalId(s().stack.tables[id]!)]!;
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
      expect(s().resources[s().logicalId(s().stack.tables.keys!)]!.Properties.GlobalSecondaryIndexes).toEqual(
        [
          expect.objectContaining({
            IndexName: 'byEmail',
            KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
          }),
        ],
      );
    });
  });

  describe('queues and workers', () => {
    test('every manifest queue is read by exactly one worker', () => {
      for (const q of m.queues) expect(m.workers.filter((w) => w.queues.includes(q.id))).toHaveLength(1);
      expect(Object.keys(s().stack.queues).sort()).toEqual(m.queues.map((q) => q.id).sort());
    });

    test.each(m.queues.map((q) => [q.id] as const))(
      'queue %s: own DLQ (14 days), SSE, TLS only, redrive after maxReceiveCount, visibility 6 × its worker timeout',
      (id) => {
        const { stack, resources, template, logicalId } = s();
        const { queue, dlq, spec } = stack.queues[id]!;
        const props = resources[logicalId(queue)]!.Properties;
        expect(props.SqsManagedSseEnabled).toBe(true);
        expect(props.RedrivePolicy).toEqual({
          deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(dlq), 'Arn'] },
          maxReceiveCount: spec.maxReceiveCount,
        });
        const reader = m.workers.find((w) => w.queues.includes(id))!;
        expect(props.VisibilityTimeout).toBe(queueVisibilityTimeoutS(reader.timeoutS));
        expect(props.VisibilityTimeout).toBeGreaterThanOrEqual(6 * reader.timeoutS);
        expect(resources[logicalId(dlq)]!.Properties).toMatchObject({
          SqsManagedSseEnabled: true,
          MessageRetentionPeriod: 14 * 24 * 3600,
        });
        for (const q of [queue, dlq])
          template.hasResourceProperties('AWS::SQS::QueuePolicy', {
            Queues: [{ Ref: logicalId(q) }],
            PolicyDocument: {
              Statement: Match.arrayWith([
                Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
              ]),
            },
          });
      },
    );

    test('no two queues share a DLQ', () => {
      const dlqs = Object.values(s().stack.queues).map((q) => s().logicalId(q.dlq));
      expect(new Set(dlqs).size).toBe(m.queues.length);
    });

    test.each(m.workers.map((w) => [w.id, w] as const))(
      'worker %s: fed by its queues (batch 1, partial failures, capped concurrency), MAX_RECEIVE_COUNT and queue URLs set',
      (id, spec) => {
        const { stack, template, logicalId, fnOf, envOf, actionsOf, propsOf } = s();
        const mappings = Object.values(
          template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Json>,
        ).filter((x) => x.Properties.FunctionName.Ref === logicalId(fnOf(id).fn));
        expect(mappings).toHaveLength(spec.queues.length);
        for (const queueId of spec.queues) {
          const { queue, spec: queueSpec } = stack.queues[queueId]!;
          template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
            EventSourceArn: { 'Fn::GetAtt': [logicalId(queue), 'Arn'] },
            FunctionName: { Ref: logicalId(fnOf(id).fn) },
            BatchSize: 1,
            FunctionResponseTypes: ['ReportBatchItemFailures'],
            ScalingConfig: { MaximumConcurrency: queueSpec.maxConcurrency },
          });
          expect(envOf(id).MAX_RECEIVE_COUNT).toBe(String(queueSpec.maxReceiveCount));
          expect(envOf(id)[queueSpec.envVar]).toEqual({ Ref: logicalId(queue) });
        }
        // It consumes its own queues (the event source's grant, ChangeMessageVisibility included for retries).
        expect(actionsOf(fnOf(id))).toEqual(
          expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
        );
        const tmp = spec.packaging === 'image' ? Math.max(spec.tmpMb, IMAGE_MIN_TMP_MB) : spec.tmpMb;
        expect(propsOf(id).EphemeralStorage).toEqual({ Size: tmp });
      },
    );

    test('event sources: one per queue a worker reads, nothing else', () => {
      s().template.resourceCountIs(
        'AWS::Lambda::EventSourceMapping',
        m.workers.reduce((n, w) => n + w.queues.length, 0),
      );
    });
  });

  describe('cdk-nag AwsSolutions', () => {
    test('synthesizes with the pack as a validation plugin', () => {
      expect(s().nagSynthError).toBeUndefined();
    });

    test('zero unacknowledged errors and warnings', () => {
      const findings = s().nagReport.violations.map(
        (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
      );
      expect(findings).toEqual([]);
    });

    test('no CDK error or warning annotations', () => {
      const annotations = Annotations.fromStack(s().stack);
      const messages = [
        ...annotations.findError('*', Match.anyValue()),
        ...annotations.findWarning('*', Match.anyValue()),
      ].map((a) => `${a.id}: ${String(a.entry.data)}`);
      expect(messages).toEqual([]);
    });
  });
});

describe('narration only', () => {
  const s = synthOf(NARRATION);

  test('the contract paths, and $default (fallback for unknown paths)', () => {
    for (const key of ['$default', 'GET /voices', 'GET /audio/{audio_id}'])
      s().template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
  });

  test('the functions of the site, growth and feeds routes are in nested stacks: in one template the service would be over 400 resources', () => {
    const { stack, resources } = s();
    expect(Object.keys(stack.service.nestedStacks).sort()).toEqual(['feeds', 'growth', 'meta']);
    for (const id of ['SitePage', 'Stats', 'FeedCreate']) expect(Stack.of(s().fnOf(id)).nested).toBe(true);
    for (const id of ['ConvertText', 'Worker', 'FeedScheduler']) expect(Stack.of(s().fnOf(id))).toBe(stack);
    // The control of the 400-resource check above: the same resources joined in one template.
    expect(Object.keys(resources).length).toBeGreaterThan(400);
  });

  test('feeds: EventBridge Scheduler invokes FeedScheduler every 5 min through a role that may do only that, with retries and an alarmed DLQ', () => {
    const { stack, template, logicalId } = s();
    const schedules = Object.values(
      template.findResources('AWS::Scheduler::Schedule') as Record<string, Json>,
    );
    expect(schedules).toHaveLength(1);
    const { schedule, role, dlq } = stack.service.schedules['FeedScheduler']!;
    const props = schedules[0]!.Properties;
    expect(props).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: { 'Fn::GetAtt': [logicalId(stack.functions['FeedScheduler']!.fn), 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [logicalId(role), 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalId(dlq), 'Arn'] } },
        RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 300 },
      },
    });
    expect(schedule.scheduleExpression).toBe('rate(5 minutes)');
    // The role: assumed by EventBridge Scheduler of this account only; invoke that one function, send to its DLQ.
    const roleProps = (template.findResources('AWS::IAM::Role') as Record<string, Json>)[logicalId(role)]!
      .Properties;
    expect(roleProps.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    ]);
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Json>).filter(
      (pol) => JSON.stringify(pol.Properties.Roles).includes(logicalId(role)),
    );
    const statements = policies.flatMap((pol) => pol.Properties.PolicyDocument.Statement as Json[]);
    const actions = statements.flatMap((st) => [st.Action].flat()).sort();
    expect(actions).toEqual([
      'lambda:InvokeFunction',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    const invoke = statements.find((st) => st.Action === 'lambda:InvokeFunction')!;
    expect(invoke.Resource).toEqual({
      'Fn::GetAtt': [logicalId(stack.functions['FeedScheduler']!.fn), 'Arn'],
    });
    // The DLQ is alarmed like every DLQ.
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Json>);
    expect(
      alarms.filter(
        (a) =>
          a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' &&
          JSON.stringify(a.Properties.Dimensions).includes(logicalId(dlq)),
      ),
    ).toHaveLength(1);
  });

  test('feeds: the poll and article queues feed their workers, each with a DLQ', () => {
    const { stack } = s();
    for (const [q, worker] of [
      ['feedpolls', 'FeedPollWorker'],
      ['feedarticles', 'FeedArticleWorker'],
    ] as const) {
      expect(stack.queues[q]!.spec.maxReceiveCount).toBe(3);
      expect(narrationManifest.workers.find((w) => w.id === worker)!.queues).toEqual([q]);
    }
  });

  test('visibility timeout: 6 × worker timeout, capped at 12 h', () => {
    expect(queueVisibilityTimeoutS(900)).toBe(5400);
    expect(queueVisibilityTimeoutS(10_000)).toBe(43_200);
    expect(queueVisibilityTimeoutS(60, 5)).toBe(365);
  });

  test('worker: fed by the priority and standard queues, 3 receives, standard capped below priority', () => {
    const { stack, template, logicalId } = s();
    const [worker] = narrationManifest.workers;
    expect(worker!.queues.sort()).toEqual(['priority', 'standard']);
    for (const q of ['priority', 'standard']) expect(stack.queues[q]!.spec.maxReceiveCount).toBe(3);
    const concurrency = (q: string): number =>
      Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Json>).find(
        (x) => x.Properties.EventSourceArn['Fn::GetAtt'][0] === logicalId(stack.queues[q]!.queue),
      )!.Properties.ScalingConfig.MaximumConcurrency as number;
    expect(concurrency('standard')).toBeGreaterThanOrEqual(2);
    expect(concurrency('standard')).toBeLessThan(concurrency('priority'));
  });

  test('Voices has no data-plane access at all', () => {
    const actions = s().actionsOf(s().fnOf('Voices'));
    expect(actions.filter((a) => /^(dynamodb|s3|sqs|polly):/.test(a))).toEqual([]);
  });

  test('GetAudio only reads (and deletes the files of an expired audio: see the retention test)', () => {
    const actions = s().actionsOf(s().fnOf('GetAudio'));
    for (const write of [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      's3:PutObject',
      'sqs:SendMessage',
    ]) {
      expect(actions).not.toContain(write);
    }
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 's3:GetObject']));
  });

  test('PDF uploads: ConvertPdfUpload may only PutObject under uploads/ and touch upload# items; browsers may POST; uploads/ expires in a day', () => {
    const { stack, logicalId, fnOf, statementsOf, envOf } = s();
    const bucketId = logicalId(stack.bucket);
    const s3 = statementsOf(fnOf('ConvertPdfUpload')).filter((st) =>
      [st.Action].flat().some((a) => a.startsWith('s3:')),
    );
    expect(s3).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 's3:PutObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/uploads/*']] },
      }),
    ]);
    const audioTable = logicalId(stack.tables.audio!);
    const onAudio = statementsOf(fnOf('ConvertPdfUpload')).filter((st) =>
      JSON.stringify(st.Resource).includes(audioTable),
    );
    expect(onAudio).toHaveLength(1);
    expect(onAudio[0]!.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${UPLOAD_ITEM_PREFIX}*`] },
    });
    expect([onAudio[0]!.Action].flat().filter((a) => /Scan|Query/.test(a))).toEqual([]);
    expect(Object.keys(envOf('ConvertPdfUpload'))).toEqual(
      expect.arrayContaining(['AUDIO_TABLE', 'AUDIO_BUCKET', 'QUOTAS_TABLE', 'KEYS_TABLE']),
    );
    // ConvertPdf reads, then deletes, the uploaded file.
    expect(s().actionsOf(fnOf('ConvertPdf'))).toEqual(
      expect.arrayContaining(['s3:GetObject', 's3:DeleteObject']),
    );
    const bucket = s().resources[bucketId]!.Properties;
    expect(bucket.CorsConfiguration.CorsRules).toContainEqual(
      expect.objectContaining({
        AllowedOrigins: ['*'],
        AllowedMethods: ['POST'],
        ExposedHeaders: expect.arrayContaining(['ETag']),
      }),
    );
    expect(bucket.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Prefix: UPLOAD_PREFIX.prefix, ExpirationInDays: 1, Status: 'Enabled' }),
    );
    expect(UPLOAD_PREFIX.prefix).toBe('uploads/');
  });

  test('retention: one tag-filtered lifecycle rule per retention_days below 30 (audio/ tagged retention-days=<n> goes after n days); writers may tag; the audio GET routes may delete, not write', () => {
    const { stack, logicalId, fnOf } = s();
    const rules = s().resources[logicalId(stack.bucket)]!.Properties.LifecycleConfiguration.Rules as {
      Prefix?: string;
      ExpirationInDays?: number;
      TagFilters?: { Key: string; Value: string }[];
      Status: string;
    }[];
    const tagged = rules.filter((r) => r.TagFilters);
    expect(tagged).toHaveLength(29);
    for (let d = 1; d < 30; d++)
      expect(tagged).toContainEqual(
        expect.objectContaining({
          Prefix: 'audio/',
          ExpirationInDays: d,
          TagFilters: [{ Key: RETENTION_TAG, Value: String(d) }],
          Status: 'Enabled',
        }),
      );
    expect(RETENTION_TAG).toBe('retention-days');
    expect(rules.length).toBeLessThanOrEqual(1000); // S3's limit per bucket
    for (const writer of ['ConvertText', 'ConvertPdf', 'ConvertUrl', 'Worker'])
      expect(s().actionsOf(fnOf(writer))).toContain('s3:PutObjectTagging');
    for (const reader of ['GetAudio', 'GetTimings', 'AudioSegment']) {
      const actions = s().actionsOf(fnOf(reader));
      expect(actions).toEqual(expect.arrayContaining(['s3:GetObject', 's3:DeleteObject']));
      expect(actions).not.toContain('s3:PutObject');
    }
  });

  test('ConvertText gets every variable the runtime reads, with the exact names', () => {
    const env = s().envOf('ConvertText');
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining([
        'AUDIO_TABLE',
        'QUOTAS_TABLE',
        'KEYS_TABLE',
        'AUDIO_BUCKET',
        'AUDIO_TTL_DAYS',
        'PRIORITY_QUEUE_URL',
        'STANDARD_QUEUE_URL',
        'SPEECH_ENGINE',
      ]),
    );
    expect(env.SPEECH_ENGINE).toBe('polly');
    expect(env.AUDIO_TTL_DAYS).toBe('30');
  });

  test('every function that narrates updates the public /stats counters: it gets GROWTH_TABLE and may write it', () => {
    // A narration finished inline (convert routes, demo) or by the worker adds to /stats; without the table the
    // counters silently stay at zero in the cloud (the conversion still succeeds).
    for (const id of ['ConvertText', 'ConvertPdf', 'ConvertUrl', 'DemoTry', 'Worker']) {
      expect([id, s().envOf(id).GROWTH_TABLE]).toEqual([id, expect.anything()]);
      expect([id, s().actionsOf(s().fnOf(id))]).toEqual([
        id,
        expect.arrayContaining(['dynamodb:UpdateItem']),
      ]);
    }
  });

  describe('deployment settings', () => {
    test('secrets come from Secrets Manager only to the functions that read them; plain settings from context', () => {
      const app = new App({
        context: {
          ...noBundling,
          'narration:secretName': 'narration/secrets',
          'narration:STRIPE_PRICE_PRO': 'price_pro_123',
        },
      });
      const t = flat(new NarrationStack(app, 'Settings')).toJSON() as {
        Resources: Record<
          string,
          { Type: string; Properties: { Environment?: { Variables?: Record<string, unknown> } } }
        >;
      };
      const fns = Object.values(t.Resources).filter((r) => r.Type === 'AWS::Lambda::Function');
      const withWebhookSecret = fns.filter(
        (f) => f.Properties.Environment?.Variables?.STRIPE_WEBHOOK_SECRET !== undefined,
      );
      expect(withWebhookSecret).toHaveLength(1);
      expect(
        JSON.stringify(withWebhookSecret[0]!.Properties.Environment!.Variables!.STRIPE_WEBHOOK_SECRET),
      ).toContain('resolve:secretsmanager:narration/secrets:SecretString:STRIPE_WEBHOOK_SECRET');
      const withPrice = fns.filter(
        (f) => f.Properties.Environment?.Variables?.STRIPE_PRICE_PRO === 'price_pro_123',
      );
      expect(withPrice).toHaveLength(2); // PayCheckout (the checkout) and PayWebhook (plan switches in the portal)
    });

    test('secretVersionId pins every secret reference to that version (one deploy after a rotation)', () => {
      const app = new App({
        context: {
          ...noBundling,
          'narration:secretName': 'narration/secrets',
          'narration:secretVersionId': 'v-2026-11-21',
        },
      });
      const refs = JSON.stringify(flat(new NarrationStack(app, 'Pinned')).toJSON()).match(
        /resolve:secretsmanager:[^}"]*/g,
      );
      expect(refs?.length).toBeGreaterThanOrEqual(3);
      for (const ref of refs!) expect(ref).toMatch(/:SecretString:[A-Z_]+::v-2026-11-21$/);
    });

    test('without settings, nothing secret is wired (the routes answer 503 naming the variable)', () => {
      const bare = flat(new NarrationStack(new App({ context: noBundling }), 'Bare')).toJSON();
      const vars = Object.values(bare.Resources as Record<string, Json>)
        .filter((r) => r.Type === 'AWS::Lambda::Function')
        .flatMap((f) => Object.keys((f.Properties.Environment?.Variables ?? {}) as Json));
      expect(vars).not.toContain('STRIPE_SECRET_KEY');
      expect(vars).not.toContain('DASHBOARD_TOKEN');
    });

    test('queue concurrency caps come from context', () => {
      const app = new App({ context: { ...noBundling, 'narration:standardConcurrency': 2 } });
      flat(new NarrationStack(app, 'Capped')).hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        ScalingConfig: { MaximumConcurrency: 2 },
      });
    });
  });
});

describe('documents only', () => {
  const s = synthOf(DOCUMENTS);
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
    const build = require('../../lambdas/documents/image/build.cjs') as {
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
      // CFDI batches: StartBatch queues the split; the batch worker queues parts, the assembly and a refused
      // batch's webhook event; the assembler queues the finished batch's event.
      expect(sendsTo('StartBatch')).toEqual([arn('batch')]);
      expect(sendsTo('BatchWorker')).toEqual([`[${arn('assemble')},${arn('batch')},${arn('deliveries')}]`]);
      expect(sendsTo('BatchAssembler')).toEqual([arn('deliveries')]);
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
        BatchWorker: { prefixes: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX], writes: true },
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
});

function listTs(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listTs(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}
