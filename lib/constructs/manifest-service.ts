// ManifestService: the one interpreter of a service's route manifest (lambdas/<service>/routes.ts, the same data
// bin/local.ts serves from) on AWS. One Lambda per manifest route behind one HTTP API; one worker per manifest worker
// fed by its queues (each with a DLQ); the DynamoDB tables the manifest names (lib/tables.ts), the service's S3 bucket
// (lambdas/<service>/bucket.ts) and, when an entry asks for `packaging: 'image'`, one container image. Permissions
// are granted strictly from each entry's `access` (./grants.ts; the bucket is ./service-bucket.ts). ManifestStack
// is a Stack holding one ManifestService under the id 'Default', which CDK leaves out of logical ids: the resources
// keep the ids they had when each stack built them.
//
// Configuration (all optional; `cdk deploy -c <service>:key=value` or cdk.json "context"): docs/deploy.md.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CfnOutput,
  Duration,
  IgnoreMode,
  NestedStack,
  Stack,
  Validations,
  type StackProps,
} from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { DockerImageAsset, Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type {
  Access,
  QueueSpec,
  RouteSpec,
  ScheduleSpec,
  ServiceManifest,
  TableId,
  WorkerSpec,
} from '../../lambdas/shared/manifest';
import { IMAGE_MIN_TMP_MB, ImageServiceFunction } from './image-function';
import { loggedHttpApi } from './logged-http-api';
import type { ServiceName } from '../../lambdas/shared/observability/names';
import { ServiceAlarms } from './service-alarms';
import { ServiceFunction } from './service-function';
import type { ServiceFunctionBase } from './service-function-base';
import { serviceTable } from './service-table';
import { serviceBucket } from './service-bucket';
import { grantAccess } from './grants';
import { settingsBinder } from './settings';
import { ZipBundles } from './zip-bundles';

/** SQS's maximum visibility timeout. */
const MAX_VISIBILITY_S = 12 * 60 * 60;

/**
 * Visibility timeout of a queue feeding a Lambda: AWS asks for at least 6 × the function timeout plus the batching
 * window, so a message is not handed to a second invocation while throttled retries of the first are still pending.
 * SQS caps it at 12 hours.
 */
export function queueVisibilityTimeoutS(workerTimeoutS: number, batchingWindowS = 0): number {
  return Math.min(6 * workerTimeoutS + batchingWindowS, MAX_VISIBILITY_S);
}

const capitalize = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;

export interface ManifestServiceProps {
  manifest: ServiceManifest;
  /** Repository root: handler paths in the manifest are relative to it; the image's build context. */
  projectRoot: string;
  /** Description of the HTTP API. */
  apiDescription: string;
  /** Why the routes have no API Gateway authorizer (cdk-nag AwsSolutions-APIG4). */
  publicApiReason: string;
  /** Name of a queue in the alarms and dashboard. @default `<Id>Queue`, its construct id */
  queueLabel?: (queueId: string) => string;
  /**
   * API tags (a route's `docs.tags`) whose route functions are defined in a nested stack per tag
   * (`<Tag>Functions`), to keep the service's own template under CloudFormation's 500 resources. Only each
   * function with its role, policies and log group moves: its route, integration and invoke permission, and every
   * table, bucket, queue, alarm and schedule stay in the service's stack, so no stateful resource changes its
   * logical id. @default none
   */
  nestedTags?: readonly string[];
}

export class ManifestService extends Construct {
  readonly api: HttpApi;
  readonly apiUrl: string;
  readonly functions: Record<string, ServiceFunctionBase> = {};
  readonly bucket: s3.Bucket;
  /** Only the tables some manifest entry names. */
  readonly tables: Partial<Record<TableId, dynamodb.Table>>;
  /** The one image every `packaging: 'image'` entry runs (undefined when the manifest has none). */
  readonly image?: DockerImageAsset;
  /** The manifest's queues by id, each with its DLQ. */
  readonly queues: Record<string, { queue: sqs.Queue; dlq: sqs.Queue; spec: QueueSpec }> = {};
  /** Alarms (→ SNS topic) and the dashboard: docs/operations/alarms.md. */
  readonly observability: ServiceAlarms;
  /** The manifest's schedules by id: the EventBridge Scheduler schedule, its role and its DLQ. */
  readonly schedules: Record<
    string,
    { schedule: scheduler.CfnSchedule; role: iam.Role; dlq: sqs.Queue; spec: ScheduleSpec }
  > = {};
  /** The nested stacks of `nestedTags`, by tag (only those that hold a function). */
  readonly nestedStacks: Record<string, NestedStack> = {};

  constructor(scope: Construct, id: string, props: ManifestServiceProps) {
    super(scope, id);
    const { manifest, projectRoot } = props;
    const service = manifest.service;
    const ctx = (key: string, fallback: number): number => {
      const raw: unknown = this.node.tryGetContext(`${service}:${key}`);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!Number.isFinite(n))
        throw new Error(`Context ${service}:${key} must be a number (got ${String(raw)}).`);
      return n;
    };
    const logLevel = String(this.node.tryGetContext(`${service}:logLevel`) ?? 'INFO');
    const logRetention = ctx('logRetentionDays', 30) as logs.RetentionDays;
    const entries: (RouteSpec | WorkerSpec | ScheduleSpec)[] = [
      ...manifest.routes,
      ...manifest.workers,
      ...(manifest.schedules ?? []),
    ];

    // ---------------------------------------------------------------- DynamoDB
    // Shapes (keys, indexes, env var names) come from lib/tables.ts, which the local emulator setup reads too.
    const tableIds = [
      ...new Set(entries.flatMap((r) => Object.keys(r.access.tables ?? {}) as TableId[])),
    ].sort();
    this.tables = Object.fromEntries(tableIds.map((t) => [t, serviceTable(this, t)]));

    // ---------------------------------------------------------------- S3
    this.bucket = serviceBucket(this, manifest);

    // ---------------------------------------------------------------- Container image
    const imageEntries = entries.filter((r) => r.packaging === 'image');
    if (imageEntries.length > 0) {
      const dockerfile = manifest.dockerfile;
      if (!dockerfile) throw new Error(`${service}: image entries need the manifest's dockerfile.`);
      // Without the allowlist the context would be the whole repository, node_modules and cdk.out included.
      if (!fs.existsSync(path.join(projectRoot, '.dockerignore')))
        throw new Error(
          `${projectRoot}/.dockerignore is missing: it narrows the build context of ${dockerfile}.`,
        );
      // `cdk synth` only fingerprints and stages the context (no Docker, no network); `cdk deploy` builds and pushes.
      this.image = new DockerImageAsset(this, 'RendererImage', {
        directory: projectRoot,
        file: dockerfile,
        // /.dockerignore (an allowlist) is applied by Docker at build time and by CDK when it fingerprints and
        // stages the context at synth: node_modules, cdk.out, .data and tests are never walked or hashed.
        ignoreMode: IgnoreMode.DOCKER,
        platform: Platform.LINUX_AMD64,
        // The handlers to bundle come from the manifest, so a new one needs no Dockerfile change.
        buildArgs: { HANDLER_ENTRIES: imageEntries.map((r) => r.handler).join(' ') },
      });
    }

    // ---------------------------------------------------------------- SQS
    // One queue per manifest queue, each with its DLQ: encrypted (SSE-SQS), TLS only. The visibility timeout follows
    // the timeout of the worker reading it (AWS: at least 6 x); retries set their own delay per message.
    for (const spec of manifest.queues) {
      const reader = manifest.workers.find((w) => w.queues.includes(spec.id));
      if (!reader) throw new Error(`Queue ${spec.id}: no worker of the manifest reads it.`);
      const logical = `${capitalize(spec.id)}Queue`;
      const dlq = new sqs.Queue(this, `${logical}Dlq`, {
        // Longer than the source queue's (default 4 days) retention: a standard queue keeps a message's original
        // enqueue time when it moves to the DLQ, so a shorter DLQ retention would drop failed jobs early.
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const queue = new sqs.Queue(this, logical, {
        visibilityTimeout: Duration.seconds(queueVisibilityTimeoutS(reader.timeoutS)),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: dlq, maxReceiveCount: spec.maxReceiveCount },
      });
      this.queues[spec.id] = { queue, dlq, spec };
    }

    // ---------------------------------------------------------------- Grants
    const bindSettings = settingsBinder(this, service);
    const bind = (fn: ServiceFunctionBase, access: Access): void =>
      grantAccess(fn, access, {
        tables: this.tables,
        bucket: this.bucket,
        bucketSpec: manifest.bucket,
        queues: this.queues,
        bindSettings,
      });

    // Every zip handler of the manifest, bundled by one esbuild build when the first function is staged.
    const zipBundles = new ZipBundles({
      name: service,
      projectRoot,
      handlers: entries.filter((e) => e.packaging !== 'image').map((e) => e.handler),
      externalModules: manifest.externalModules,
    });

    // A route function of a nested tag is defined in that tag's nested stack; every other one here.
    const scopeOf = (entry: RouteSpec | WorkerSpec | ScheduleSpec): Construct => {
      const tag = 'path' in entry ? entry.docs?.tags?.find((t) => props.nestedTags?.includes(t)) : undefined;
      if (!tag) return this;
      return (this.nestedStacks[tag] ??= new NestedStack(this, `${capitalize(tag)}Functions`, {
        description: `${capitalize(service)} API: the functions of its ${tag} routes`,
      }));
    };
    const makeFunction = (
      entry: RouteSpec | WorkerSpec | ScheduleSpec,
      description: string,
      extra: { tmpMb?: number; environment?: Record<string, string> } = {},
    ): ServiceFunctionBase => {
      const common = {
        handler: entry.handler,
        serviceName: service,
        logLevel,
        logRetention,
        memoryMb: entry.memoryMb,
        timeoutS: entry.timeoutS,
        description,
        environment: extra.environment,
      };
      const fn =
        entry.packaging === 'image'
          ? new ImageServiceFunction(scopeOf(entry), entry.id, {
              ...common,
              image: this.image!,
              ...(extra.tmpMb !== undefined ? { tmpMb: Math.max(extra.tmpMb, IMAGE_MIN_TMP_MB) } : {}),
            })
          : new ServiceFunction(scopeOf(entry), entry.id, {
              ...common,
              bundles: zipBundles,
              tmpMb: extra.tmpMb,
            });
      bind(fn, entry.access);
      this.functions[entry.id] = fn;
      return fn;
    };

    // ---------------------------------------------------------------- HTTP API
    // Stage-wide throttle (plan quotas are the handlers'), JSON access logs: lib/constructs/logged-http-api.ts.
    const { api, stage } = loggedHttpApi(this, {
      apiName: service,
      description: props.apiDescription,
      logRetention,
      throttle: {
        rateLimit: ctx('throttleRate', manifest.throttle.rate),
        burstLimit: ctx('throttleBurst', manifest.throttle.burst),
      },
    });
    this.api = api;
    this.apiUrl = stage.url;

    for (const route of manifest.routes) {
      const fn = makeFunction(route, `${route.method} ${route.path}`);
      let routeKey: HttpRouteKey;
      if (route.path === '$default') {
        if (route.method !== 'ANY')
          throw new Error(`Route ${route.id}: $default matches every method; declare it with method ANY.`);
        routeKey = HttpRouteKey.DEFAULT;
      } else {
        routeKey = HttpRouteKey.with(route.path, HttpMethod[route.method]);
      }
      const httpRoute = new HttpRoute(this, `${route.id}Route`, {
        httpApi: this.api,
        routeKey,
        // Payload format 2.0 (lambdas/shared/http/request.ts reads APIGatewayProxyEventV2).
        integration: new HttpLambdaIntegration(`${route.id}Integration`, fn.fn),
      });
      Validations.of(httpRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason: props.publicApiReason });
    }

    // ---------------------------------------------------------------- Workers
    // One function per manifest worker, fed by its queues: batch size 1 (a job, render or delivery per invocation,
    // so timeouts and retries are per message) and partial batch failures (the worker reports a failed message,
    // which SQS redelivers after the visibility the worker set). Each event source scales independently, capped by
    // its queue's maxConcurrency: how narration serves paid plans first (lambdas/narration/routes.ts).
    for (const spec of manifest.workers) {
      const read = spec.queues.map((queueId) => {
        const q = this.queues[queueId];
        if (!q)
          throw new Error(
            `Worker ${spec.id}: it reads ${queueId}, which is not one of the manifest's queues.`,
          );
        return q;
      });
      if (read.length === 0) throw new Error(`Worker ${spec.id}: it must read at least one queue.`);
      const receives = new Set(read.map((q) => q.spec.maxReceiveCount));
      if (receives.size !== 1)
        throw new Error(`Worker ${spec.id}: its queues must agree on maxReceiveCount (MAX_RECEIVE_COUNT).`);
      const fn = makeFunction(spec, spec.description, {
        tmpMb: spec.tmpMb,
        environment: {
          // The last attempt records the failure; SQS then moves the message to the DLQ.
          MAX_RECEIVE_COUNT: String([...receives][0]),
          // Its own queues' URLs: retries change the visibility of the message being handled.
          ...Object.fromEntries(read.map((q) => [q.spec.envVar, q.queue.queueUrl])),
        },
      });
      for (const { queue, spec: queueSpec } of read)
        fn.fn.addEventSource(
          new SqsEventSource(queue, {
            batchSize: 1,
            reportBatchItemFailures: true,
            maxConcurrency: ctx(`${queueSpec.id}Concurrency`, queueSpec.maxConcurrency),
          }),
        );
    }

    // ---------------------------------------------------------------- Schedules
    // One function per manifest schedule, invoked by an EventBridge Scheduler schedule (rate) through a role that
    // may invoke exactly that function; an invocation that still fails after the retries goes to the schedule's DLQ
    // (alarmed like every DLQ). The next tick comes anyway: a lost tick only delays polls by one period.
    for (const spec of manifest.schedules ?? []) {
      const fn = makeFunction(spec, spec.description, { tmpMb: 512 });
      const dlq = new sqs.Queue(this, `${spec.id}Dlq`, {
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      Validations.of(dlq).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: `This queue is the dead-letter queue of the ${spec.id} schedule (EventBridge Scheduler): a DLQ of its own would only move the finding.`,
      });
      const role = new iam.Role(this, `${spec.id}Role`, {
        assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
          conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
        }),
        description: `EventBridge Scheduler: invokes ${spec.id}, dead letters to its DLQ`,
      });
      role.addToPolicy(
        new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.fn.functionArn] }),
      );
      dlq.grantSendMessages(role);
      const schedule = new scheduler.CfnSchedule(this, `${spec.id}Schedule`, {
        description: spec.description,
        scheduleExpression: `rate(${spec.everyMinutes} minute${spec.everyMinutes === 1 ? '' : 's'})`,
        flexibleTimeWindow: { mode: 'OFF' },
        state: 'ENABLED',
        target: {
          arn: fn.fn.functionArn,
          roleArn: role.roleArn,
          deadLetterConfig: { arn: dlq.queueArn },
          // A tick older than its period is worthless: the next one does the same work.
          retryPolicy: {
            maximumRetryAttempts: 2,
            maximumEventAgeInSeconds: Math.max(60, spec.everyMinutes * 60),
          },
        },
      });
      this.schedules[spec.id] = { schedule, role, dlq, spec };
    }

    // ---------------------------------------------------------------- Alarms and dashboard
    // Runbook: docs/operations/alarms.md. Metric names are shared with the code (lambdas/<service>/metrics.ts).
    const label = props.queueLabel ?? ((queueId: string) => `${capitalize(queueId)}Queue`);
    this.observability = new ServiceAlarms(this, 'Observability', {
      service: service as ServiceName,
      api: this.api,
      functions: this.functions,
      queues: Object.fromEntries(Object.entries(this.queues).map(([qid, q]) => [label(qid), q.queue])),
      deadLetterQueues: Object.fromEntries(
        Object.entries(this.schedules).map(([sid, s]) => [`${sid}Dlq`, s.dlq]),
      ),
    });

    // ---------------------------------------------------------------- Outputs
    new CfnOutput(this, 'ApiUrl', {
      value: stage.url,
      description: `Base URL of the ${capitalize(service)} API`,
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.observability.topic.topicArn });
    new CfnOutput(this, `${manifest.bucket.id}Name`, { value: this.bucket.bucketName });
    for (const [qid, { queue, dlq }] of Object.entries(this.queues)) {
      new CfnOutput(this, `${capitalize(qid)}QueueUrl`, { value: queue.queueUrl });
      new CfnOutput(this, `${capitalize(qid)}DlqUrl`, { value: dlq.queueUrl });
    }
    for (const tableId of tableIds)
      new CfnOutput(this, `${capitalize(tableId)}TableName`, { value: this.tables[tableId]!.tableName });
  }
}

export interface ManifestStackProps extends StackProps {
  /** @default the service's own manifest (lambdas/<service>/routes.ts) */
  manifest?: ServiceManifest;
  /** Repository root (handler paths in the manifest are relative to it). @default this repository */
  projectRoot?: string;
}

/** A stack of one manifest service; NarrationStack and DocumentsStack only supply their data (serviceStack). */
export class ManifestStack extends Stack {
  readonly service: ManifestService;
  readonly api: HttpApi;
  readonly functions: Record<string, ServiceFunctionBase>;
  readonly bucket: s3.Bucket;
  readonly tables: Partial<Record<TableId, dynamodb.Table>>;
  readonly image?: DockerImageAsset;
  readonly queues: ManifestService['queues'];
  readonly observability: ServiceAlarms;

  constructor(
    scope: Construct,
    id: string,
    props: ManifestStackProps &
      Omit<ManifestServiceProps, 'manifest' | 'projectRoot'> & { manifest: ServiceManifest },
  ) {
    super(scope, id, props);
    // 'Default' is left out of logical ids: the resources keep the ids the stacks gave them before this construct.
    this.service = new ManifestService(this, 'Default', {
      ...props,
      projectRoot: props.projectRoot ?? path.resolve(__dirname, '..', '..'),
    });
    ({
      api: this.api,
      functions: this.functions,
      bucket: this.bucket,
      tables: this.tables,
      image: this.image,
      queues: this.queues,
      observability: this.observability,
    } = this.service);
  }
}

/** What a service's stack passes besides the caller's props: its description, manifest and API texts. */
export type ServiceStackSettings = Omit<ManifestServiceProps, 'projectRoot'> & { description: string };

/** The stack class of one service: a ManifestStack with that service's settings (props may name another manifest). */
export function serviceStack(settings: ServiceStackSettings) {
  return class extends ManifestStack {
    constructor(scope: Construct, id: string, props: ManifestStackProps = {}) {
      super(scope, id, { ...settings, ...props, manifest: props.manifest ?? settings.manifest });
    }
  };
}
