// What a manifest entry's `access` grants its function, read by ManifestService for every route, worker and
// schedule: the item calls on each table (narrowed to partition-key prefixes, or with Query on the indexes it names),
// the bucket under its prefixes, sending to its queues, a DLQ's depth, speech, and its settings. Each grant also sets
// the variable the runtime reads (lambdas/shared/config.ts), so a permission and its variable never drift.
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Access, BucketSpec, QueueSpec, TableId } from '../../lambdas/shared/manifest';
import { dlqEnvVar } from '../../lambdas/shared/manifest';
import { TABLES } from '../tables';
import { DYNAMODB_READ, DYNAMODB_WRITE, type ServiceFunctionBase } from './service-function-base';

/**
 * Item actions for a grant narrowed to partition-key prefixes (access.itemPrefixes): the same item calls as any
 * table grant (DYNAMODB_READ/WRITE), which all carry the item's key, so dynamodb:LeadingKeys always applies; never
 * Scan or Query (their requests name no partition key, and a ForAllValues condition over an absent key would allow
 * them).
 */
const ITEM_READ = DYNAMODB_READ;
const ITEM_WRITE = DYNAMODB_WRITE;

/** The service's resources an entry's access may name. */
export interface GrantTargets {
  tables: Partial<Record<TableId, dynamodb.Table>>;
  bucket: s3.IBucket;
  bucketSpec: BucketSpec;
  queues: Record<string, { queue: sqs.Queue; dlq: sqs.Queue; spec: QueueSpec }>;
  /** lib/constructs/settings.ts's binder for this service. */
  bindSettings: (fn: lambda.Function, names?: readonly string[]) => void;
}

/** Grants `fn` what `access` names, and nothing else. */
export function grantAccess(fn: ServiceFunctionBase, access: Access, r: GrantTargets): void {
  for (const [tableId, mode] of Object.entries(access.tables ?? {}) as [TableId, 'r' | 'rw' | undefined][]) {
    if (!mode) continue;
    const table = r.tables[tableId]!;
    const prefixes = access.itemPrefixes?.[tableId];
    const queried = access.queries?.[tableId] ?? [];
    const indexes = (TABLES[tableId].indexes ?? []).map((i) => i.name);
    for (const index of queried)
      if (!indexes.includes(index))
        throw new Error(`access.queries names ${tableId}.${index}, which is not an index of lib/tables.ts.`);
    if (prefixes?.length) {
      if (queried.length)
        throw new Error(
          `access: a ${tableId} grant narrowed to item prefixes cannot also query its indexes.`,
        );
      // A table grant narrowed to items whose partition key starts with one of the prefixes.
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
      continue;
    }
    fn.bindTable(table, mode, TABLES[tableId].envVar, queried);
  }
  if (access.bucket) {
    fn.bindBucket(r.bucket, access.bucket, r.bucketSpec.envVar, access.bucketPrefixes);
    for (const [k, v] of Object.entries(r.bucketSpec.environment ?? {})) fn.fn.addEnvironment(k, v);
  }
  for (const queueId of access.sendTo ?? []) {
    const q = r.queues[queueId];
    if (!q) throw new Error(`access.sendTo names ${queueId}, which is not one of the manifest's queues.`);
    fn.bindQueue(q.queue, q.spec.envVar);
  }
  for (const queueId of access.readDlqs ?? []) {
    const q = r.queues[queueId];
    if (!q) throw new Error(`access.readDlqs names ${queueId}, which is not one of the manifest's queues.`);
    // Depth only: no receive, delete or send on a DLQ from an API function.
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sqs:GetQueueAttributes'], resources: [q.dlq.queueArn] }),
    );
    fn.fn.addEnvironment(dlqEnvVar(queueId), q.dlq.queueUrl);
  }
  if (access.speech) fn.allowSpeech();
  r.bindSettings(fn.fn, access.settings);
}
