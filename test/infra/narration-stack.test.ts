// Infra layer: CloudFormation assertions on NarrationStack, built from the same route manifest the local runtime
// serves, plus cdk-nag's AwsSolutions pack. The app is synthesized once for the whole file, with real esbuild
// bundling of every handler (so an unresolvable import fails here, not at deploy time).
// INFRA_SKIP_BUNDLING=1 skips bundling (CDK's own `aws:cdk:bundling-stacks` switch) for quick iteration.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, type CfnElement, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { PolicyValidationPluginReport } from 'aws-cdk-lib';
import { narrationManifest } from '../../lambdas/narration/routes';
import type { Access } from '../../lambdas/shared/manifest';
import type { ServiceFunction } from '../../lib/constructs/service-function';
import { MAX_RECEIVE_COUNT, NarrationStack, queueVisibilityTimeoutS } from '../../lib/narration-stack';

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

let stack: NarrationStack;
let template: Template;
let nagReport: PolicyValidationPluginReport;
let nagSynthError: unknown;

beforeAll(() => {
  const context: Record<string, unknown> = { ...cdkJson.context };
  if (process.env.INFRA_SKIP_BUNDLING === '1') context['aws:cdk:bundling-stacks'] = [];
  stack = new NarrationStack(new App({ context }), 'Narration');
  template = Template.fromStack(stack);

  // cdk-nag as in bin/app.ts: the pack runs as a policy-validation plugin during synth, and an unacknowledged
  // finding makes synth throw. A second app (bundling skipped: the pack reads the construct tree, not the bundles)
  // keeps such a failure to the cdk-nag tests below; the pack's own report names the rule and resource.
  const nagApp = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  new NarrationStack(nagApp, 'Narration');
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

const fnOf = (id: string): ServiceFunction => {
  const fn = stack.functions[id];
  if (!fn) throw new Error(`stack has no function ${id}`);
  return fn;
};

function statementsOf(fn: ServiceFunction): Statement[] {
  const roleId = logicalId(fn.role);
  return Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Json>)
    .filter((p) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const actionsOf = (fn: ServiceFunction): string[] =>
  statementsOf(fn).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

const allEntries = [...narrationManifest.routes, ...narrationManifest.workers] as {
  id: string;
  access: Access;
  memoryMb: number;
  timeoutS: number;
}[];

describe('HTTP API from the manifest', () => {
  test('one route per manifest entry, each integrated with its own Lambda', () => {
    const routes = template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Json>;
    expect(Object.keys(routes)).toHaveLength(narrationManifest.routes.length);
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Json>;
    const targets = new Set<string>();
    for (const spec of narrationManifest.routes) {
      const routeKey = spec.path === '$default' ? '$default' : `${spec.method} ${spec.path}`;
      const route = Object.values(routes).find((r) => r.Properties.RouteKey === routeKey);
      expect(route).toBeDefined();
      const integrationId = route!.Properties.Target['Fn::Join'][1][1].Ref as string;
      const integration = integrations[integrationId]!;
      expect(integration.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
      });
      const fnId = logicalId(fnOf(spec.id).fn);
      expect(integration.Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
      targets.add(fnId);
    }
    expect(targets.size).toBe(narrationManifest.routes.length);
  });

  test('the $default route exists (fallback for unknown paths)', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /voices' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /audio/{audio_id}' });
  });

  test('default stage: auto-deploy, access logs, throttling', () => {
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

  test('outputs: API URL and resource names', () => {
    const outputs = Object.keys(template.findOutputs('*'));
    expect(outputs).toEqual(
      expect.arrayContaining([
        'ApiUrl',
        'AudioBucketName',
        'AudioTableName',
        'QuotasTableName',
        'KeysTableName',
      ]),
    );
  });
});

describe('functions', () => {
  test('one Lambda per manifest entry, all with the fixed defaults', () => {
    const fns = template.findResources('AWS::Lambda::Function') as Record<string, Json>;
    expect(Object.keys(fns)).toHaveLength(allEntries.length);
    for (const fn of Object.values(fns)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        Environment: {
          Variables: {
            NODE_OPTIONS: '--enable-source-maps',
            POWERTOOLS_SERVICE_NAME: 'narration',
            LOG_LEVEL: 'INFO',
          },
        },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
      const logGroup = template.toJSON().Resources[fn.Properties.LoggingConfig.LogGroup.Ref];
      expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
      expect(logGroup.Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });

  test('memory and timeout come from the manifest', () => {
    for (const spec of allEntries) {
      const props = template.toJSON().Resources[logicalId(fnOf(spec.id).fn)].Properties;
      expect(props.MemorySize).toBe(spec.memoryMb);
      expect(props.Timeout).toBe(spec.timeoutS);
    }
  });

  test('roles carry no managed policies (no AWSLambdaBasicExecutionRole: logs only to their own group)', () => {
    for (const role of Object.values(template.findResources('AWS::IAM::Role') as Record<string, Json>)) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('IAM least privilege, strictly from each entry’s access', () => {
  test.each(allEntries.map((e) => [e.id, e] as const))('%s', (_id, spec) => {
    const fn = fnOf(spec.id);
    const actions = actionsOf(fn);
    const env = template.toJSON().Resources[logicalId(fn.fn)].Properties.Environment.Variables as Record<
      string,
      unknown
    >;
    const { tables = {}, bucket, sendJobs, speech } = spec.access;

    // DynamoDB: only the tables listed, writes only where 'rw'.
    const tableEnv = { audio: 'AUDIO_TABLE', quotas: 'QUOTAS_TABLE', keys: 'KEYS_TABLE' } as const;
    const ddbStatements = statementsOf(fn).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('dynamodb:')),
    );
    const touched = new Set(
      JSON.stringify(ddbStatements.map((s) => s.Resource)).match(/[A-Za-z]+Table[0-9A-F]{8}/g) ?? [],
    );
    for (const id of ['audio', 'quotas', 'keys'] as const) {
      const tableId = logicalId(stack.tables[id]);
      expect({ id, touched: touched.has(tableId) }).toEqual({ id, touched: tables[id] !== undefined });
      expect({ id, env: tableEnv[id] in env }).toEqual({ id, env: tables[id] !== undefined });
      const writes = ddbStatements
        .filter((s) => JSON.stringify(s.Resource).includes(tableId))
        .flatMap((s) => [s.Action].flat())
        .filter((a) => /Put|Update|Delete|BatchWrite/.test(a));
      expect({ id, writes: writes.length > 0 }).toEqual({ id, writes: tables[id] === 'rw' });
    }
    if (Object.keys(tables).length === 0)
      expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual([]);

    // S3
    const s3Actions = actions.filter((a) => a.startsWith('s3:'));
    if (!bucket) expect(s3Actions).toEqual([]);
    else expect(s3Actions).toContain('s3:GetObject');
    expect(s3Actions.includes('s3:PutObject')).toBe(bucket === 'rw');
    expect(s3Actions.every((a) => !a.includes('*'))).toBe(true);
    expect('AUDIO_BUCKET' in env).toBe(bucket !== undefined);

    // SQS: sending only where sendJobs; consuming only for the worker (event sources).
    expect(actions.includes('sqs:SendMessage')).toBe(sendJobs === true);
    expect('PRIORITY_QUEUE_URL' in env && 'STANDARD_QUEUE_URL' in env).toBe(sendJobs === true);
    const isWorker = narrationManifest.workers.some((w) => w.id === spec.id);
    expect(actions.includes('sqs:ReceiveMessage')).toBe(isWorker);

    // Polly
    expect(actions.includes('polly:SynthesizeSpeech')).toBe(speech === true);
    expect(actions.filter((a) => a.startsWith('polly:') && a !== 'polly:SynthesizeSpeech')).toEqual([]);
    if (speech) expect(env.SPEECH_ENGINE).toBe('polly');

    // Nothing else but logs and X-Ray.
    const known = /^(dynamodb|s3|sqs|polly|logs|xray):/;
    expect(actions.filter((a) => !known.test(a))).toEqual([]);
    expect(actions.some((a) => a.endsWith(':*') || a === '*')).toBe(false);
  });

  test('Voices has no data-plane access at all', () => {
    const actions = actionsOf(fnOf('Voices'));
    expect(actions.filter((a) => /^(dynamodb|s3|sqs|polly):/.test(a))).toEqual([]);
  });

  test('GetAudio only reads', () => {
    const actions = actionsOf(fnOf('GetAudio'));
    for (const write of [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      's3:PutObject',
      's3:DeleteObject',
      'sqs:SendMessage',
    ]) {
      expect(actions).not.toContain(write);
    }
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 's3:GetObject']));
  });

  test('ConvertText gets every variable the runtime reads, with the exact names', () => {
    const env =
      template.toJSON().Resources[logicalId(fnOf('ConvertText').fn)].Properties.Environment.Variables;
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining([
        'AUDIO_TABLE',
        'QUOTAS_TABLE',
        'KEYS_TABLE',
        'AUDIO_BUCKET',
        'PRIORITY_QUEUE_URL',
        'STANDARD_QUEUE_URL',
        'SPEECH_ENGINE',
      ]),
    );
    expect(env.SPEECH_ENGINE).toBe('polly');
  });
});

describe('S3 audio bucket', () => {
  const audioBucket = (): Json => template.toJSON().Resources[logicalId(stack.bucket)];

  test('private, encrypted, TLS only, access-logged, retained', () => {
    const bucket = audioBucket();
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

  test('lifecycle: audio/ 30 days, jobs/ 2 days, incomplete uploads aborted after 1 day', () => {
    const rules = audioBucket().Properties.LifecycleConfiguration.Rules as Json[];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Prefix: 'audio/', ExpirationInDays: 30, Status: 'Enabled' }),
        expect.objectContaining({ Prefix: 'jobs/', ExpirationInDays: 2, Status: 'Enabled' }),
        expect.objectContaining({
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          Status: 'Enabled',
        }),
      ]),
    );
  });

  test('CORS lets the embeddable player GET/HEAD from any origin', () => {
    expect(audioBucket().Properties.CorsConfiguration.CorsRules).toEqual([
      expect.objectContaining({ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'HEAD'] }),
    ]);
  });
});

describe('DynamoDB tables', () => {
  test.each([
    ['audio', 'audioId'],
    ['quotas', 'pk'],
    ['keys', 'keyHash'],
  ] as const)('%s: on-demand, PITR, TTL expiresAt, encrypted, retained, pk %s', (id, pk) => {
    const table = template.toJSON().Resources[logicalId(stack.tables[id])];
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
    const table = template.toJSON().Resources[logicalId(stack.tables.keys)];
    expect(table.Properties.GlobalSecondaryIndexes).toEqual([
      expect.objectContaining({
        IndexName: 'byEmail',
        KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
      }),
    ]);
  });
});

describe('SQS and the worker', () => {
  const worker = narrationManifest.workers[0]!;

  test('visibility timeout: 6 × worker timeout, capped at 12 h', () => {
    expect(queueVisibilityTimeoutS(900)).toBe(5400);
    expect(queueVisibilityTimeoutS(10_000)).toBe(43_200);
    expect(queueVisibilityTimeoutS(60, 5)).toBe(365);
  });

  test.each([['priorityQueue'], ['standardQueue']] as const)('%s: own DLQ, encrypted, TLS only', (key) => {
    const queue = stack[key];
    const props = template.toJSON().Resources[logicalId(queue)].Properties;
    expect(props.SqsManagedSseEnabled).toBe(true);
    expect(props.VisibilityTimeout).toBe(queueVisibilityTimeoutS(worker.timeoutS));
    const dlqId = props.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;
    expect(props.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
    const dlq = template.toJSON().Resources[dlqId];
    expect(dlq.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    for (const id of [logicalId(queue), dlqId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  test('the two queues have different DLQs', () => {
    const dlqOf = (q: 'priorityQueue' | 'standardQueue'): string =>
      template.toJSON().Resources[logicalId(stack[q])].Properties.RedrivePolicy.deadLetterTargetArn[
        'Fn::GetAtt'
      ][0];
    expect(dlqOf('priorityQueue')).not.toBe(dlqOf('standardQueue'));
  });

  test('worker: fed by both queues, batch 1, partial batch failures, standard capped below priority', () => {
    const workerId = logicalId(fnOf(worker.id).fn);
    const mappings = Object.values(
      template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Json>,
    );
    expect(mappings).toHaveLength(2);
    const bySource = (q: 'priorityQueue' | 'standardQueue'): Json => {
      const m = mappings.find((x) => x.Properties.EventSourceArn['Fn::GetAtt'][0] === logicalId(stack[q]));
      expect(m).toBeDefined();
      expect(m!.Properties).toMatchObject({
        FunctionName: { Ref: workerId },
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      return m!;
    };
    const priority = bySource('priorityQueue').Properties.ScalingConfig.MaximumConcurrency as number;
    const standard = bySource('standardQueue').Properties.ScalingConfig.MaximumConcurrency as number;
    expect(standard).toBeGreaterThanOrEqual(2);
    expect(standard).toBeLessThan(priority);
  });

  test('worker ephemeral storage and receive count come from the manifest / queue config', () => {
    const props = template.toJSON().Resources[logicalId(fnOf(worker.id).fn)].Properties;
    expect(props.EphemeralStorage).toEqual({ Size: worker.tmpMb });
    expect(props.Environment.Variables.MAX_RECEIVE_COUNT).toBe(String(MAX_RECEIVE_COUNT));
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

describe('deployment settings', () => {
  test('secrets come from Secrets Manager only to the functions that read them; plain settings from context', () => {
    const app = new App({
      context: {
        ...cdkJson.context,
        'aws:cdk:bundling-stacks': [],
        'narration:secretName': 'narration/secrets',
        'narration:STRIPE_PRICE_PRO': 'price_pro_123',
      },
    });
    const s = new NarrationStack(app, 'Settings');
    const t = Template.fromStack(s).toJSON() as {
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
        ...cdkJson.context,
        'aws:cdk:bundling-stacks': [],
        'narration:secretName': 'narration/secrets',
        'narration:secretVersionId': 'v-2026-11-21',
      },
    });
    const refs = JSON.stringify(Template.fromStack(new NarrationStack(app, 'Pinned')).toJSON()).match(
      /resolve:secretsmanager:[^}"]*/g,
    );
    expect(refs?.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs!) expect(ref).toMatch(/:SecretString:[A-Z_]+::v-2026-11-21$/);
  });

  test('without settings, nothing secret is wired (the routes answer 503 naming the variable)', () => {
    const vars = Object.values(
      template.toJSON().Resources as Record<
        string,
        { Type: string; Properties: { Environment?: { Variables?: Record<string, unknown> } } }
      >,
    )
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .flatMap((f) => Object.keys(f.Properties.Environment?.Variables ?? {}));
    expect(vars).not.toContain('STRIPE_SECRET_KEY');
    expect(vars).not.toContain('DASHBOARD_TOKEN');
  });
});
