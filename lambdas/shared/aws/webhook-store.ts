// DynamoDB WebhookStore (lambdas/shared/webhooks): one endpoint per account in a service's accounts table,
// `pk = <prefix><owner>` (WEBHOOK_ITEM_PREFIX, `webhook#`). The signing secret is stored as is (an HMAC key must be),
// protected by the table's encryption at rest and IAM: only the webhook routes and the workers that send events may
// read `webhook#` items (each service's routes.ts, itemPrefixes).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoTable } from './dynamo-table';
import { Conflict } from '../errors';
import type { WebhookEndpoint, WebhookStore } from '../webhooks/endpoints';
import { WEBHOOK_ITEM_PREFIX } from '../webhooks/item-prefix';

const key = (owner: string) => ({ pk: WEBHOOK_ITEM_PREFIX + owner });

export class DynamoWebhookStore<E extends string = string> extends DynamoTable implements WebhookStore<E> {
  async get(owner: string): Promise<WebhookEndpoint<E> | undefined> {
    const out = await this.readItem({ Key: key(owner), ConsistentRead: true });
    if (!out.Item) return undefined;
    const { pk: _pk, ...rest } = out.Item;
    return rest as WebhookEndpoint<E>;
  }

  /**
   * Writes the endpoint if nobody changed it since it was read: created only if absent, replaced only while it
   * still has the secret it was read with. Two concurrent changes: the second gets 409 (and no secret is lost).
   */
  async put(endpoint: WebhookEndpoint<E>, previousSecret?: string): Promise<void> {
    try {
      await this.writeItem({
        Item: { ...key(endpoint.owner), ...endpoint },
        ConditionExpression: previousSecret === undefined ? 'attribute_not_exists(pk)' : 'secret = :previous',
        ...(previousSecret === undefined
          ? {}
          : { ExpressionAttributeValues: { ':previous': previousSecret } }),
      });
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException)
        throw new Conflict(
          'The webhook endpoint was changed by another request just now. Read it again (GET /v1/webhook) and retry.',
        );
      throw err;
    }
  }

  async remove(owner: string): Promise<boolean> {
    const out = await this.deleteItem({ Key: key(owner), ReturnValues: 'ALL_OLD' });
    return out.Attributes !== undefined;
  }
}
