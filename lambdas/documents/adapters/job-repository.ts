// DynamoDB JobRepository of the documents service's async renders: one item per job in the accounts table,
// `pk = docjob#<job id>`, expiring (TTL expiresAt) with its result. The job transitions are the shared leased-job
// engine's (lambdas/shared/jobs: claimed jobs are `rendering`); this adds the webhook event and delivery log.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoLeasedJobStore } from '../../shared/jobs/dynamo-leased-job-store';
import { MAX_RECORDED_DELIVERIES, type DeliveryAttempt, type JobRecord, type JobRepository } from '../ports';
import { JOB_ITEM_PREFIX } from './item-prefixes';

export class DynamoJobRepository extends DynamoLeasedJobStore<JobRecord> implements JobRepository {
  constructor(db: DynamoDBDocumentClient, table: string, now?: () => Date, leaseS?: number) {
    super(
      db,
      { table, idField: 'jobId', keyAttribute: 'pk', keyPrefix: JOB_ITEM_PREFIX, activeStatus: 'rendering' },
      now,
      leaseS,
    );
  }

  async markEventQueued(jobId: string): Promise<void> {
    await this.update(jobId, {
      set: ['#ev.queued = :true'],
      condition: 'attribute_exists(#ev)',
      names: { '#ev': 'event' },
      values: { ':true': true },
      touch: false,
    });
  }

  async listSettledWithEvents(limit: number): Promise<JobRecord[]> {
    return this.scanJobs(
      'attribute_exists(#ev) AND #s IN (:done, :failed)',
      { '#ev': 'event', '#s': 'status' },
      { ':done': 'done', ':failed': 'failed' },
      limit,
    );
  }

  async addDelivery(jobId: string, attempt: DeliveryAttempt): Promise<void> {
    await this.update(jobId, {
      set: ['deliveries = list_append(if_not_exists(deliveries, :empty), :d)'],
      condition: '(attribute_not_exists(deliveries) OR size(deliveries) < :max)',
      values: { ':empty': [], ':d': [attempt], ':max': MAX_RECORDED_DELIVERIES },
      touch: false,
    });
  }
}
