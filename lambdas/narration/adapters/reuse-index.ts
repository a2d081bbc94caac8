// DynamoDB implementation of ReuseIndex: one item per request fingerprint in the audio table, keyed
// `same#<fingerprint>` (audio ids cannot contain '#', so GET /audio never reads one), naming the audio that answered
// it and expiring with that audio (the table's TTL, expiresAt).
import { DynamoTable } from '../../shared/aws/dynamo-table';
import type { ReuseIndex } from '../ports';

/** Partition-key prefix of fingerprint items in the audio table. */
export const REUSE_ITEM_PREFIX = 'same#';

export class DynamoReuseIndex extends DynamoTable implements ReuseIndex {
  async find(fingerprint: string): Promise<string | undefined> {
    const out = await this.readItem({ Key: { audioId: REUSE_ITEM_PREFIX + fingerprint } });
    const target: unknown = out.Item?.target;
    return typeof target === 'string' ? target : undefined;
  }

  async remember(fingerprint: string, audioId: string, expiresAt: number): Promise<void> {
    await this.writeItem({
      Item: { audioId: REUSE_ITEM_PREFIX + fingerprint, target: audioId, expiresAt },
    });
  }
}
