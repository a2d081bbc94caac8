// DocumentsStack: the Documents API (spec/documents-api.md) on AWS, assembled FROM the route manifest
// (lambdas/documents/routes.ts), the same data bin/local.ts serves from. One Lambda per manifest route behind its own
// HTTP API: `packaging: 'image'` routes run from ONE container image (lambdas/documents/Dockerfile: Chromium,
// isolated-vm, fonts, templates), each with its own handler as the image CMD; the others are zip bundles
// (ServiceFunction). DynamoDB tables (only those the manifest names) and an S3 bucket for samples and large results;
// permissions are granted strictly from each manifest entry's `access`. Async renders (Scale): the manifest's queues
// (render, deliveries; each with a DLQ, SSE, TLS only) feed its workers (render worker in the image, delivery worker
// as a zip), like narration's worker; see docs/documents-rendering.md, "Async renders and webhooks".
//
// The image is an asset: `cdk synth` only fingerprints and stages its build context (the repository root, narrowed by
// /.dockerignore to package*.json, tsconfig.json, lambdas/documents, lambdas/shared and templates), so synth needs
// neither Docker nor a network; `cdk deploy` builds it (linux/amd64) and pushes it to the CDK assets repository.
//
// Configuration (all optional; `cdk deploy -c key=value` or cdk.json "context"):
//   documents:logLevel          LOG_LEVEL of every function (default INFO)
//   documents:logRetentionDays  retention of function and access logs (default 30)
//   documents:throttleRate      API steady-state requests/second (default 20: every render is seconds of Chromium)
//   documents:throttleBurst     API burst (default 40)
//   documents:secretName        Secrets Manager secret (JSON) holding the secret settings a route lists
//   documents:secretVersionId   pin that secret's version: pass the new one after a rotation (lib/constructs/settings.ts)
//   documents:<SETTING>         plain settings a manifest route lists in access.settings
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CfnOutput,
  Duration,
  IgnoreMode,
  RemovalPolicy,
  Stack,
  Validations,
  type StackProps,
} from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { DockerImageAsset, Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { documentsManifest } from '../lambdas/documents/routes';
import type {
  Access,
  QueueSpec,
  RouteSpec,
  ServiceManifest,
  TableId,
  WorkerSpec,
} from '../lambdas/shared/manifest';
import { IMAGE_MIN_TMP_MB, ImageServiceFunction } from './constructs/image-function';
import { ServiceAlarms } from './constructs/service-alarms';
import { loggedHttpApi } from './constructs/logged-http-api';
import { settingsBinder } from './constructs/settings';
import { serviceTable } from './constructs/service-table';
import { ServiceFunction } from './constructs/service-function';
import type { ServiceFunctionBase } from './constructs/service-function-base';
import { queueVisibilityTimeoutS } from './narration-stack';
import { TABLES } from './tables';

/** Dockerfile of the image routes, relative to the repository root (the build context). */
export const DOCUMENTS_DOCKERFILE = 'lambdas/documents/Dockerfile';
/** S3 key prefixes the lifecycle rules expire: the runtime must store under these. */
export const RESULTS_PREFIX = 'results/';
export const SAMPLES_PREFIX = 'samples/';
/** Render requests of queued async jobs (lambdas/documents/adapters/job-files.ts); read once by the render worker. */
export const JOB_REQUESTS_PREFIX = 'jobs/';
export const JOB_REQUESTS_TTL_DAYS = 2;
/** A result too large for a Lambda response is fetched once, right after the redirect; a day is plenty. */
export const RESULTS_TTL_DAYS = 1;
/** Sample PDFs are re-rendered on a miss; expiring them keeps stale template versions from piling up. */
export const SAMPLES_TTL_DAYS = 30;
/**
 * Modules zip functions never load: lambdas/documents/deps.ts reaches Chromium only through a lazy import in
 * sharedRenderer(), which only image routes call. Left out, the stats bundle is ~1.6 MB instead of ~3.8 MB.
 */
const RENDERER_ONLY_MODULES = ['@sparticuz/chromium', 'puppeteer-core', 'isolated-vm'];
/**
 * Item actions for a grant narrowed to partition-key prefixes (access.itemPrefixes). Only actions that carry the
 * item's key, so dynamodb:LeadingKeys always applies: no Scan or Query (their requests name no partition key, and a
 * ForAllValues condition over an absent key would allow them), no batch writes.
 */
const ITEM_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem'];
const ITEM_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

export interface DocumentsStackProps extends StackProps {
  /** @default the documents manifest (lambdas/documents/routes.ts) */
  manifest?: ServiceManifest;
  /** Repository root (handler paths in the manifest are relative to it; the image's build context). @default this file's parent directory */
  projectRoot?: string;
}

export class DocumentsStack extends Stack {
  readonly api: HttpApi;
  readonly functions: Record<string, ServiceFunctionBase> = {};
  readonly bucket: s3.Bucket;
  /** Only the tables some manifest entry names. */
  readonly tables: Partial<Record<TableId, dynamodb.Table>>;
  /** The one image every `packaging: 'image'` route runs (undefined when the manifest has none). */
  readonly image?: DockerImageAsset;
  /** The manifest's queues by id (render, deliveries), each with its DLQ. */
  readonly queues: Record<string, { queue: sqs.Queue; dlq: sqs.Queue; spec: QueueSpec }> = {};
  /** Alarms (→ SNS topic) and the dashboard: docs/operations/alarms.md. */
  readonly observability: ServiceAlarms;

  constructor(scope: Construct, id: string, props: DocumentsStackProps = {}) {
    super(scope, id, {
      description:
        'Documents API: JSON + templates to PDF, XLSX, CSV, HTML, DOCX and more (HTTP API, Lambda container images with Chromium, DynamoDB, S3).',
      ...props,
    });
    const manifest = props.manifest ?? documentsManifest;
    const projectRoot = props.projectRoot ?? path.resolve(__dirname, '..');
    const ctx = (key: string, fallback: number): number => {
      const raw: unknown = this.node.tryGetContext(`documents:${key}`);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!Number.isFinite(n))
        throw new Error(`Context documents:${key} must be a number (got ${String(raw)}).`);
      return n;
    };
    const logLevel = String(this.node.tryGetContext('documents:logLevel') ?? 'INFO');
    const logRetention = ctx('logRetentionDays', 30) as logs.RetentionDays;

    // ---------------------------------------------------------------- DynamoDB
    // Shapes (keys, indexes, env var names) come from lib/tables.ts, like narration's; settings are the same.
    const tableIds = [
      ...new Set(
        [...manifest.routes, ...manifest.workers].flatMap(
          (r) => Object.keys(r.access.tables ?? {}) as TableId[],
        ),
      ),
    ].sort();
    const makeTable = (tableId: TableId) => serviceTable(this, tableId);
    this.tables = Object.fromEntries(tableIds.map((t) => [t, makeTable(t)]));

    // ---------------------------------------------------------------- S3
    const accessLogBucket = new s3.Bucket(this, 'AccessLogBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      // Server access log delivery supports SSE-S3 only.
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(accessLogBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        "This bucket is the destination of the documents bucket's server access logs; logging it into itself would loop, and a second log bucket would only move the finding.",
    });

    this.bucket = new s3.Bucket(this, 'DocumentsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Versioning off on purpose: results are written once under fresh ids and expire within a day; samples are
      // re-rendered from the templates. Versions would only keep expired bytes (and bill for them).
      versioned: false,
      serverAccessLogsBucket: accessLogBucket,
      serverAccessLogsPrefix: 'documents-bucket/',
      lifecycleRules: [
        { id: 'expire-results', prefix: RESULTS_PREFIX, expiration: Duration.days(RESULTS_TTL_DAYS) },
        { id: 'expire-samples', prefix: SAMPLES_PREFIX, expiration: Duration.days(SAMPLES_TTL_DAYS) },
        {
          id: 'expire-job-requests',
          prefix: JOB_REQUESTS_PREFIX,
          expiration: Duration.days(JOB_REQUESTS_TTL_DAYS),
        },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Large results are served by redirecting to a presigned URL; browser clients (fetch) follow that redirect
      // cross-origin. Objects stay private: CORS only lets pages read what a presigned URL already grants.
      cors: [
        {
          allowedOrigins: ['*'],
          allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          exposedHeaders: ['Content-Length', 'Content-Type', 'Content-Disposition', 'ETag'],
          maxAge: 3600,
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // ---------------------------------------------------------------- Container image
    const imageRoutes = [...manifest.routes, ...manifest.workers].filter((r) => r.packaging === 'image');
    if (imageRoutes.length > 0) {
      // Without the allowlist the context would be the whole repository, node_modules and cdk.out included.
      if (!fs.existsSync(path.join(projectRoot, '.dockerignore')))
        throw new Error(
          `${projectRoot}/.dockerignore is missing: it narrows the build context of ${DOCUMENTS_DOCKERFILE}.`,
        );
      this.image = new DockerImageAsset(this, 'RendererImage', {
        directory: projectRoot,
        file: DOCUMENTS_DOCKERFILE,
        // /.dockerignore (an allowlist) is applied by Docker at build time and by CDK when it fingerprints and
        // stages the context at synth: node_modules, cdk.out, .data and tests are never walked or hashed.
        ignoreMode: IgnoreMode.DOCKER,
        platform: Platform.LINUX_AMD64,
        // The handlers to bundle come from the manifest (routes and workers), so a new one needs no Dockerfile change.
        buildArgs: { HANDLER_ENTRIES: imageRoutes.map((r) => r.handler).join(' ') },
      });
    }

    // ---------------------------------------------------------------- SQS
    // One queue per manifest queue, each with its DLQ: encrypted (SSE-SQS), TLS only. The visibility timeout follows
    // the timeout of the worker reading it (AWS: at least 6 x); retries set their own delay per message.
    for (const spec of manifest.queues ?? []) {
      const reader = manifest.workers.find((w) => w.queue === spec.id);
      if (!reader) throw new Error(`Queue ${spec.id}: no worker of the manifest reads it.`);
      const logical = `${spec.id[0]!.toUpperCase()}${spec.id.slice(1)}Queue`;
      const dlq = new sqs.Queue(this, `${logical}Dlq`, {
        // Longer than the source queue's retention (4 days): a moved message keeps its original enqueue time.
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
    for (const w of manifest.workers)
      if (!w.queue || !this.queues[w.queue])
        throw new Error(
          `Worker ${w.id}: it must name one of the manifest's queues (got ${String(w.queue)}).`,
        );

    /** A table grant narrowed to items whose partition key starts with one of `prefixes` (dynamodb:LeadingKeys). */
    const bindItems = (fn: ServiceFunctionBase, tableId: TableId, mode: 'r' | 'rw', prefixes: string[]) => {
      const table = this.tables[tableId]!;
      fn.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: mode === 'rw' ? [...ITEM_READ, ...ITEM_WRITE] : ITEM_READ,
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((p) => `${p}*`) },
          },
        }),
      );
      fn.fn.addEnvironment(TABLES[tableId].envVar, table.tableName);
    };

    const bind = (fn: ServiceFunctionBase, access: Access): void => {
      for (const [tableId, mode] of Object.entries(access.tables ?? {}) as [
        TableId,
        'r' | 'rw' | undefined,
      ][]) {
        if (!mode) continue;
        const prefixes = access.itemPrefixes?.[tableId];
        if (prefixes?.length) {
          bindItems(fn, tableId, mode, prefixes);
          continue;
        }
        const shape = TABLES[tableId];
        fn.bindTable(
          this.tables[tableId]!,
          mode,
          shape.envVar,
          (shape.indexes ?? []).map((i) => i.name),
        );
      }
      if (access.bucket) fn.bindBucket(this.bucket, access.bucket, 'DOCUMENTS_BUCKET');
      if (access.sendJobs || access.speech)
        throw new Error(
          "DocumentsStack has no narration job queues and no speech engine: use access.sendTo with the manifest's queues.",
        );
      for (const id of access.sendTo ?? []) {
        const q = this.queues[id];
        if (!q) throw new Error(`access.sendTo names ${id}, which is not one of the manifest's queues.`);
        fn.bindQueue(q.queue, q.spec.envVar);
      }
      bindSettings(fn.fn, access.settings);
    };
    // Secrets and plain settings (lib/constructs/settings.ts).
    const bindSettings = settingsBinder(this, 'documents');

    // ---------------------------------------------------------------- HTTP API
    // Stage-wide throttle (plan quotas are the handlers'), JSON access logs: lib/constructs/logged-http-api.ts.
    const { api, stage } = loggedHttpApi(this, {
      apiName: manifest.service,
      description: 'Documents API (spec/documents-api.md)',
      logRetention,
      throttle: { rateLimit: ctx('throttleRate', 20), burstLimit: ctx('throttleBurst', 40) },
    });
    this.api = api;

    const makeFunction = (
      route: RouteSpec | WorkerSpec,
      description: string,
      extra: { tmpMb?: number; environment?: Record<string, string> } = {},
    ): ServiceFunctionBase => {
      const common = {
        handler: route.handler,
        serviceName: manifest.service,
        logLevel,
        logRetention,
        memoryMb: route.memoryMb,
        timeoutS: route.timeoutS,
        description,
        environment: extra.environment,
      };
      return route.packaging === 'image'
        ? new ImageServiceFunction(this, route.id, {
            ...common,
            image: this.image!,
            ...(extra.tmpMb !== undefined ? { tmpMb: Math.max(extra.tmpMb, IMAGE_MIN_TMP_MB) } : {}),
          })
        : new ServiceFunction(this, route.id, {
            ...common,
            projectRoot,
            tmpMb: extra.tmpMb,
            externalModules: RENDERER_ONLY_MODULES,
          });
    };

    for (const route of manifest.routes) {
      const fn = makeFunction(route, `${route.method} ${route.path}`);
      bind(fn, route.access);
      this.functions[route.id] = fn;

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
      Validations.of(httpRoute).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Public API by contract (spec/documents-api.md): the free tier is anonymous with per-IP monthly quotas, paid plans send "Authorization: Bearer <key>", which the handler verifies against the keys table (hashed) because an absent key must still be served as free tier.',
      });
    }

    // ---------------------------------------------------------------- Workers
    // One function per manifest worker, fed by its queue: batch size 1 (a render or a delivery per invocation, so
    // timeouts and retries are per message) and partial batch failures (the worker reports a failed message, which
    // SQS redelivers after the visibility the worker set: the render queue's default, or the webhook backoff delay).
    for (const spec of manifest.workers) {
      const { queue, spec: queueSpec } = this.queues[spec.queue!]!;
      const fn = makeFunction(spec, spec.description ?? `Worker of the ${queueSpec.id} queue`, {
        tmpMb: spec.tmpMb,
        environment: {
          // The last attempt records the failure; SQS then moves the message to the DLQ.
          MAX_RECEIVE_COUNT: String(queueSpec.maxReceiveCount),
          // Its own queue's URL: retries change the visibility of the message being handled.
          [queueSpec.envVar]: queue.queueUrl,
        },
      });
      bind(fn, spec.access);
      this.functions[spec.id] = fn;
      fn.fn.addEventSource(
        new SqsEventSource(queue, {
          batchSize: 1,
          reportBatchItemFailures: true,
          maxConcurrency: spec.maxConcurrency ?? 5,
        }),
      );
    }

    // ---------------------------------------------------------------- Observability
    // Runbook: docs/operations/alarms.md. Metric names are shared with the code (lambdas/shared/observability).
    this.observability = new ServiceAlarms(this, 'Observability', {
      service: 'documents',
      api: this.api,
      functions: this.functions,
      queues: Object.fromEntries(Object.entries(this.queues).map(([id, q]) => [`${id}Queue`, q.queue])),
    });

    // ---------------------------------------------------------------- Outputs
    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the Documents API' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.observability.topic.topicArn });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.bucket.bucketName });
    for (const [id, { queue, dlq }] of Object.entries(this.queues)) {
      const name = `${id[0]!.toUpperCase()}${id.slice(1)}`;
      new CfnOutput(this, `${name}QueueUrl`, { value: queue.queueUrl });
      new CfnOutput(this, `${name}DlqUrl`, { value: dlq.queueUrl });
    }
    for (const tableId of tableIds) {
      const name = `${tableId[0]!.toUpperCase()}${tableId.slice(1)}TableName`;
      new CfnOutput(this, name, { value: this.tables[tableId]!.tableName });
    }
  }
}
