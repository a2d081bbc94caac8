// The DynamoDB LeasedJobStore: one item per job, every transition one conditional UpdateCommand (lib-dynamodb).
// The item is the record itself plus, when the table's key is not the record's id field, the key attribute
// (`keyPrefix + id`, stripped on read). Attribute names are the record's field names: status, progress, attempts,
// leaseUntil, updatedAt, error, and whatever fields complete()/fail() are given.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  ScanCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { LeasedJob, LeasedJobStore, Requeued } from './leased-job';

/**
 * How long a worker owns a job after claiming it, or after its last renewal (the worker renews it every third of it
 * while it works: leased-job.ts). Must stay below the queue's visibility timeout so the redelivery of a message whose
 * worker died finds the lease expired.
 */
export const DEFAULT_LEASE_S = 120;

/** Where a service's jobs live in their table. */
export interface JobTable<T> {
  table: string;
  /** The record field holding the job id. */
  idField: keyof T & string;
  /** The partition key attribute (default idField). When it differs, it holds keyPrefix + id. */
  keyAttribute?: string;
  keyPrefix?: string;
  /** The status of a job a worker holds (e.g. processing, rendering). */
  activeStatus: string;
}

/** One conditional update: SET/REMOVE clauses, a condition, names and values (`#s` is status, `#k` the key). */
export interface JobUpdate {
  set: string[];
  remove?: string[];
  /** ANDed after attribute_exists(#k): parenthesize an OR (DynamoDB refuses redundant parentheses). */
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  /** ADD clauses: counters (numbers) and string sets, by attribute name. */
  add?: Record<string, number | Set<string>>;
  /** ALL_NEW or ALL_OLD: the item update() answers. */
  returnValues?: 'ALL_NEW' | 'ALL_OLD';
  /** Stamp updatedAt (default true): the job's state changed. */
  touch?: boolean;
}

export class DynamoLeasedJobStore<T extends LeasedJob> implements LeasedJobStore<T> {
  private readonly keyAttribute: string;
  private readonly keyPrefix: string;

  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly shape: JobTable<T>,
    protected readonly now: () => Date = () => new Date(),
    /** How long a worker owns a job after claiming it: below its queue's visibility timeout (documents: JOB_LEASE_S). */
    readonly leaseS: number = DEFAULT_LEASE_S,
  ) {
    this.keyAttribute = shape.keyAttribute ?? shape.idField;
    this.keyPrefix = shape.keyPrefix ?? '';
  }

  protected key(id: string): Record<string, string> {
    return { [this.keyAttribute]: this.keyPrefix + id };
  }

  protected fromItem(item: Record<string, unknown> | undefined): T | undefined {
    if (!item) return undefined;
    if (this.keyAttribute === this.shape.idField) return item as T;
    const { [this.keyAttribute]: _key, ...rest } = item;
    return rest as unknown as T;
  }

  async create(job: T): Promise<void> {
    const id = job[this.shape.idField] as unknown as string;
    await this.db.send(
      new PutCommand({
        TableName: this.shape.table,
        Item: { ...this.key(id), ...job },
        ConditionExpression: 'attribute_not_exists(#k)',
        ExpressionAttributeNames: { '#k': this.keyAttribute },
      }),
    );
  }

  async get(id: string): Promise<T | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.shape.table, Key: this.key(id), ConsistentRead: true }),
    );
    return this.fromItem(out.Item);
  }

  async claim(id: string, attempt: number): Promise<T | undefined> {
    const nowS = Math.floor(this.now().getTime() / 1000);
    const out = await this.update(id, {
      set: ['#s = :active', 'attempts = :attempt', 'leaseUntil = :lease'],
      // queued, or active whose previous worker's lease ran out (it crashed or timed out).
      condition: '(#s = :queued OR (#s = :active AND leaseUntil < :nowS))',
      values: { ':attempt': attempt, ':lease': nowS + this.leaseS, ':nowS': nowS },
      returnValues: 'ALL_NEW',
    });
    return out ? this.fromItem(out) : undefined;
  }

  async renew(id: string, heldUntil: number): Promise<number | undefined> {
    const lease = Math.floor(this.now().getTime() / 1000) + this.leaseS;
    // The lease value is the holder's token: a worker that took the job over wrote a later one.
    const out = await this.update(id, {
      set: ['leaseUntil = :lease'],
      condition: '#s = :active AND leaseUntil = :held',
      values: { ':lease': Math.max(lease, heldUntil), ':held': heldUntil },
      touch: false,
    });
    return out ? Math.max(lease, heldUntil) : undefined;
  }

  async release(id: string): Promise<void> {
    await this.update(id, { set: ['#s = :queued'], remove: ['leaseUntil'], condition: '#s = :active' });
  }

  async setProgress(id: string, progress: number): Promise<void> {
    await this.update(id, { set: ['progress = :p'], condition: '#s = :active', values: { ':p': progress } });
  }

  async complete(id: string, fields: Partial<T>): Promise<boolean> {
    // Only from queued/active: a job another worker already settled keeps its outcome.
    const f = fieldsUpdate(fields);
    return !!(await this.update(id, {
      set: ['#s = :done', 'progress = :one', ...f.set],
      remove: ['leaseUntil', '#e'],
      condition: '#s IN (:queued, :active)',
      names: { '#e': 'error', ...f.names },
      values: { ':done': 'done', ':one': 1, ...f.values },
    }));
  }

  async fail(id: string, reason: string, fields: Partial<T> = {}): Promise<boolean> {
    const f = fieldsUpdate(fields);
    return !!(await this.update(id, {
      set: ['#s = :failed', '#e = :reason', ...f.set],
      remove: ['leaseUntil'],
      condition: 'NOT (#s IN (:done, :failed))',
      names: { '#e': 'error', ...f.names },
      values: { ':done': 'done', ':failed': 'failed', ':reason': reason, ...f.values },
    }));
  }

  async requeueFailed(id: string): Promise<Requeued> {
    const old = await this.update(id, {
      set: ['#s = :queued', 'progress = :zero'],
      remove: ['#e', 'leaseUntil'],
      condition: '#s = :failed',
      names: { '#e': 'error' },
      values: { ':failed': 'failed', ':zero': 0 },
      returnValues: 'ALL_OLD',
    });
    if (old) return { requeued: true, error: String(old.error ?? 'failed') };
    return { requeued: false, status: (await this.get(id))?.status ?? 'missing' };
  }

  async restoreFailed(id: string, error: string): Promise<boolean> {
    return !!(await this.update(id, {
      set: ['#s = :failed', '#e = :error'],
      condition: '#s = :queued',
      names: { '#e': 'error' },
      values: { ':failed': 'failed', ':error': error },
    }));
  }

  async markEnded(id: string): Promise<boolean> {
    const out = await this.update(id, {
      set: [],
      remove: ['#end'],
      condition: 'attribute_exists(#end)',
      names: { '#end': 'ending' },
      touch: false, // updatedAt stays the outcome's time (the webhook event's `at`)
    });
    return out !== undefined;
  }

  async listUnfinished(limit: number): Promise<T[]> {
    return this.scanJobs(
      '(#s IN (:q, :a) OR attribute_exists(#end))',
      { '#s': 'status', '#end': 'ending' },
      { ':q': 'queued', ':a': this.shape.activeStatus },
      limit,
    );
  }

  /**
   * Up to `limit` jobs of this store (its key prefix) matching `filter`, by a Scan: only for the local runtime's
   * start (no deployed function is granted Scan).
   */
  protected async scanJobs(
    filter: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
    limit: number,
  ): Promise<T[]> {
    const items: T[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.send(
        new ScanCommand({
          TableName: this.shape.table,
          FilterExpression: (this.keyPrefix ? 'begins_with(#k, :prefix) AND ' : '') + filter,
          ExpressionAttributeNames: { ...names, ...(this.keyPrefix ? { '#k': this.keyAttribute } : {}) },
          ExpressionAttributeValues: { ...values, ...(this.keyPrefix ? { ':prefix': this.keyPrefix } : {}) },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []).map((i) => this.fromItem(i)!));
      start = out.LastEvaluatedKey;
    } while (start && items.length < limit);
    return items.slice(0, limit);
  }

  /**
   * One conditional update of an existing job, stamping updatedAt. `:queued` and `:active` are always bound.
   * Answers the item (new or old, as asked; `{}` when neither) or undefined when the condition did not hold.
   */
  protected async update(id: string, u: JobUpdate): Promise<Record<string, unknown> | undefined> {
    const set = u.touch === false ? u.set : [...u.set, 'updatedAt = :now'];
    const adds = Object.entries(u.add ?? {});
    const expression = [
      set.length ? `SET ${set.join(', ')}` : '',
      adds.length ? `ADD ${adds.map(([,], i) => `#a${i} :a${i}`).join(', ')}` : '',
      u.remove?.length ? `REMOVE ${u.remove.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const condition = u.condition ? `attribute_exists(#k) AND ${u.condition}` : 'attribute_exists(#k)';
    const text = `${expression} ${condition}`;
    const values: Record<string, unknown> = {
      ':now': this.now().toISOString(),
      ':queued': 'queued',
      ':active': this.shape.activeStatus,
      ...u.values,
      ...Object.fromEntries(adds.map(([, v], i) => [`:a${i}`, v])),
    };
    const used = Object.entries(values).filter(([k]) => new RegExp(`${k}(?![A-Za-z0-9_])`).test(text));
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.shape.table,
          Key: this.key(id),
          UpdateExpression: expression,
          ConditionExpression: condition,
          ExpressionAttributeNames: {
            '#k': this.keyAttribute,
            ...(text.includes('#s') ? { '#s': 'status' } : {}),
            ...Object.fromEntries(adds.map(([name], i) => [`#a${i}`, name])),
            ...u.names,
          },
          // DynamoDB refuses values the expressions do not use (and an empty map: a bare REMOVE uses none).
          ...(used.length ? { ExpressionAttributeValues: Object.fromEntries(used) } : {}),
          ...(u.returnValues ? { ReturnValues: u.returnValues } : {}),
        }),
      );
      return out.Attributes ?? {};
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }
}

/** SET clauses for a record's own fields (undefined ones are left out). */
export function fieldsUpdate(fields: object): Required<Pick<JobUpdate, 'set' | 'names' | 'values'>> {
  const out = {
    set: [] as string[],
    names: {} as Record<string, string>,
    values: {} as Record<string, unknown>,
  };
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .forEach(([name, value], i) => {
      out.set.push(`#f${i} = :f${i}`);
      out.names[`#f${i}`] = name;
      out.values[`:f${i}`] = value;
    });
  return out;
}
