// DynamoDB GrowthStore (table `growth`, partition key `pk`): dedupe markers are conditional puts, counters are
// single UpdateItem ADDs — both exact under any concurrency, with no transactions (the local emulator has none).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { DynamoTable } from './dynamo-table';
import type { GrowthItem, GrowthStore } from '../growth/ports';

/** BatchGetItem reads at most 100 keys per call. */
const BATCH = 100;

export class DynamoGrowthStore extends DynamoTable implements GrowthStore {
  async putIfAbsent(pk: string, item: GrowthItem): Promise<boolean> {
    try {
      await this.writeItem({
        Item: { ...item, pk },
        ConditionExpression: 'attribute_not_exists(pk)',
      });
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async add(
    pk: string,
    deltas: Record<string, number>,
    setOnce: GrowthItem = {},
  ): Promise<Record<string, number>> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const adds: string[] = [];
    const sets: string[] = [];
    Object.entries(deltas).forEach(([attr, delta], i) => {
      names[`#a${i}`] = attr;
      values[`:a${i}`] = delta;
      adds.push(`#a${i} :a${i}`);
    });
    Object.entries(setOnce).forEach(([attr, value], i) => {
      names[`#s${i}`] = attr;
      values[`:s${i}`] = value;
      sets.push(`#s${i} = if_not_exists(#s${i}, :s${i})`);
    });
    if (!adds.length && !sets.length) return {};
    const out = await this.updateItem({
      Key: { pk },
      UpdateExpression: [
        adds.length ? `ADD ${adds.join(', ')}` : '',
        sets.length ? `SET ${sets.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'UPDATED_NEW',
    });
    const result: Record<string, number> = {};
    for (const attr of Object.keys(deltas)) result[attr] = Number(out.Attributes?.[attr] ?? 0);
    return result;
  }

  async getMany(pks: string[]): Promise<Map<string, GrowthItem>> {
    const found = new Map<string, GrowthItem>();
    const unique = [...new Set(pks)];
    for (let i = 0; i < unique.length; i += BATCH) {
      let keys: Record<string, unknown>[] | undefined = unique.slice(i, i + BATCH).map((pk) => ({ pk }));
      // Unprocessed keys (throttling) are retried until none are left; the SDK's own retries back off.
      for (let round = 0; keys?.length; round++) {
        if (round >= 8) throw new Error(`BatchGetItem left ${keys.length} key(s) unprocessed after 8 rounds`);
        if (round > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** round)));
        const out: BatchGetCommandOutput = await this.db.send(
          new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of out.Responses?.[this.table] ?? []) found.set(item.pk as string, item);
        keys = out.UnprocessedKeys?.[this.table]?.Keys;
      }
    }
    return found;
  }
}
