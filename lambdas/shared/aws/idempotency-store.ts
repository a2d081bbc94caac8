// DynamoDB IdempotencyStore (lambdas/shared/idempotency): one item per (caller, Idempotency-Key) in the quotas table,
// `pk = idem#<scope>#<hash of the key>`, removed by the table's TTL (`expiresAt`) a day after its answer. Taking a key
// is ONE conditional put (absent, expired, or a lapsed lock), so exactly one of many concurrent requests runs; the
// answer is kept gzipped in the same item (binary attribute).
import { DynamoTable } from './dynamo-table';
import { conditionHeld } from './conditional';
import {
  IDEMPOTENCY_TTL_S,
  type BeginResult,
  type IdempotencyStore,
  type StoredResponse,
} from '../idempotency/idempotency';

export const IDEMPOTENCY_ITEM_PREFIX = 'idem#';

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

export class DynamoIdempotencyStore extends DynamoTable implements IdempotencyStore {
  private key(key: string) {
    return { pk: IDEMPOTENCY_ITEM_PREFIX + key };
  }

  async begin(key: string, fingerprint: string, lockS: number, now: Date): Promise<BeginResult> {
    const nowS = epoch(now);
    // Bounded: the item can only vanish between the put and the read if its holder released it meanwhile.
    for (let i = 0; i < 3; i++) {
      const started = await conditionHeld(() =>
        this.writeItem({
          Item: {
            ...this.key(key),
            state: 'pending',
            fingerprint,
            lockedUntil: nowS + lockS,
            expiresAt: nowS + IDEMPOTENCY_TTL_S,
          },
          // TTL deletes lazily: an expired item counts as absent.
          ConditionExpression:
            'attribute_not_exists(pk) OR expiresAt < :now OR (#s = :pending AND lockedUntil < :now)',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':now': nowS, ':pending': 'pending' },
        }),
      );
      if (started) return { state: 'started' };
      const out = await this.readItem({ Key: this.key(key), ConsistentRead: true });
      const item = out.Item;
      if (!item) continue;
      if (item.state === 'pending') return { state: 'in_progress', fingerprint: String(item.fingerprint) };
      const r = item.response as
        | { statusCode: number; headers: Record<string, string>; body: Uint8Array; isBase64Encoded: boolean }
        | undefined;
      return {
        state: 'completed',
        fingerprint: String(item.fingerprint),
        response: r
          ? {
              statusCode: Number(r.statusCode),
              headers: r.headers ?? {},
              body: r.body,
              isBase64Encoded: !!r.isBase64Encoded,
            }
          : null,
      };
    }
    return { state: 'in_progress', fingerprint };
  }

  async complete(
    key: string,
    fingerprint: string,
    response: StoredResponse | null,
    now: Date,
  ): Promise<void> {
    await this.updateItem({
      Key: this.key(key),
      UpdateExpression: response
        ? 'SET #s = :done, #r = :r, expiresAt = :exp REMOVE lockedUntil'
        : 'SET #s = :done, expiresAt = :exp REMOVE lockedUntil',
      ConditionExpression: 'fingerprint = :fp',
      ExpressionAttributeNames: { '#s': 'state', ...(response ? { '#r': 'response' } : {}) },
      ExpressionAttributeValues: {
        ':done': 'completed',
        ':fp': fingerprint,
        ':exp': epoch(now) + IDEMPOTENCY_TTL_S,
        ...(response ? { ':r': response } : {}),
      },
    });
  }

  async renew(key: string, fingerprint: string, lockS: number, now: Date): Promise<void> {
    await conditionHeld(() =>
      this.updateItem({
        Key: this.key(key),
        UpdateExpression: 'SET lockedUntil = :l',
        ConditionExpression: '#s = :pending AND fingerprint = :fp',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':l': epoch(now) + lockS, ':pending': 'pending', ':fp': fingerprint },
      }),
    );
  }

  async release(key: string, fingerprint: string): Promise<void> {
    await conditionHeld(() =>
      this.deleteItem({
        Key: this.key(key),
        ConditionExpression: '#s = :pending AND fingerprint = :fp',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':pending': 'pending', ':fp': fingerprint },
      }),
    );
  }
}
