// NarrationStack: the Narration API (spec/narration-api.md) on AWS, assembled FROM the route manifest
// (lambdas/narration/routes.ts), the same data bin/local.ts serves from. One Lambda per manifest route behind an
// HTTP API; one worker fed by a priority and a standard SQS queue; DynamoDB tables and an S3 bucket whose
// permissions are granted strictly from each manifest entry's `access`.
//
// Configuration (all optional; `cdk deploy -c key=value` or cdk.json "context"):
//   narration:logLevel            LOG_LEVEL of every function (default INFO)
//   narration:logRetentionDays    retention of function and access logs (default 30)
//   narration:throttleRate        API steady-state requests/second (default 50)
//   narration:throttleBurst       API burst (default 100)
//   narration:priorityConcurrency worker executions serving the priority queue at most (default 10)
//   narration:standardConcurrency worker executions serving the standard queue at most (default 3)
//   narration:alarmEmail, p99LatencyMs, …  alarms and dashboard (lib/constructs/service-alarms.ts)
//   narration:secretName          Secrets Manager secret (JSON) holding STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, DASHBOARD_TOKEN
//   narration:secretVersionId     pin that secret's version: pass the new one after a rotation (lib/constructs/settings.ts)
import * as path from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { narrationManifest } from '../lambdas/narration/routes';
import type { Access, ServiceManifest, TableId } from '../lambdas/shared/manifest';
import { ServiceAlarms } from './constructs/service-alarms';
import { loggedHttpApi } from './constructs/logged-http-api';
import { settingsBinder } from './constructs/settings';
import { serviceTable } from './constructs/service-table';
import { ServiceFunction } from './constructs/service-function';
import { TABLES } from './tables';

/** Days a finished audio stays downloadable; the runtime reads the same number as AUDIO_TTL_DAYS. */
export const AUDIO_TTL_DAYS = 30;
/** Job texts only live until the worker has read them (plus retries). */
export const JOB_TEXT_TTL_DAYS = 2;
/** Deliveries of a job before it lands in the DLQ; the worker reads it as MAX_RECEIVE_COUNT. */
export const MAX_RECEIVE_COUNT = 3;
/** S3 key prefixes the lifecycle rules expire: the runtime must store under these. */
export const AUDIO_PREFIX = 'audio/';
export const JOB_TEXT_PREFIX = 'jobs/';
/** Settings read from Secrets Manager rather than the CDK context. */
/** SQS's maximum visibility timeout. */
const MAX_VISIBILITY_S = 12 * 60 * 60;

export interface NarrationStackProps extends StackProps {
  /** @default the narration manifest (lambdas/narration/routes.ts) */
  manifest?: ServiceManifest;
  /** Repository root (handler paths in the manifest are relative to it). @default this file's parent directory */
  projectRoot?: string;
}

/**
 * Visibility timeout of a queue feeding a Lambda: AWS asks for at least 6 × the function timeout plus the batching
 * window, so a message is not handed to a second invocation while throttled retries of the first are still pending.
 * SQS caps it at 12 hours.
 */
export function queueVisibilityTimeoutS(workerTimeoutS: number, batchingWindowS = 0): number {
  return Math.min(6 * workerTimeoutS + batchingWindowS, MAX_VISIBILITY_S);
}

export class NarrationStack extends Stack {
  readonly api: HttpApi;
  readonly functions: Record<string, ServiceFunction> = {};
  readonly bucket: s3.Bucket;
  readonly tables: Record<TableId, dynamodb.Table>;
  readonly priorityQueue: sqs.Queue;
  readonly standardQueue: sqs.Queue;
  readonly observability: ServiceAlarms;

  constructor(scope: Construct, id: string, props: NarrationStackProps = {}) {
    super(scope, id, {
      description:
        'Narration API: Spanish text, PDFs and articles to narrated audio (HTTP API, Lambda, SQS, Polly, S3).',
      ...props,
    });
    const manifest = props.manifest ?? narrationManifest;
    const projectRoot = props.projectRoot ?? path.resolve(__dirname, '..');
    const ctx = (key: string, fallback: number): number => {
      const raw: unknown = this.node.tryGetContext(`narration:${key}`);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!Number.isFinite(n))
        throw new Error(`Context narration:${key} must be a number (got ${String(raw)}).`);
      return n;
    };
    const logLevel = String(this.node.tryGetContext('narration:logLevel') ?? 'INFO');
    const logRetention = ctx('logRetentionDays', 30) as logs.RetentionDays;

    // ---------------------------------------------------------------- DynamoDB
    // Shapes (keys, indexes, env var names) come from lib/tables.ts, which the local emulator setup reads too.
    const makeTable = (tableId: TableId) => serviceTable(this, tableId);
    this.tables = Object.fromEntries(
      (Object.keys(TABLES) as TableId[]).map((id) => [id, makeTable(id)]),
    ) as Record<TableId, dynamodb.Table>;
    const { audio: audioTable, quotas: quotasTable, keys: keysTable } = this.tables;

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
        "This bucket is the destination of the audio bucket's server access logs; logging it into itself would loop, and a second log bucket would only move the finding.",
    });

    this.bucket = new s3.Bucket(this, 'AudioBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Versioning off on purpose: every object is written once under a fresh id and expires by lifecycle; audio
      // can be regenerated from text. Versions would keep expired or overwritten audio (and bill for it) and need
      // noncurrent-version rules to clean up, for no recovery value.
      versioned: false,
      serverAccessLogsBucket: accessLogBucket,
      serverAccessLogsPrefix: 'audio-bucket/',
      lifecycleRules: [
        { id: 'expire-audio', prefix: AUDIO_PREFIX, expiration: Duration.days(AUDIO_TTL_DAYS) },
        { id: 'expire-job-texts', prefix: JOB_TEXT_PREFIX, expiration: Duration.days(JOB_TEXT_TTL_DAYS) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // The embeddable player (/embed.js on any site) fetches audio through the presigned URL GET /audio/{id}
      // redirects to. Objects stay private: CORS only lets pages read what a presigned URL already grants.
      cors: [
        {
          allowedOrigins: ['*'],
          allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          allowedHeaders: ['Range'],
          exposedHeaders: ['Content-Length', 'Content-Range', 'Accept-Ranges', 'ETag'],
          maxAge: 3600,
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // ---------------------------------------------------------------- SQS
    if (manifest.workers.length !== 1) {
      throw new Error(
        `NarrationStack expects exactly one worker in the manifest (got ${manifest.workers.length}).`,
      );
    }
    const workerSpec = manifest.workers[0]!;
    const visibilityTimeout = Duration.seconds(queueVisibilityTimeoutS(workerSpec.timeoutS));
    const jobQueue = (queueId: string): sqs.Queue => {
      const dlq = new sqs.Queue(this, `${queueId}Dlq`, {
        // Longer than the source queue's (default 4 days) retention: a standard queue keeps a message's original
        // enqueue time when it moves to the DLQ, so a shorter DLQ retention would drop failed jobs early.
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      return new sqs.Queue(this, queueId, {
        visibilityTimeout,
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: dlq, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
    };
    this.priorityQueue = jobQueue('PriorityQueue');
    this.standardQueue = jobQueue('StandardQueue');

    const bind = (fn: ServiceFunction, access: Access): void => {
      for (const [tableId, mode] of Object.entries(access.tables ?? {}) as [
        TableId,
        'r' | 'rw' | undefined,
      ][]) {
        if (!mode) continue;
        const shape = TABLES[tableId];
        fn.bindTable(
          this.tables[tableId],
          mode,
          shape.envVar,
          (shape.indexes ?? []).map((i) => i.name),
        );
      }
      if (access.bucket) {
        fn.bindBucket(this.bucket, access.bucket, 'AUDIO_BUCKET');
        fn.fn.addEnvironment('AUDIO_TTL_DAYS', String(AUDIO_TTL_DAYS));
      }
      if (access.sendJobs) {
        fn.bindQueue(this.priorityQueue, 'PRIORITY_QUEUE_URL');
        fn.bindQueue(this.standardQueue, 'STANDARD_QUEUE_URL');
      }
      if (access.speech) fn.allowSpeech();
      bindSettings(fn.fn, access.settings);
    };
    // Secrets and plain settings (lib/constructs/settings.ts).
    const bindSettings = settingsBinder(this, 'narration');
    const common = { projectRoot, serviceName: manifest.service, logLevel, logRetention };

    // ---------------------------------------------------------------- HTTP API
    // Stage-wide throttle (plan quotas are the handlers'), JSON access logs: lib/constructs/logged-http-api.ts.
    const { api, stage } = loggedHttpApi(this, {
      apiName: manifest.service,
      description: 'Narration API (spec/narration-api.md)',
      logRetention,
      throttle: { rateLimit: ctx('throttleRate', 50), burstLimit: ctx('throttleBurst', 100) },
    });
    this.api = api;

    for (const route of manifest.routes) {
      const fn = new ServiceFunction(this, route.id, {
        ...common,
        handler: route.handler,
        memoryMb: route.memoryMb,
        timeoutS: route.timeoutS,
        description: `${route.method} ${route.path}`,
      });
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
          'Public API by contract (spec/narration-api.md): the free tier is anonymous with per-IP quotas, paid plans send "Authorization: Bearer <key>", which the handler verifies against the keys table (hashed) because an absent key must still be served as free tier; webhook and dashboard routes verify their own signature/token.',
      });
    }

    // ---------------------------------------------------------------- Worker
    const worker = new ServiceFunction(this, workerSpec.id, {
      ...common,
      handler: workerSpec.handler,
      memoryMb: workerSpec.memoryMb,
      timeoutS: workerSpec.timeoutS,
      tmpMb: workerSpec.tmpMb,
      description: 'Narrates queued long texts (priority and standard queues)',
      environment: { MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT) },
    });
    bind(worker, workerSpec.access);
    this.functions[workerSpec.id] = worker;
    // How paid plans get priority: each event source mapping scales its pollers independently, and maxConcurrency
    // caps how many worker executions one mapping may occupy. The standard (free-tier) queue gets a small cap, so a
    // free backlog can never take more than that many executions; the rest of the account's concurrency stays
    // available to the priority queue (Pro/Lifetime jobs), whose jobs therefore never wait behind free ones. Running
    // jobs are not pre-empted. The caps also stop the pollers from pulling messages Lambda would throttle (a
    // throttled delivery still counts towards maxReceiveCount).
    // batchSize 1: a job is minutes of work; one message per invocation keeps timeouts and retries per job.
    // reportBatchItemFailures: the worker (Powertools Batch) reports a failed job instead of throwing.
    worker.fn.addEventSource(
      new SqsEventSource(this.priorityQueue, {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: ctx('priorityConcurrency', 10),
      }),
    );
    worker.fn.addEventSource(
      new SqsEventSource(this.standardQueue, {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: ctx('standardConcurrency', 3),
      }),
    );

    // ---------------------------------------------------------------- Alarms and dashboard
    // Runbook: docs/operations/alarms.md. Metric names are shared with the code (lambdas/shared/observability).
    this.observability = new ServiceAlarms(this, 'Observability', {
      service: 'narration',
      api: this.api,
      functions: this.functions,
      queues: { PriorityQueue: this.priorityQueue, StandardQueue: this.standardQueue },
    });

    // ---------------------------------------------------------------- Outputs
    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the Narration API' });
    new CfnOutput(this, 'AudioBucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'AudioTableName', { value: audioTable.tableName });
    new CfnOutput(this, 'QuotasTableName', { value: quotasTable.tableName });
    new CfnOutput(this, 'KeysTableName', { value: keysTable.tableName });
    new CfnOutput(this, 'PriorityQueueUrl', { value: this.priorityQueue.queueUrl });
    new CfnOutput(this, 'StandardQueueUrl', { value: this.standardQueue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.observability.topic.topicArn });
  }
}
