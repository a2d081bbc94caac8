// DynamoDB JobRepository of the documents service's async renders: one item per job in the accounts table,
// `pk = docjob#<job id>`, expiring (TTL expiresAt) with its result. Every transition is one conditional update, so
// duplicate SQS deliveries and a worker that lost its lease cannot move a job backwards.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  ScanCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { DocumentProblem } from '../domain/errors';
import {
  MAX_RECORDED_DELIVERIES,
  type DeliveryAttempt,
  type JobRecord,
  type JobRepository,
  type JobResult,
} from '../domain/jobs';
import { JOB_ITEM_PREFIX } from './item-prefixes';

const key = (jobId: string) => ({ pk: JOB_ITEM_PREFIX + jobId });

function fromItem(item: Record<string, unknown> | undefined): JobRecord | undefined {
  if (!item) return undefined;
  const { pk: _pk, ...rest } = item;
  return rest as unknown as JobRecord;
}

export class DynamoJobRepository implements JobRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(job: JobRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...key(job.jobId), ...job },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(jobId: string): Promise<JobRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: key(jobId), ConsistentRead: true }),
    );
    return fromItem(out.Item);
  }

  async claim(jobId: string, attempt: number, leaseS: number, now: Date): Promise<JobRecord | undefined> {
    const nowS = Math.floor(now.getTime() / 1000);
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(jobId),
          UpdateExpression: 'SET #s = :rendering, attempts = :attempt, leaseUntil = :lease, updatedAt = :now',
          // queued, or rendering whose previous worker's lease ran out (it crashed or timed out).
          ConditionExpression:
            'attribute_exists(pk) AND (#s = :queued OR (#s = :rendering AND leaseUntil < :nowS))',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':rendering': 'rendering',
            ':queued': 'queued',
            ':attempt': attempt,
            ':lease': nowS + leaseS,
            ':nowS': nowS,
            ':now': now.toISOString(),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return fromItem(out.Attributes);
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  async release(jobId: string, now: Date): Promise<void> {
    await this.update(jobId, 'SET #s = :queued, updatedAt = :now REMOVE leaseUntil', '#s = :rendering', {
      ':queued': 'queued',
      ':rendering': 'rendering',
      ':now': now.toISOString(),
    });
  }

  async setProgress(jobId: string, progress: number, now: Date): Promise<void> {
    await this.update(jobId, 'SET progress = :p, updatedAt = :now', '#s = :rendering', {
      ':p': progress,
      ':rendering': 'rendering',
      ':now': now.toISOString(),
    });
  }

  async complete(jobId: string, result: JobResult, event: JobRecord['event'], now: Date): Promise<void> {
    // Only from queued/rendering: a job another worker already settled keeps its outcome.
    await this.update(
      jobId,
      `SET #s = :done, progress = :one, #r = :result, completedAt = :now, updatedAt = :now${event ? ', #ev = :event' : ''} REMOVE leaseUntil`,
      '#s IN (:queued, :rendering)',
      {
        ':done': 'done',
        ':one': 1,
        ':result': result,
        ':now': now.toISOString(),
        ':queued': 'queued',
        ':rendering': 'rendering',
        ...(event ? { ':event': event } : {}),
      },
    );
  }

  async fail(
    jobId: string,
    failure: { reason: string; problems?: DocumentProblem[] },
    event: JobRecord['event'],
    now: Date,
  ): Promise<boolean> {
    const sets = ['#s = :failed', '#e = :reason', 'completedAt = :now', 'updatedAt = :now'];
    const values: Record<string, unknown> = {
      ':failed': 'failed',
      ':reason': failure.reason,
      ':now': now.toISOString(),
      ':done': 'done',
    };
    if (failure.problems?.length) {
      sets.push('problems = :problems');
      values[':problems'] = failure.problems;
    }
    if (event) {
      sets.push('#ev = :event');
      values[':event'] = event;
    }
    return this.update(
      jobId,
      `SET ${sets.join(', ')} REMOVE leaseUntil`,
      'NOT (#s IN (:done, :failed))',
      values,
    );
  }

  async markEventQueued(jobId: string): Promise<void> {
    await this.update(jobId, 'SET #ev.queued = :true', 'attribute_exists(#ev)', { ':true': true });
  }

  async addDelivery(jobId: string, attempt: DeliveryAttempt): Promise<void> {
    await this.update(
      jobId,
      'SET deliveries = list_append(if_not_exists(deliveries, :empty), :d)',
      '(attribute_not_exists(deliveries) OR size(deliveries) < :max)',
      { ':empty': [], ':d': [attempt], ':max': MAX_RECORDED_DELIVERIES },
    );
  }

  async listUnfinished(limit: number): Promise<JobRecord[]> {
    const items: JobRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.send(
        new ScanCommand({
          TableName: this.table,
          FilterExpression: 'begins_with(pk, :p) AND #s IN (:q, :r)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':p': JOB_ITEM_PREFIX, ':q': 'queued', ':r': 'rendering' },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []).map((i) => fromItem(i)!));
      start = out.LastEvaluatedKey;
    } while (start && items.length < limit);
    return items.slice(0, limit);
  }

  /** A conditional update of an existing job; false (nothing changed) when the condition does not hold. */
  private async update(
    jobId: string,
    expression: string,
    condition: string,
    values: Record<string, unknown>,
  ): Promise<boolean> {
    const text = `${expression} ${condition}`;
    const names: Record<string, string> = {};
    if (text.includes('#s')) names['#s'] = 'status';
    if (text.includes('#e ') || text.includes('#e,')) names['#e'] = 'error';
    if (text.includes('#ev')) names['#ev'] = 'event';
    if (text.includes('#r')) names['#r'] = 'result';
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(jobId),
          UpdateExpression: expression,
          ConditionExpression: `attribute_exists(pk) AND ${condition}`,
          ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }
}
