// DynamoDB LexiconStore (table `accounts`, partition key `pk`): one item per account, `lexicons#<owner>`, holding
// all its lexicons as one JSON attribute and a version. One item keeps the per-account limits (count, total size)
// and the single default exact under concurrent writes: each write is conditional on the version it read (no
// transactions: DynamoDB Local emulators lack them), and a lost race re-reads and tries again.
// Size: LEXICON_LIMITS.accountBytes (300 KB) keeps the item under DynamoDB's 400 KB item limit.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoTable } from '../../shared/aws/dynamo-table';
import type { Lexicon } from '../core/lexicon';
import type { LexiconStore } from '../ports';
import { LEXICON_ITEM_PREFIX } from './item-prefixes';

const ATTEMPTS = 8;

export class DynamoLexiconStore extends DynamoTable implements LexiconStore {
  private async read(owner: string): Promise<{ lexicons: Lexicon[]; version: number }> {
    const out = await this.readItem({
      Key: { pk: LEXICON_ITEM_PREFIX + owner },
      ConsistentRead: true,
    });
    if (!out.Item) return { lexicons: [], version: 0 };
    return {
      lexicons: JSON.parse(String(out.Item['data'])) as Lexicon[],
      version: Number(out.Item['version'] ?? 0),
    };
  }

  async list(owner: string): Promise<Lexicon[]> {
    return (await this.read(owner)).lexicons;
  }

  async update<T>(owner: string, change: (current: Lexicon[]) => { next: Lexicon[]; result: T }): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const { lexicons, version } = await this.read(owner);
      const { next, result } = change(lexicons);
      try {
        await this.writeItem({
          Item: { pk: LEXICON_ITEM_PREFIX + owner, data: JSON.stringify(next), version: version + 1 },
          ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
          ...(version === 0 ? {} : { ExpressionAttributeValues: { ':v': version } }),
        });
        return result;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException) || attempt >= ATTEMPTS) throw err;
      }
    }
  }
}
