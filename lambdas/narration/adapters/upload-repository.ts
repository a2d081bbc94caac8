// DynamoDB implementation of UploadRepository: one item per PDF upload slot in the audio table, keyed
// `upload#<uploadId>` (the audio routes' ids cannot contain '#', so GET /audio never reads one; the upload route's
// grant is narrowed to this prefix). Expired by the table's TTL (expiresAt).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoTable } from '../../shared/aws/dynamo-table';
import type { PdfUpload, UploadRepository } from '../ports';

/** Partition-key prefix of upload items in the audio table (the manifest's itemPrefixes reads it). */
export const UPLOAD_ITEM_PREFIX = 'upload#';
/** The audio table's partition key. */
const KEY = 'audioId';

export class DynamoUploadRepository extends DynamoTable implements UploadRepository {
  private key(uploadId: string) {
    return { [KEY]: UPLOAD_ITEM_PREFIX + uploadId };
  }

  async create(upload: PdfUpload): Promise<void> {
    await this.writeItem({
      Item: { ...upload, ...this.key(upload.uploadId) },
      ConditionExpression: 'attribute_not_exists(#k)',
      ExpressionAttributeNames: { '#k': KEY },
    });
  }

  async get(uploadId: string): Promise<PdfUpload | undefined> {
    const out = await this.readItem({ Key: this.key(uploadId), ConsistentRead: true });
    if (!out.Item) return undefined;
    const { [KEY]: _key, ...rest } = out.Item;
    return rest as PdfUpload;
  }

  /** One conditional write; false when it did not hold (someone else's, used, expired or absent). */
  private async conditional(
    uploadId: string,
    update: string,
    condition: string,
    values: Record<string, unknown>,
    names: Record<string, string> = {},
  ): Promise<boolean> {
    try {
      await this.updateItem({
        Key: this.key(uploadId),
        UpdateExpression: update,
        ConditionExpression: `attribute_exists(#k) AND ${condition}`,
        ExpressionAttributeNames: { '#k': KEY, '#s': 'status', ...names },
        ExpressionAttributeValues: values,
      });
      return true;
    } catch (err) {
      if (
        err instanceof ConditionalCheckFailedException ||
        (err as Error).name === 'ConditionalCheckFailedException'
      )
        return false;
      throw err;
    }
  }

  claim(uploadId: string, owner: string, nowS: number, audioId?: string): Promise<boolean> {
    const base = { ':used': 'used', ':pending': 'pending', ':owner': owner, ':now': nowS };
    if (audioId === undefined)
      return this.conditional(
        uploadId,
        'SET #s = :used REMOVE claimedFor',
        '#s = :pending AND #o = :owner AND convertBy > :now',
        base,
        { '#o': 'owner' },
      );
    return this.conditional(
      uploadId,
      'SET #s = :used, claimedFor = :a',
      '#o = :owner AND convertBy > :now AND (#s = :pending OR ' +
        '(#s = :used AND claimedFor = :a AND attribute_not_exists(convertedTo)))',
      { ...base, ':a': audioId },
      { '#o': 'owner' },
    );
  }

  async release(uploadId: string): Promise<void> {
    await this.conditional(
      uploadId,
      'SET #s = :pending REMOVE claimedFor',
      '#s = :used AND attribute_not_exists(convertedTo)',
      {
        ':used': 'used',
        ':pending': 'pending',
      },
    );
  }

  async complete(uploadId: string, audioId: string): Promise<void> {
    await this.conditional(uploadId, 'SET convertedTo = :a', '#s = :used', {
      ':a': audioId,
      ':used': 'used',
    });
  }
}
