// DynamoDB KeyStore: items keyed by keyHash, GSI byEmail for an account's keys.
import { DynamoTable } from './dynamo-table';
import { conditionHeld } from './conditional';
import type { ApiKeyRecord, KeyBillingState, KeyStore } from '../auth/keys';

export class DynamoKeyStore extends DynamoTable implements KeyStore {
  async put(record: ApiKeyRecord): Promise<void> {
    await this.writeItem({
      Item: record,
      ConditionExpression: 'attribute_not_exists(keyHash)',
    });
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.readItem({ Key: { keyHash } });
    return out.Item as ApiKeyRecord | undefined;
  }

  async listByEmail(email: string): Promise<ApiKeyRecord[]> {
    const out = await this.queryItems({
      IndexName: 'byEmail',
      KeyConditionExpression: 'email = :e',
      ExpressionAttributeValues: { ':e': email.toLowerCase() },
    });
    return (out.Items ?? []) as ApiKeyRecord[];
  }

  async revoke(keyHash: string, at: Date, opts: { onlyIfActive?: boolean } = {}): Promise<boolean> {
    return conditionHeld(() =>
      this.updateItem({
        Key: { keyHash },
        UpdateExpression: 'SET #s = :revoked, revokedAt = :at',
        ConditionExpression: opts.onlyIfActive
          ? 'attribute_exists(keyHash) AND #s = :active'
          : 'attribute_exists(keyHash)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':revoked': 'revoked',
          ':at': at.toISOString(),
          ...(opts.onlyIfActive ? { ':active': 'active' } : {}),
        },
      }),
    );
  }

  async putIfAbsent(record: ApiKeyRecord): Promise<boolean> {
    return conditionHeld(() => this.put(record));
  }

  async syncBilling(keyHash: string, state: KeyBillingState): Promise<boolean> {
    return conditionHeld(() =>
      this.updateItem({
        Key: { keyHash },
        UpdateExpression: 'SET #plan = :plan, billingStatus = :bs, accountVersion = :v',
        // Never creates a key, never goes back to an older account state.
        ConditionExpression:
          'attribute_exists(keyHash) AND (attribute_not_exists(accountVersion) OR accountVersion < :v)',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: {
          ':plan': state.plan,
          ':bs': state.billingStatus,
          ':v': state.accountVersion,
        },
      }),
    );
  }
}
