// DynamoDB implementation of AudioRepository: one item per conversion, keyed by audioId, expiring with its audio.
// The job transitions are the shared leased-job engine's (lambdas/shared/jobs): claimed jobs are `processing`.
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoLeasedJobStore, fieldsUpdate } from '../../shared/jobs/dynamo-leased-job-store';
import type { AudioRecord, AudioRepository, Segment } from '../ports';

export class DynamoAudioRepository extends DynamoLeasedJobStore<AudioRecord> implements AudioRepository {
  constructor(db: DynamoDBDocumentClient, table: string, now?: () => Date, leaseS?: number) {
    super(db, { table, idField: 'audioId', activeStatus: 'processing' }, now, leaseS);
  }

  async setSegments(id: string, segments: Segment[], progress: number): Promise<boolean> {
    const out = await this.update(id, {
      set: ['#segs = :segs', 'progress = :p'],
      condition: '#s = :active',
      names: { '#segs': 'segments' }, // a reserved word in DynamoDB expressions
      values: { ':segs': segments, ':p': progress },
    });
    return out !== undefined;
  }

  async reference(id: string): Promise<boolean> {
    const out = await this.update(id, {
      set: ['referenced = :yes'],
      condition: '#s IN (:queued, :active)',
      values: { ':yes': true },
      touch: false,
    });
    return out !== undefined;
  }

  async retireUnreferenced(id: string, reason: string, fields: Partial<AudioRecord> = {}): Promise<boolean> {
    const f = fieldsUpdate(fields);
    const out = await this.update(id, {
      set: ['#s = :failed', '#e = :reason', ...f.set],
      remove: ['leaseUntil'],
      condition: 'NOT (#s IN (:done, :failed)) AND attribute_not_exists(referenced)',
      names: { '#e': 'error', ...f.names },
      values: { ':done': 'done', ':failed': 'failed', ':reason': reason, ...f.values },
    });
    return out !== undefined;
  }

  async remove(id: string): Promise<boolean> {
    const out = await this.db.send(
      new DeleteCommand({ TableName: this.shape.table, Key: this.key(id), ReturnValues: 'ALL_OLD' }),
    );
    return out.Attributes !== undefined;
  }
}
