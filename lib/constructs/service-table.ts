// One DynamoDB table of a service, shaped by lib/tables.ts (which the local emulators read too). Both stacks use
// this, so every table gets the same settings.
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { TableId } from '../../lambdas/shared/manifest';
import { TABLES, TTL_ATTRIBUTE } from '../tables';

export function serviceTable(scope: Construct, tableId: TableId): dynamodb.Table {
  const shape = TABLES[tableId];
  const table = new dynamodb.Table(scope, `${tableId[0]!.toUpperCase()}${tableId.slice(1)}Table`, {
    partitionKey: { name: shape.partitionKey, type: dynamodb.AttributeType.STRING },
    // On-demand: no traffic, no bill (storage aside), and no capacity to tune for spiky free-tier use.
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // Items carry their own expiry (epoch seconds) and DynamoDB deletes them at no cost. TTL is declared only
    // here: the local emulator does not implement UpdateTimeToLive.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    // Keys, quotas, accounts and records outlive a `cdk destroy` (docs/deploy.md says how to delete them).
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of shape.indexes ?? []) {
    // keys.byEmail: account lookups by e-mail (customer portal, re-sending a key); small table, project ALL.
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }
  return table;
}
