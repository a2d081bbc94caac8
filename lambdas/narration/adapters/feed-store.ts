// DynamoDB implementation of FeedStore (table `feeds`, lib/tables.ts): a feed is `feed#<id>`, each article
// `art#<id>#<key>`, a day of listen counters `listen#<id>#<yyyy-mm-dd>`. Indexes: byOwner (attribute `owner`, feeds only), byPoll (`pollShard`, set only while the feed
// is active: pausing removes it, so the scheduler never reads paused feeds), byFeed (`articleOf`, articles only).
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { DynamoTable } from '../../shared/aws/dynamo-table';
import { isConditionFailure } from '../../shared/aws/conditional';
import type { ArticleRecord, FeedRecord, FeedStore } from '../ports';

export const FEED_ITEM_PREFIX = 'feed#';
export const ARTICLE_ITEM_PREFIX = 'art#';
export const LISTEN_ITEM_PREFIX = 'listen#';
/** The one value of byPoll's partition key: a handful of thousand feeds fit one partition's reads per tick. */
const POLL_SHARD = 'active';

const feedKey = (feedId: string) => ({ pk: FEED_ITEM_PREFIX + feedId });
const articleKey = (feedId: string, key: string) => ({ pk: `${ARTICLE_ITEM_PREFIX}${feedId}#${key}` });
const listenKey = (feedId: string, day: string) => ({ pk: `${LISTEN_ITEM_PREFIX}${feedId}#${day}` });

function strip<T>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  const { pk: _pk, pollShard: _shard, articleOf: _of, ...rest } = item;
  return rest as T;
}

export class DynamoFeedStore extends DynamoTable implements FeedStore {
  async create(feed: FeedRecord): Promise<void> {
    await this.writeItem({
      Item: {
        ...feed,
        ...feedKey(feed.feedId),
        ...(feed.status === 'active' ? { pollShard: POLL_SHARD } : {}),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  }

  async get(feedId: string): Promise<FeedRecord | undefined> {
    const out = await this.readItem({ Key: feedKey(feedId), ConsistentRead: true });
    return strip<FeedRecord>(out.Item);
  }

  async listByOwner(owner: string): Promise<FeedRecord[]> {
    return (await this.query('byOwner', 'owner', owner)).map((i) => strip<FeedRecord>(i)!);
  }

  async update(feedId: string, fields: Partial<FeedRecord>): Promise<FeedRecord | undefined> {
    const set: string[] = [];
    const remove: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    let i = 0;
    const put = (name: string, value: unknown) => {
      const n = `#f${i}`;
      names[n] = name;
      if (value === undefined) remove.push(n);
      else {
        values[`:v${i}`] = value;
        set.push(`${n} = :v${i}`);
      }
      i++;
    };
    for (const [k, v] of Object.entries(fields)) put(k, v);
    if (fields.status !== undefined) put('pollShard', fields.status === 'active' ? POLL_SHARD : undefined);
    try {
      const out = await this.updateItem({
        Key: feedKey(feedId),
        UpdateExpression: [
          set.length ? `SET ${set.join(', ')}` : '',
          remove.length ? `REMOVE ${remove.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join(' '),
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      });
      return strip<FeedRecord>(out.Attributes);
    } catch (err) {
      if (isConditionFailure(err)) return undefined; // no such feed
      throw err;
    }
  }

  async remove(feedId: string): Promise<void> {
    await this.deleteItem({ Key: feedKey(feedId) });
  }

  async due(nowS: number, limit: number): Promise<FeedRecord[]> {
    const items = await this.query('byPoll', 'pollShard', POLL_SHARD, {
      filter: 'nextPollAt <= :now',
      values: { ':now': nowS },
    });
    return items.slice(0, limit).map((i) => strip<FeedRecord>(i)!);
  }

  async getArticle(feedId: string, key: string): Promise<ArticleRecord | undefined> {
    const out = await this.readItem({ Key: articleKey(feedId, key), ConsistentRead: true });
    return strip<ArticleRecord>(out.Item);
  }

  async hasArticle(feedId: string, key: string): Promise<boolean> {
    // Read units follow the item read, not what is returned: hence the article item (< 4 KB), not the feed's.
    const out = await this.readItem({ Key: articleKey(feedId, key), ProjectionExpression: 'pk' });
    return out.Item !== undefined;
  }

  async putArticle(article: ArticleRecord): Promise<void> {
    await this.writeItem({
      Item: { ...article, ...articleKey(article.feedId, article.key), articleOf: article.feedId },
    });
  }

  async articles(feedId: string, keys: string[]): Promise<ArticleRecord[]> {
    const found = new Map<string, ArticleRecord>();
    for (const item of await this.batchGet(keys.map((k) => articleKey(feedId, k)))) {
      const a = strip<ArticleRecord>(item)!;
      found.set(a.key, a);
    }
    return keys.flatMap((k) => (found.has(k) ? [found.get(k)!] : []));
  }

  async allArticles(feedId: string): Promise<ArticleRecord[]> {
    return (await this.query('byFeed', 'articleOf', feedId)).map((i) => strip<ArticleRecord>(i)!);
  }

  async removeArticle(feedId: string, key: string): Promise<void> {
    await this.deleteItem({ Key: articleKey(feedId, key) });
  }

  async countListen(feedId: string, day: string, counters: string[], expiresAt: number): Promise<void> {
    // One item per feed and day, one top-level number per counter: ADD creates both on first use and is exact under
    // concurrent beacons (no read-modify-write).
    const names: Record<string, string> = { '#x': 'expiresAt' };
    const values: Record<string, number> = { ':one': 1, ':x': expiresAt };
    counters.forEach((c, i) => (names[`#c${i}`] = c));
    await this.updateItem({
      Key: listenKey(feedId, day),
      UpdateExpression: `ADD ${counters.map((_, i) => `#c${i} :one`).join(', ')} SET #x = :x`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  }

  async listenDays(feedId: string, days: string[]): Promise<Map<string, Record<string, number>>> {
    const prefix = listenKey(feedId, '').pk;
    const out = new Map<string, Record<string, number>>();
    for (const item of await this.batchGet(days.map((d) => listenKey(feedId, d)))) {
      const { pk, expiresAt: _x, ...counters } = item;
      out.set(String(pk).slice(prefix.length), counters as Record<string, number>);
    }
    return out;
  }

  /** BatchGetItem in slices of 100 keys, retried until nothing is left unprocessed. */
  private async batchGet(keys: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < keys.length; i += 100) {
      let request: Record<string, { Keys: Record<string, unknown>[] }> | undefined = {
        [this.table]: { Keys: keys.slice(i, i + 100) },
      };
      for (let round = 0; request && round < 8; round++) {
        const out: BatchGetCommandOutput = await this.db.send(new BatchGetCommand({ RequestItems: request }));
        items.push(...(out.Responses?.[this.table] ?? []));
        const left: { Keys?: Record<string, unknown>[] } | undefined = out.UnprocessedKeys?.[this.table];
        request = left?.Keys?.length ? { [this.table]: { Keys: left.Keys } } : undefined;
      }
    }
    return items;
  }

  private async query(
    index: string,
    attribute: string,
    value: string,
    extra: { filter?: string; values?: Record<string, unknown> } = {},
  ): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.queryItems({
        IndexName: index,
        KeyConditionExpression: '#a = :v',
        ...(extra.filter ? { FilterExpression: extra.filter } : {}),
        ExpressionAttributeNames: { '#a': attribute },
        ExpressionAttributeValues: { ':v': value, ...extra.values },
        ExclusiveStartKey: start,
      });
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }
}
