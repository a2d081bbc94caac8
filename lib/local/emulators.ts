// Embedded AWS emulators for the local runtime and the tests. They speak the real wire protocols, so the AWS
// adapters under lambdas/shared/aws and lambdas/<service>/adapters run unchanged:
//   DynamoDB: dynalite (on disk under DATA_DIR, or in memory), S3: s3rver (on disk), SQS: fauxqs (in memory).
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { TABLES } from '../tables';
import { documentsManifest } from '../../lambdas/documents/routes';
import { narrationManifest } from '../../lambdas/narration/routes';
import type { BucketSpec, QueueSpec, TableId } from '../../lambdas/shared/manifest';
import { dlqEnvVar } from '../../lambdas/shared/manifest';
import {
  keepBucketConfigInMemory,
  withoutRequestLog,
  writeObjectsWhole,
  type S3rverStore,
} from './s3rver-store';

// These packages ship no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (opts: {
  path?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}) => import('node:http').Server;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  store: S3rverStore;
  middleware: ((...args: unknown[]) => unknown)[];
};

export interface EmulatorOptions {
  /** Where DynamoDB and S3 data live; undefined keeps DynamoDB in memory (tests). */
  dataDir: string;
  persistDynamo?: boolean;
  host?: string;
  /** Names, prefixed so two services can share one set of emulators. */
  prefix?: string;
  /** Visibility timeout of the queues (a failed attempt is retried after it). @default 10 */
  queueVisibilityS?: number;
  /**
   * The queues to create, each with a DLQ, as the stacks make them; their URLs are set in `env` under `envVar`.
   * @default every service manifest's queues
   */
  queues?: QueueSpec[];
}

export interface Emulators {
  env: Record<string, string>;
  tableNames: Record<TableId, string>;
  bucket: string;
  /** Queue URLs: each manifest queue under its id, its DLQ under `<id>Dlq` (`priority`, `priorityDlq`, ...). */
  queues: Record<string, string>;
  stop(): Promise<void>;
  /** Stops one emulator (fault-injection tests). */
  stopService(name: 'dynamodb' | 's3' | 'sqs'): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A bucket's CORS as s3rver reads it (S3's XML), the rules lib/constructs/service-bucket.ts gives the cloud bucket:
 * GET/HEAD from any origin, and POST when browsers upload with a presigned POST (`uploads`).
 */
function corsXml(cors: BucketSpec['cors']): string {
  const tags = (name: string, values: string[]) => values.map((v) => `<${name}>${v}</${name}>`).join('');
  const rule = (methods: string[], headers: string[] | undefined, exposed: string[]) =>
    `<CORSRule>${tags('AllowedOrigin', ['*'])}${tags('AllowedMethod', methods)}${tags('AllowedHeader', headers ?? [])}` +
    `${tags('ExposeHeader', exposed)}<MaxAgeSeconds>3600</MaxAgeSeconds></CORSRule>`;
  return (
    `<CORSConfiguration>${rule(['GET', 'HEAD'], cors.allowedHeaders, cors.exposedHeaders)}` +
    `${cors.uploads ? rule(['POST'], ['*'], ['ETag', 'Location']) : ''}</CORSConfiguration>`
  );
}
const REGION = 'us-east-1';

function listen(server: import('node:http').Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

async function ensureTables(endpoint: string, names: Record<TableId, string>): Promise<void> {
  const ddb = new DynamoDBClient({ endpoint, region: REGION, credentials: CREDENTIALS });
  try {
    for (const [id, shape] of Object.entries(TABLES) as [TableId, (typeof TABLES)[TableId]][]) {
      const attrs = new Set([shape.partitionKey, ...(shape.indexes ?? []).map((i) => i.partitionKey)]);
      try {
        await ddb.send(
          new CreateTableCommand({
            TableName: names[id],
            BillingMode: 'PAY_PER_REQUEST',
            AttributeDefinitions: [...attrs].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
            KeySchema: [{ AttributeName: shape.partitionKey, KeyType: 'HASH' }],
            GlobalSecondaryIndexes: shape.indexes?.map((i) => ({
              IndexName: i.name,
              KeySchema: [{ AttributeName: i.partitionKey, KeyType: 'HASH' }],
              Projection: { ProjectionType: 'ALL' },
            })),
          }),
        );
      } catch (err) {
        if (!(err instanceof ResourceInUseException)) throw err;
      }
      // dynalite creates tables asynchronously even with createTableMs 0.
      for (let i = 0; i < 100; i++) {
        const d = await ddb.send(new DescribeTableCommand({ TableName: names[id] }));
        if (d.Table?.TableStatus === 'ACTIVE') break;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  } finally {
    ddb.destroy();
  }
}

async function createQueues(endpoint: string, prefix: string, visibilityS: number, specs: QueueSpec[]) {
  const sqs = new SQSClient({ endpoint, region: REGION, credentials: CREDENTIALS });
  try {
    const make = async (name: string, attributes: Record<string, string> = {}) =>
      (await sqs.send(new CreateQueueCommand({ QueueName: `${prefix}${name}`, Attributes: attributes })))
        .QueueUrl!;
    const arnOf = async (url: string) =>
      (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] })))
        .Attributes!.QueueArn!;
    const urls: Record<string, string> = {};
    for (const spec of specs) {
      const dlq = await make(`${spec.id}-dlq`);
      // Same redrive as the cloud; a short visibility timeout keeps local retries quick (the poller extends it
      // while a job runs).
      urls[spec.id] = await make(spec.id, {
        VisibilityTimeout: String(visibilityS),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: await arnOf(dlq),
          maxReceiveCount: spec.maxReceiveCount,
        }),
      });
      urls[`${spec.id}Dlq`] = dlq;
    }
    return urls;
  } finally {
    sqs.destroy();
  }
}

export async function startEmulators(options: EmulatorOptions): Promise<Emulators> {
  const host = options.host ?? '127.0.0.1';
  const prefix = options.prefix ?? 'local-';
  mkdirSync(options.dataDir, { recursive: true });

  const ddbServer = dynalite({
    ...(options.persistDynamo === false ? {} : { path: join(options.dataDir, 'dynamodb') }),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  const ddbPort = await listen(ddbServer, host);
  const ddbEndpoint = `http://${host}:${ddbPort}`;

  const bucket = `${prefix}audio`;
  const documentsBucket = `${prefix}documents`;
  const s3 = new S3rver({
    port: 0,
    address: host,
    silent: true,
    directory: join(options.dataDir, 's3'),
    configureBuckets: [
      { name: bucket, configs: [corsXml(narrationManifest.bucket.cors)] },
      { name: documentsBucket, configs: [corsXml(documentsManifest.bucket.cors)] },
    ],
  });
  keepBucketConfigInMemory(s3.store);
  writeObjectsWhole(s3.store);
  withoutRequestLog(s3.middleware);
  const s3Addr = await s3.run();
  const s3Endpoint = `http://${host}:${s3Addr.port}`;

  // fauxqs' startFauxqs() listens on every interface; build its app and listen on loopback ourselves. Its
  // queue URLs default to sqs.<region>.localhost, which the SDK would then use as the endpoint: an empty host
  // makes them http://127.0.0.1:<port>/..., the emulator's real address.
  const { buildApp } = await import('fauxqs');
  // Found by folder: its exports map offers only an `import` condition, nothing require.resolve can use.
  const dist = join(__dirname, '..', '..', 'node_modules', 'fauxqs', 'dist');
  const [{ SqsStore }, { SnsStore }, { S3Store }] = await Promise.all([
    import(join(dist, 'sqs', 'sqsStore.js')),
    import(join(dist, 'sns', 'snsStore.js')),
    import(join(dist, 's3', 's3Store.js')),
  ]);
  const sqsStore = new SqsStore();
  sqsStore.host = '';
  const sqsApp = buildApp({
    logger: false,
    stores: { sqsStore, snsStore: new SnsStore(), s3Store: new S3Store() },
  });
  const sqsEndpoint = (await sqsApp.listen({ port: 0, host })).replace('localhost', host);

  const tableNames = Object.fromEntries(
    (Object.keys(TABLES) as TableId[]).map((id) => [id, `${prefix}${id}`]),
  ) as Record<TableId, string>;
  await ensureTables(ddbEndpoint, tableNames);
  const queueSpecs = options.queues ?? [...narrationManifest.queues, ...documentsManifest.queues];
  const queues = await createQueues(sqsEndpoint, prefix, options.queueVisibilityS ?? 10, queueSpecs);

  const env: Record<string, string> = {
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: ddbEndpoint,
    AWS_ENDPOINT_URL_S3: s3Endpoint,
    AWS_ENDPOINT_URL_SQS: sqsEndpoint,
    S3_FORCE_PATH_STYLE: 'true',
    AUDIO_BUCKET: bucket,
    DOCUMENTS_BUCKET: documentsBucket,
    ...Object.fromEntries(
      (Object.keys(TABLES) as TableId[]).map((id) => [TABLES[id].envVar, tableNames[id]]),
    ),
    ...Object.fromEntries(queueSpecs.map((spec) => [spec.envVar, queues[spec.id]!])),
    ...Object.fromEntries(queueSpecs.map((spec) => [dlqEnvVar(spec.id), queues[`${spec.id}Dlq`]!])),
  };

  const stopped = new Set<string>();
  const stoppers = {
    dynamodb: () => new Promise<void>((r) => ddbServer.close(() => r())),
    s3: () => s3.close(),
    sqs: () => sqsApp.close(),
  };
  const stopService = async (name: keyof typeof stoppers) => {
    if (stopped.has(name)) return;
    stopped.add(name);
    await stoppers[name]();
  };
  return {
    env,
    tableNames,
    bucket,
    queues,
    stopService,
    stop: async () => {
      await Promise.all((Object.keys(stoppers) as (keyof typeof stoppers)[]).map(stopService));
    },
  };
}
