// DocumentsStack: the Documents API (spec/documents-api.md) on AWS, assembled FROM the route manifest
// (lambdas/documents/routes.ts), the same data bin/local.ts serves from. One Lambda per manifest route behind its own
// HTTP API: `packaging: 'image'` routes run from ONE container image (lambdas/documents/Dockerfile: Chromium,
// isolated-vm, fonts, templates), each with its own handler as the image CMD; the others are zip bundles
// (ServiceFunction). DynamoDB tables (only those the manifest names) and an S3 bucket for samples and large results;
// permissions are granted strictly from each manifest entry's `access`.
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
//   documents:<SETTING>         plain settings a manifest route lists in access.settings
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CfnOutput,
  Duration,
  IgnoreMode,
  RemovalPolicy,
  SecretValue,
  Stack,
  Validations,
  type StackProps,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { DockerImageAsset, Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { documentsManifest } from '../lambdas/documents/routes';
import type { Access, RouteSpec, ServiceManifest, TableId } from '../lambdas/shared/manifest';
import { ImageServiceFunction } from './constructs/image-function';
import { serviceTable } from './constructs/service-table';
import { ServiceFunction } from './constructs/service-function';
import type { ServiceFunctionBase } from './constructs/service-function-base';
import { TABLES } from './tables';

/** Dockerfile of the image routes, relative to the repository root (the build context). */
export const DOCUMENTS_DOCKERFILE = 'lambdas/documents/Dockerfile';
/** S3 key prefixes the lifecycle rules expire: the runtime must store under these. */
export const RESULTS_PREFIX = 'results/';
export const SAMPLES_PREFIX = 'samples/';
/** A result too large for a Lambda response is fetched once, right after the redirect; a day is plenty. */
export const RESULTS_TTL_DAYS = 1;
/** Sample PDFs are re-rendered on a miss; expiring them keeps stale template versions from piling up. */
export const SAMPLES_TTL_DAYS = 30;
/**
 * Modules zip functions never load: lambdas/documents/deps.ts reaches Chromium only through a lazy import in
 * sharedRenderer(), which only image routes call. Left out, the stats bundle is ~1.6 MB instead of ~3.8 MB.
 */
const RENDERER_ONLY_MODULES = ['@sparticuz/chromium', 'puppeteer-core', 'isolated-vm'];
/** Settings read from Secrets Manager rather than the CDK context. */
const SECRET_SETTINGS = new Set(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'DASHBOARD_TOKEN']);

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

  constructor(scope: Construct, id: string, props: DocumentsStackProps = {}) {
    super(scope, id, {
      description:
        'Documents API: JSON + templates to PDF, XLSX, CSV, HTML, DOCX and more (HTTP API, Lambda container images with Chromium, DynamoDB, S3).',
      ...props,
    });
    const manifest = props.manifest ?? documentsManifest;
    const projectRoot = props.projectRoot ?? path.resolve(__dirname, '..');
    if (manifest.workers.length > 0)
      throw new Error(
        `DocumentsStack has no queues: the manifest declares workers (${manifest.workers.length}).`,
      );
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
      ...new Set(manifest.routes.flatMap((r) => Object.keys(r.access.tables ?? {}) as TableId[])),
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
    const imageRoutes = manifest.routes.filter((r) => r.packaging === 'image');
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
        // The handlers to bundle come from the manifest, so a new image route needs no Dockerfile change.
        buildArgs: { HANDLER_ENTRIES: imageRoutes.map((r) => r.handler).join(' ') },
      });
    }

    const bind = (fn: ServiceFunctionBase, access: Access): void => {
      for (const [tableId, mode] of Object.entries(access.tables ?? {}) as [
        TableId,
        'r' | 'rw' | undefined,
      ][]) {
        if (!mode) continue;
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
        throw new Error('DocumentsStack has no job queues and no speech engine: the manifest asks for them.');
      for (const name of access.settings ?? []) {
        if (SECRET_SETTINGS.has(name)) {
          // Deploy-time dynamic reference: the value never appears in the template or cdk.out.
          if (secretName)
            fn.fn.addEnvironment(
              name,
              SecretValue.secretsManager(secretName, { jsonField: name }).unsafeUnwrap(),
            );
        } else {
          const value = this.node.tryGetContext(`documents:${name}`) as string | undefined;
          if (value !== undefined) fn.fn.addEnvironment(name, String(value));
        }
      }
    };
    const secretName = this.node.tryGetContext('documents:secretName') as string | undefined;

    // ---------------------------------------------------------------- HTTP API
    this.api = new HttpApi(this, 'Api', {
      apiName: manifest.service,
      description: 'Documents API (spec/documents-api.md)',
      // Created below with access logging and throttling, which the implicit default stage cannot take.
      createDefaultStage: false,
    });
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      // Stage-wide ceiling against floods (each render holds a Chromium for up to the route timeout); the plans'
      // monthly allowances are enforced by the handler (quotas table).
      throttle: { rateLimit: ctx('throttleRate', 20), burstLimit: ctx('throttleBurst', 40) },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // HTTP API context variables; no bodies, no Authorization header.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            method: '$context.httpMethod',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integration.latency',
            integrationStatus: '$context.integration.status',
            integrationError: '$context.integrationErrorMessage',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });

    const makeFunction = (route: RouteSpec): ServiceFunctionBase => {
      const common = {
        handler: route.handler,
        serviceName: manifest.service,
        logLevel,
        logRetention,
        memoryMb: route.memoryMb,
        timeoutS: route.timeoutS,
        description: `${route.method} ${route.path}`,
      };
      return route.packaging === 'image'
        ? new ImageServiceFunction(this, route.id, { ...common, image: this.image! })
        : new ServiceFunction(this, route.id, {
            ...common,
            projectRoot,
            externalModules: RENDERER_ONLY_MODULES,
          });
    };

    for (const route of manifest.routes) {
      const fn = makeFunction(route);
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

    // ---------------------------------------------------------------- Outputs
    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the Documents API' });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.bucket.bucketName });
    for (const tableId of tableIds) {
      const name = `${tableId[0]!.toUpperCase()}${tableId.slice(1)}TableName`;
      new CfnOutput(this, name, { value: this.tables[tableId]!.tableName });
    }
  }
}
