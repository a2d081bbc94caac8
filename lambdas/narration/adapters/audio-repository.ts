// DynamoDB implementation of AudioRepository: one item per conversion, keyed by audioId, expiring with its audio.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AudioRecord, AudioRepository } from '../domain/ports';

/**
 * How long a worker owns a job without a sign of life. Progress updates renew it, so a worker that dies (or is
 * killed) mid-job frees the job within this time and the next delivery takes it over. Must stay below the
 * queue's visibility timeout so the redelivery finds the lease expired.
 */
export const DEFAULT_LEASE_S = 120;

export class DynamoAudioRepository implements AudioRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
    private readonly leaseS: number = DEFAULT_LEASE_S,
  ) {}

  async create(record: AudioRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: record,
        ConditionExpression: 'attribute_not_exists(audioId)',
      }),
    );
  }

  async get(audioId: string): Promise<AudioRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { audioId }, ConsistentRead: true }),
    );
    return out.Item as AudioRecord | undefined;
  }

  async claim(audioId: string, attempt: number): Promise<AudioRecord | undefined> {
    const now = this.now();
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { audioId },
          UpdateExpression:
            'SET #s = :processing, attempts = :attempt, leaseUntil = :lease, updatedAt = :now',
          // queued, or processing whose previous worker's lease ran out (it crashed or timed out).
          ConditionExpression:
            'attribute_exists(audioId) AND (#s = :queued OR (#s = :processing AND leaseUntil < :nowS))',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':processing': 'processing',
            ':queued': 'queued',
            ':attempt': attempt,
            ':lease': Math.floor(now.getTime() / 1000) + this.leaseS,
            ':nowS': Math.floor(now.getTime() / 1000),
            ':now': now.toISOString(),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as AudioRecord;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  async release(audioId: string): Promise<void> {
    await this.update(
      audioId,
      'SET #s = :queued, updatedAt = :now REMOVE leaseUntil',
      { ':queued': 'queued' },
      '#s = :processing',
      {
        ':processing': 'processing',
      },
    );
  }

  async setProgress(audioId: string, progress: number): Promise<void> {
    await this.update(
      audioId,
      'SET progress = :p, updatedAt = :now',
      { ':p': progress },
      '#s = :processing',
      {
        ':processing': 'processing',
      },
    );
  }

  async complete(audioId: string, result: { durationS: number; bytes: number }): Promise<void> {
    await this.update(
      audioId,
      'SET #s = :done, durationS = :d, bytes = :b, progress = :one, updatedAt = :now REMOVE leaseUntil, #e',
      { ':done': 'done', ':d': result.durationS, ':b': result.bytes, ':one': 1 },
    );
  }

  async fail(audioId: string, reason: string): Promise<void> {
    await this.update(audioId, 'SET #s = :failed, #e = :reason, updatedAt = :now REMOVE leaseUntil', {
      ':failed': 'failed',
      ':reason': reason,
    });
  }

  async listUnfinished(limit: number): Promise<AudioRecord[]> {
    const items: AudioRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.send(
        new ScanCommand({
          TableName: this.table,
          FilterExpression: '#s IN (:q, :p)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':q': 'queued', ':p': 'processing' },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((out.Items ?? []) as AudioRecord[]));
      start = out.LastEvaluatedKey;
    } while (start && items.length < limit);
    return items.slice(0, limit);
  }

  private async update(
    audioId: string,
    expression: string,
    values: Record<string, unknown>,
    condition?: string,
    conditionValues: Record<string, unknown> = {},
  ): Promise<void> {
    const names: Record<string, string> = {};
    if (expression.includes('#s') || condition?.includes('#s')) names['#s'] = 'status';
    if (expression.includes('#e')) names['#e'] = 'error';
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { audioId },
          UpdateExpression: expression,
          ConditionExpression: condition
            ? `attribute_exists(audioId) AND ${condition}`
            : 'attribute_exists(audioId)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ...conditionValues, ':now': this.now().toISOString() },
        }),
      );
    } catch (err) {
      // Progress on a job that finished meanwhile is harmless; anything else propagates.
      if (err instanceof ConditionalCheckFailedException && condition) return;
      throw err;
    }
  }
}
