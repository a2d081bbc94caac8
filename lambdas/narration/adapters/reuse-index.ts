// DynamoDB implementation of ReuseIndex: one item per request fingerprint in the audio table, keyed
// `same#<fingerprint>` (audio ids cannot contain '#', so GET /audio never reads one), naming the audio that answered
// it and expiring with that audio (the table's TTL, expiresAt).
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ReuseIndex } from '../ports';

/** Partition-key prefix of fingerprint items in the audio table. */
export const REUSE_ITEM_PREFIX = 'same#';

export class DynamoReuseIndex implements ReuseIndex {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async find(fingerprint: string): Promise<string | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { audioId: REUSE_ITEM_PREFIX + fingerprint } }),
    );
    const target: unknown = out.Item?.target;
    return typeof target === 'string' ? target : undefined;
  }

  async remember(fingerprint: string, audioId: string, expiresAt: number): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { audioId: REUSE_ITEM_PREFIX + fingerprint, target: audioId, expiresAt },
      }),
    );
  }
}
